/**
 * What `doctor` checks and repairs of the repository around the state (DESIGN §2.2, §2.3): its
 * format, core.sharedRepository and the permissions of what Pantheon made, the state ref and
 * its reflog, the keep dir's alternates line, the identity; and `doctor --recover`. Kept apart
 * from GitStore, which reads and writes the state: none of this is on a command's hot path.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ConflictError, ContentionError, GitError, LockedError, NotFoundError, SharedPermError } from "../../errors.js";
import { loadGitConfig } from "./git-config.js";
import { runBoundedGitSync } from "../git/git-bounds.js";
import { commitIdentity } from "./git-identity.js";
import type { StateWriter } from "../state/state-writer.js";
import { REF } from "../state/layout.js";
import { keepDirListed, listKeepDir } from "../git/loose-writer.js";
import { readRef } from "../git/ref-cas.js";
import { gitReflogPath, startReflog, ZERO_OID } from "../git/reflog.js";
import { repositoryFormatProblems } from "./repo-format.js";
import {
  adjustSharedPerm,
  ensureParentDir,
  mkdirShared,
  parseSharedPerm,
  sharedPermOf,
  type SharedPerm,
} from "../git/shared-perm.js";
import { fixSharedPerms, sharedPermProblems } from "./shared-perm-check.js";
import { isComplete, namedCommits, recoveryCandidates } from "./state-recovery.js";
import { lostTips } from "./lost-tips.js";
import { gitLeftovers } from "./git-leftovers.js";
import type { CommitInfo, GitLeftover, LostTip, RecoveryCandidate, RepositoryStatus } from "../store.js";
import { listTree } from "../git/tree-edit.js";
import { WRITABLE_DIRS } from "../git/repo-paths.js";

export class RepositoryCare {
  constructor(
    private readonly store: StateWriter,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  private get paths() {
    return this.store.paths;
  }

  async status(): Promise<RepositoryStatus> {
    const commonDir = this.paths.commonDir;
    const unsupported = repositoryFormatProblems(commonDir);
    const value = loadGitConfig(commonDir, this.env, this.paths.gitDir).get("core.sharedrepository") ?? null;
    let problem: string | null = null;
    let perm: SharedPerm = 0;
    try {
      perm = parseSharedPerm(value ?? undefined);
    } catch (e) {
      if (!(e instanceof SharedPermError)) throw e;
      problem = e.why;
    }
    const octal = (m: number) => `0${m.toString(8)}`;
    const permissions = sharedPermProblems(commonDir, perm).map((p) => ({
      path: relative(commonDir, p.path),
      mode: octal(p.mode),
      want: octal(p.want),
    }));
    // In a format Pantheon does not implement, its idea of the ref would be wrong: not read.
    const ref =
      unsupported.length > 0
        ? { state: "missing" as const, oid: null, detail: "not read: the repository's format is not supported" }
        : await this.refState();
    const id = unsupported.length > 0 ? null : await commitIdentity(this.paths, this.env);
    return {
      unsupported,
      sharedRepository: { value, problem },
      permissions,
      ref,
      reflog: existsSync(gitReflogPath(commonDir, REF)),
      keepListed: keepDirListed(this.store.db.objectsDir),
      identity: id
        ? { who: `${id.committer.name} <${id.committer.email}>`, source: id.source }
        : { who: "", source: "git" },
    };
  }

  /** Whether the ref names a commit whose root tree can be read (doctor reads every record after this). */
  async refState(): Promise<RepositoryStatus["ref"]> {
    let oid: string | null;
    try {
      oid = await readRef(this.paths.commonDir, REF);
    } catch (e) {
      return { state: "damaged", oid: null, detail: (e as Error).message };
    }
    if (!oid) return { state: "missing", oid: null, detail: null };
    try {
      const obj = await this.store.db.read(oid);
      if (obj.type !== "commit") return { state: "damaged", oid, detail: `it points at a ${obj.type}, not a commit` };
      await listTree(this.store.db, (await this.store.db.readCommit(oid)).tree);
    } catch (e) {
      return { state: "damaged", oid, detail: (e as Error).message };
    }
    return { state: "ok", oid, detail: null };
  }

  candidates(limit: number): Promise<{ candidates: RecoveryCandidate[]; incomplete: number }> {
    return recoveryCandidates(this.paths, this.store.db, this.env, (c) => this.isStateCommit(c), limit);
  }

  /** States the reflogs name that hold commits the ref lacks; none while the ref is damaged (--recover's own case). */
  async lostTips(): Promise<LostTip[]> {
    const state = await this.refState();
    if (state.state === "damaged") return [];
    return lostTips(this.paths, this.store.db, this.env, state.oid, (c) => this.isStateCommit(c));
  }

  gitLeftovers(): GitLeftover[] {
    return gitLeftovers(this.paths.commonDir);
  }

  /** A commit whose project.json reads as a Pantheon project this version understands. */
  private async isStateCommit(commit: string): Promise<boolean> {
    try {
      await (await this.store.snapshotAt(commit)).project();
      return true;
    } catch {
      return false;
    }
  }

  async recover(commitText: string, infoFor: (from: string) => CommitInfo): Promise<{ from: string; commit: string }> {
    this.store.checkWritable();
    const state = await this.refState();
    if (state.state === "ok") {
      throw new ConflictError(
        `${REF} is healthy (at ${state.oid!.slice(0, 12)}); --recover only restores a missing or damaged ref`,
        "pantheon doctor --recover lists the reflog tips holding commits it lacks (it merges those back); pantheon log shows its history",
      );
    }
    if (state.state === "damaged" && state.oid === null) {
      // The ref file itself is unreadable: compare-and-swap needs a value to compare with.
      throw new GitError(
        "E_GIT_READ_REF",
        `${REF} cannot be read (${state.detail})`,
        "git update-ref -d refs/coordination/main, then pantheon doctor --recover (Pantheon keeps its own copy of the reflog)",
      );
    }
    const commit = this.resolveCandidate(commitText);
    if (!commit || !(await isComplete(this.paths, commit, this.env)) || !(await this.isStateCommit(commit))) {
      throw new NotFoundError(
        `${printableOid(commitText)} is not a complete Pantheon state in this repository`,
        "pantheon doctor --recover lists the states that can be restored",
      );
    }
    const info = infoFor(commit);
    const tree = (await this.store.db.readCommit(commit)).tree;
    const oid = await this.store.writeCommit([commit], tree, new Map(), info);
    const cas = await this.store.moveRef(state.oid, oid, info.summary);
    if (cas.ok) return { from: commit, commit: oid };
    if (cas.reason === "locked") throw new LockedError(cas.lockPath, cas.ageMs);
    throw new ContentionError(`${REF} changed while it was being recovered`, "pantheon doctor");
  }

  /** A full id, or an unambiguous prefix of a commit the logs name (or that git resolves). */
  private resolveCandidate(text: string): string | null {
    const t = text.trim().toLowerCase();
    if (/^[0-9a-f]{40}$/.test(t)) return t;
    if (!/^[0-9a-f]{4,39}$/.test(t)) return null;
    const named = [
      ...new Set(
        namedCommits(this.paths.commonDir)
          .map((s) => s.commit)
          .filter((c) => c.startsWith(t)),
      ),
    ];
    if (named.length === 1) return named[0]!;
    if (named.length > 1) return null;
    const r = runBoundedGitSync(
      [`--git-dir=${this.paths.commonDir}`, "rev-parse", "--verify", "--quiet", `${t}^{commit}`],
      {
        env: { ...this.env, GIT_DIR: undefined } as NodeJS.ProcessEnv,
      },
    );
    const found = r.stdout.toString("utf8").trim();
    return r.status === 0 && /^[0-9a-f]{40}$/.test(found) ? found : null;
  }

  async startReflog(): Promise<boolean> {
    this.store.checkWritable();
    const tip = await readRef(this.paths.commonDir, REF);
    if (!tip) return false;
    const note = await this.store.reflogNote("pantheon doctor --fix: reflog started");
    return startReflog(this.paths.commonDir, REF, { ...note, old: ZERO_OID, next: tip });
  }

  writeCloneFile(relPath: string, text: string): string {
    const parts = relPath.split("/");
    if (parts.some((p) => !/^[A-Za-z0-9._-]+$/.test(p) || p === "." || p === ".."))
      throw new GitError("E_GIT_CLONE_FILE", `Invalid clone file name ${JSON.stringify(relPath)}`);
    const path = join(this.paths.commonDir, "pantheon", ...parts);
    ensureParentDir(this.paths.commonDir, path);
    writeFileSync(path, text);
    adjustSharedPerm(path, sharedPermOf(this.paths.commonDir));
    return path;
  }

  writableDirs(create: boolean): string[] {
    const dirs = WRITABLE_DIRS.map((d) => join(this.paths.commonDir, ...d.split("/")));
    if (create) for (const d of dirs) mkdirShared(d, sharedPermOf(this.paths.commonDir));
    return dirs;
  }

  listKeepDir(): boolean {
    this.store.checkWritable();
    return listKeepDir(this.store.db.objectsDir, this.paths.commonDir);
  }

  fixPermissions(): { fixed: string[]; failed: string[] } {
    const r = fixSharedPerms(this.paths.commonDir, this.store.sharedPerm());
    const rel = (p: string) => relative(this.paths.commonDir, p);
    return { fixed: r.fixed.map(rel), failed: r.failed.map(rel) };
  }
}

/** What the user typed as a commit, safe to echo: a few printable characters. */
function printableOid(text: string): string {
  return JSON.stringify(text.slice(0, 64).replace(/[^\x20-\x7e]/g, "?"));
}
