import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ContentionError,
  GitError,
  LockedError,
  RepositoryError,
  SharedPermError,
  StateLostError,
  UnsupportedRepositoryError,
} from "../errors.js";
import { SCHEMA_VERSION } from "../domain/constants.js";
import type { CachedSnapshot } from "./cache/cached-snapshot.js";
import { ReadCache } from "./cache/read-cache.js";
import { HistoryIndex } from "./cache/history-index.js";
import { checkKinds } from "./cache/state-check.js";
import { EMPTY_COUNTERS } from "../domain/constants.js";
import type { Project } from "../domain/schemas/project.js";
import { canonicalJson } from "./state/canonical-json.js";
import { commitMessage } from "./state/commit-message.js";
import type { Signature } from "./git/commit-data.js";
import { loadGitConfig } from "./repo/git-config.js";
import { commitIdentity, type CommitIdentity } from "./repo/git-identity.js";
import { assertSupportedFormat } from "./repo/repo-format.js";
import { reflogMessage, tzString } from "./git/reflog.js";
import {
  adjustSharedPerm,
  mkdirShared,
  parseSharedPerm,
  registerSharedPerm,
  sharedPermOf,
  type SharedPerm,
} from "./git/shared-perm.js";
import { GitTreeSource } from "./state/git-tree-source.js";
import { COUNTERS_PATH, PROJECT_PATH, recordPath, REF, type RecordKind } from "./state/layout.js";
import { ObjectDb } from "./git/object-db.js";
import { RecordSnapshot } from "./state/record-snapshot.js";
import { encode, RecordTx } from "./state/record-tx.js";
import { loadSchemas } from "./state/schema-loader.js";
import { breakLock, casRef, faultPoint, lockStatus, readRef, type CasResult, type ReflogNote } from "./git/ref-cas.js";
import type { RepoPaths } from "./repo/repo.js";
import { backoffMs, retryBudget, sleep } from "./state/retry.js";
import type {
  CodeRepo,
  CommitEntry,
  CommitInfo,
  MovedTo,
  MutateOptions,
  MutateOutcome,
  MutationResult,
  Snapshot,
  StateCheck,
  StateSync,
  Store,
  Tx,
} from "./store.js";
import { movedFrom } from "./sync/renumber-log.js";
import { logItem, walkLog } from "./state/commit-log.js";
import { writeTreeChanges, type TreeChanges, type TreeEdits } from "./git/tree-edit.js";
import { LazyPack } from "./git/pack-writer.js";
import type { Schemas } from "./state/record-schemas.js";
import { stateMigration, type StateMigration } from "./state/state-migration.js";
import { dropNotices, keepNotice, readNotices } from "./sync/clone-notices.js";
import type { StateWriter } from "./state/state-writer.js";
import { holdsState } from "./state/holds-state.js";

/** Records a mutation writes before its objects go into a pack rather than loose files (DESIGN §2.4a). */
export const PACK_AFTER = 256;

export interface GitStoreOptions {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  warn: (message: string) => void;
}

/** The Store on `refs/coordination/main` of a real repository (DESIGN §2). */
export class GitStore implements Store, StateWriter {
  readonly db: ObjectDb;
  /** The read cache of DESIGN §2.5 (cache/read-cache.ts): all of it sits behind this one object. */
  readonly cache: ReadCache;
  /** The history index of DESIGN §2.4a (cache/history-index.ts): what history-bound reads ask. */
  readonly history: HistoryIndex;
  /**
   * `<commit>:<path>` → the record's blob there (null: absent), as the history index said it for
   * the commits `log({ record })` listed and their first parents.
   */
  private readonly versions = new Map<string, string | null>();
  private readonly versioned = new Set<string>();
  private identityCache: CommitIdentity | undefined;
  private formatChecked = false;
  private writableChecked = false;

  constructor(
    readonly paths: RepoPaths,
    private readonly opts: GitStoreOptions,
  ) {
    this.db = new ObjectDb(paths.commonDir, {
      env: opts.env,
      gcAuto: () => loadGitConfig(paths.commonDir, opts.env, paths.gitDir).get("gc.auto"),
    });
    this.cache = new ReadCache(this.db, paths.commonDir);
    this.history = new HistoryIndex(this.db, paths.commonDir, (tip) => this.cache.journalAt(tip), opts.env);
    // Read on the first file this command creates in the common dir, not before.
    registerSharedPerm(paths.commonDir, () => this.sharedPerm());
  }

  /** core.sharedRepository as git reads it (every config file, `git -c`); throws SharedPermError on a value git refuses. */
  sharedPerm(): SharedPerm {
    return parseSharedPerm(
      loadGitConfig(this.paths.commonDir, this.opts.env, this.paths.gitDir).get("core.sharedrepository"),
    );
  }

  /**
   * Refuses a repository whose format Pantheon does not implement (DESIGN §2.2), before any
   * command reads or writes: one small config file, read once per command.
   */
  private checkFormat(): void {
    if (this.formatChecked) return;
    assertSupportedFormat(this.paths.commonDir);
    this.formatChecked = true;
  }

  /** Before the first write: a core.sharedRepository that git itself would refuse stops us too. */
  checkWritable(): void {
    this.checkFormat();
    if (this.writableChecked) return;
    try {
      this.sharedPerm();
      this.writableChecked = true;
    } catch (e) {
      if (e instanceof SharedPermError)
        throw new UnsupportedRepositoryError(
          "core.sharedRepository",
          e.value,
          e.why,
          {},
          "git config core.sharedRepository group (or all, umask, or a mode such as 0660); git itself refuses this value",
        );
      throw e;
    }
  }

  get root(): string | null {
    return this.paths.workTree;
  }
  get commonDir(): string {
    return this.paths.commonDir;
  }

  async tip(): Promise<string | null> {
    this.checkFormat();
    return readRef(this.paths.commonDir, REF);
  }

  async exists(): Promise<boolean> {
    return (await this.tip()) !== null;
  }

  async log(o: { limit?: number; record?: string | readonly string[] }): Promise<CommitEntry[]> {
    const tip = await this.tip();
    if (!tip) throw await this.missingState();
    const journal = this.cache.journalAt(tip);
    // The newest commits: a walk that stops after `limit` (the dashboard's recent activity).
    if (o.record === undefined) return walkLog(this.db, tip, o, (oid) => journal.logged(oid));
    const keys = typeof o.record === "string" ? [o.record] : o.record;
    // Taken at once: a long-lived process may bring the table further meanwhile.
    const rows = await this.history.query(tip, (table) => {
      const found = new Map<number, { oid: string; versions: Map<string, [string | null, string | null]> }>();
      for (const key of keys)
        for (const [r, v] of table.touches(key)) {
          const row = found.get(r) ?? { oid: table.oid(r), versions: new Map() };
          const path = pathOfKey(key);
          if (v && path) row.versions.set(path, v);
          found.set(r, row);
        }
      return [...found].sort((a, b) => b[0] - a[0]).slice(0, o.limit);
    });
    const out: CommitEntry[] = [];
    for (const [, row] of rows) {
      const entry = (journal.logged(row.oid) ?? logItem(row.oid, await this.db.readCommit(row.oid))).entry;
      // What the index knows of these records, for snapshotAt() on this commit and its parent.
      for (const [path, [before, after]] of row.versions) {
        this.versions.set(`${row.oid}:${path}`, after);
        this.versioned.add(row.oid);
        if (!entry.parents[0]) continue;
        this.versions.set(`${entry.parents[0]}:${path}`, before);
        this.versioned.add(entry.parents[0]);
      }
      out.push(entry);
    }
    return out;
  }

  async historyFacts() {
    const tip = await this.tip();
    if (!tip) throw await this.missingState();
    return this.history.facts(tip);
  }

  async codeHead(): Promise<string | null> {
    this.checkFormat();
    // HEAD is per worktree (gitDir), the branch it names lives in the common dir.
    let head: string | null = null;
    try {
      head = readFileSync(join(this.paths.gitDir, "HEAD"), "utf8");
    } catch {
      // no HEAD: not a code checkout
    }
    if (!head) return null;
    const sym = /^ref: (.+)$/m.exec(head);
    return sym ? readRef(this.paths.commonDir, sym[1]!.trim()) : head.trim() || null;
  }

  async holdsState(commit: string): Promise<boolean> {
    return holdsState(this.db, commit);
  }

  async snapshot(): Promise<Snapshot> {
    const tip = await this.tip();
    if (!tip) throw await this.missingState();
    const head = this.cache.head();
    const snap = this.tipSnapshot(tip, head);
    // Refuses a newer schemaVersion before any command reads records; an older one is read as is.
    const schemaVersion = await snap.checkVersion();
    // The next command at this commit skips reading project.json for that check. The version
    // found is kept, not ours: a write must still know to migrate an older state.
    if (head?.commit !== tip) this.cache.noteHead({ commit: tip, schemaVersion });
    return snap;
  }

  /** The tip's snapshot, with list-type reads served by the read cache (cache/read-cache.ts). */
  private tipSnapshot(tip: string, head = this.cache.head()): CachedSnapshot {
    const rootTree = () => this.treeOf(tip);
    return this.cache.snapshot(
      tip,
      {
        source: new GitTreeSource(this.db, rootTree),
        rootTree,
        warn: this.opts.warn,
        movedFrom: (kind, n) => this.movedFrom(kind, n),
      },
      head,
    );
  }

  /**
   * Read when asked, not kept: a sync of this very command (publishing, DESIGN §3.5) may have
   * just added to it; the moves that sync made are marked `own`.
   */
  private movedFrom(kind: string, n: number): MovedTo[] {
    const own = (to: number) => this.ownMoves.some((o) => o.kind === kind && o.from === n && o.to === to);
    return movedFrom(this.paths.commonDir, kind, n).map((m) => (own(m.to) ? { ...m, own: true } : m));
  }

  /** Renumberings made by merges of this store's command, followed to where the record is now. */
  private readonly ownMoves: { kind: string; from: number; to: number }[] = [];

  noteOwnRenumbering(moves: ReadonlyArray<{ kind: string; from: number; to: number }>): void {
    for (const m of moves) {
      // A retried push's merge may renumber the record again (3 → 4, then 4 → 5): the log moves
      // its first number along (renumber-log.ts), and so must this, or 3 stops being own.
      for (const o of this.ownMoves) if (o.kind === m.kind && o.to === m.from) o.to = m.to;
      this.ownMoves.push({ kind: m.kind, from: m.from, to: m.to });
    }
  }

  /**
   * A snapshot of any commit of the ref (history, merges). A commit `log({ record })` listed is
   * opened only if a read needs a path the history index did not name (see `versions`).
   */
  async snapshotAt(commit: string): Promise<RecordSnapshot> {
    this.checkFormat();
    // A commit id that names another type is E_GIT_CORRUPT_OBJECT, naming it (object-engine.ts).
    const treeOf = async () => (await this.db.readCommit(commit)).tree;
    const known = (path: string) => this.versions.get(`${commit}:${path}`);
    return new RecordSnapshot(
      new GitTreeSource(this.db, this.versioned.has(commit) ? treeOf : await treeOf(), known),
      commit,
      this.opts.warn,
      (kind, n) => this.movedFrom(kind, n),
    );
  }

  async mutate<R>(fn: (tx: Tx) => Promise<MutationResult<R>>, o: MutateOptions = {}): Promise<MutateOutcome<R>> {
    const budget = retryBudget(this.opts.env);
    const deadline = Date.now() + budget;
    for (let attempt = 0; ; attempt++) {
      const tip = await this.tip();
      if (!tip) throw await this.missingState();
      const current = this.tipSnapshot(tip);
      const version = await current.checkVersion();
      const schemas = await loadSchemas();
      // The first write of this version to an older state migrates it: the migration is its own
      // commit, under the command's, and one swap lands both, so a refused command (or one that
      // changes nothing) leaves the ref as it was. The command runs on the migrated state.
      const migration = version !== null && version < SCHEMA_VERSION ? await this.migrationOver(tip, schemas) : null;
      const parent = migration?.commit ?? tip;
      const base = migration ? this.tipSnapshot(parent) : current;
      // Past PACK_AFTER records, a mutation (an import) writes its objects as one pack, its
      // records' blobs as they are put (DESIGN §2.4a).
      const pack = new LazyPack(this.db);
      const tx = new RecordTx(base, schemas, {
        after: PACK_AFTER,
        sink: () => ({ write: (bytes) => pack.open().add("blob", bytes) }),
      });
      let written: { result: R; info: CommitInfo; oid: string };
      try {
        // Domain errors thrown here propagate untouched: nothing has been written yet (a pack
        // begun meanwhile is removed).
        const { result, commit: info } = await fn(tx);
        if (tx.size === 0) {
          pack.settle(false);
          return { result, commit: null };
        }
        if (tx.changes.size >= PACK_AFTER) pack.open();
        const edits = tx.edits();
        written = { result, info, oid: await this.writeCommit([parent], await this.treeOf(parent), edits, info, pack) };
      } catch (e) {
        pack.settle(false);
        throw e;
      }
      const { result, info, oid } = written;
      await faultPoint("after-objects");
      // Published before it lands here (DESIGN §3.5): a rejected push leaves this clone's ref
      // alone, so the caller re-runs the intent on a fresh merge instead of merging it away.
      const published = o.publish ? await o.publish(oid) : undefined;
      if (published === "rejected") {
        this.db.discardWritten();
        pack.settle(false);
        return { result, commit: null, published };
      }
      const cas = await this.moveRef(tip, oid, info.summary);
      pack.settle(cas.ok);
      if (cas.ok) {
        if (migration) {
          for (const notice of migration.notices) this.opts.warn(notice);
          await this.afterCommit(tip, parent, migration.changes, schemas);
        }
        if (tx.spilled.size === 0) await this.afterCommit(parent, oid, tx.changes, schemas);
        else this.cache.noteHead({ commit: oid, schemaVersion: SCHEMA_VERSION }); // too large to journal
        return { result, commit: oid, ...(published && { published }) };
      }
      // The remote has it already; re-running the intent would do it twice. A sync brings it in.
      if (published === "published") return { result, commit: oid, published, landed: false };
      // A lock older than the whole budget was left by a killed process: waiting cannot help.
      if (cas.reason === "locked" && cas.ageMs > budget) throw new LockedError(cas.lockPath, cas.ageMs);
      if (Date.now() + 1 > deadline) {
        if (cas.reason === "locked") throw new LockedError(cas.lockPath, cas.ageMs);
        throw new ContentionError(
          `Gave up after ${attempt + 1} attempts in ${Math.round(budget / 1000)} s: other writers kept changing ${REF}`,
          "retry the command; if this persists, see pantheon doctor",
          { attempts: attempt + 1 },
        );
      }
      await sleep(backoffMs(attempt));
    }
  }

  /**
   * Writes the migration commit over `parent` when its state is older than this version's schema
   * (state-migration.ts); the ref is not moved. Null when the state needs none.
   */
  async migrationOver(parent: string, schemas: Schemas): Promise<(StateMigration & { commit: string }) | null> {
    const tree = await this.treeOf(parent);
    const m = stateMigration(await new GitTreeSource(this.db, tree).read(PROJECT_PATH), parent, schemas);
    return m ? { ...m, commit: await this.writeCommit([parent], tree, m.changes, m.info) } : null;
  }

  /** Tells the read cache what this commit changed, and that its schema version is ours. */
  private afterCommit(parent: string, commit: string, changes: TreeChanges, schemas: Schemas): Promise<void> {
    return this.cache.afterCommit(parent, commit, changes, schemas, SCHEMA_VERSION);
  }

  async initialize(project: Project, info: CommitInfo): Promise<string> {
    const schemas = await loadSchemas();
    const changes: TreeChanges = new Map([
      [PROJECT_PATH, encode(schemas.project, project, PROJECT_PATH)],
      [COUNTERS_PATH, Buffer.from(canonicalJson(EMPTY_COUNTERS))],
    ]);
    const oid = await this.writeCommit([], null, changes, info);
    const cas = await this.moveRef(null, oid, info.summary);
    if (cas.ok) return oid;
    if (cas.reason === "locked") throw new LockedError(cas.lockPath, cas.ageMs);
    throw new GitError("E_GIT_REF_UPDATE", `${REF} was created by another process meanwhile`, "pantheon task list");
  }

  /**
   * Writes blobs, the changed trees and the commit; returns the commit id (the ref is not
   * moved). With an open `pack`, every object goes into it, and it is finished here.
   */
  async writeCommit(
    parents: string[],
    baseTree: string | null,
    changes: TreeEdits,
    info: CommitInfo,
    pack: LazyPack | null = null,
  ): Promise<string> {
    this.checkWritable();
    const target = pack?.target() ?? this.db;
    const tree = await writeTreeChanges(target, baseTree, changes);
    const id = await this.identity();
    const when = this.opts.now();
    const stamp = (name: string, email: string): Signature => ({
      name,
      email,
      timestamp: Math.floor(when.getTime() / 1000),
      tzOffsetMinutes: -when.getTimezoneOffset(),
    });
    const commit = await target.writeCommit({
      tree,
      parents,
      // The actor is the author (DESIGN §1.7); the Director's commits carry git's own author name.
      author: stamp(info.authorName ?? id.author.name, id.author.email),
      committer: stamp(id.committer.name, id.committer.email),
      message: commitMessage(info, changes.keys()),
    });
    if (pack?.opened) {
      await faultPoint("pack-unfinished");
      pack.opened.finish();
    }
    return commit;
  }

  /**
   * Compare-and-swap of the state ref with its reflog line, then the objects check of DESIGN
   * §2.3: every object written for `next` must still be on disk once the ref names it.
   * `message` defaults to `next`'s own summary line (a sync's fast-forward, a recovery).
   */
  async moveRef(expected: string | null, next: string, message?: string): Promise<CasResult> {
    this.checkWritable();
    const note = await this.reflogNote(message ?? (await this.summaryOf(next)));
    const cas = await casRef(this.paths.commonDir, REF, expected, next, note);
    if (cas.ok) this.db.verifyWritten();
    else this.db.discardWritten();
    return cas;
  }

  async reflogNote(message: string): Promise<ReflogNote> {
    const id = await this.identity();
    const when = this.opts.now();
    return {
      who: `${id.committer.name} <${id.committer.email}>`,
      time: Math.floor(when.getTime() / 1000),
      tz: tzString(-when.getTimezoneOffset()),
      message: reflogMessage(message),
    };
  }

  private async summaryOf(commit: string): Promise<string> {
    try {
      const msg = (await this.db.readCommit(commit)).message;
      return msg.split("\n")[0] ?? "";
    } catch {
      return "pantheon: update";
    }
  }

  private async treeOf(commit: string): Promise<string> {
    return (await this.db.readCommit(commit)).tree;
  }

  async checkState(commit: string, o: { trustCache?: boolean } = {}): Promise<StateCheck> {
    this.checkFormat();
    return checkKinds(this.db, this.commonDir, commit, await this.treeOf(commit), o.trustCache !== false);
  }

  async dropCache(): Promise<void> {
    this.cache.drop();
    this.history.drop();
  }

  lockStatus(): Promise<{ path: string; ageMs: number } | null> {
    return lockStatus(this.paths.commonDir, REF);
  }

  breakLock(): Promise<{ path: string; ageMs: number } | null> {
    return breakLock(this.paths.commonDir, REF);
  }

  /** Loaded on demand: worktrees, hooks and transport are not on any hot path. */
  async code(): Promise<CodeRepo> {
    this.checkFormat();
    const { gitCodeRepo } = await import("./code/git-code-repo.js");
    return gitCodeRepo(this.paths, this.opts.env);
  }

  async sync(): Promise<StateSync> {
    // A sync's fetch writes objects and refs through git before any CAS: refuse first.
    this.checkWritable();
    const { gitSync } = await import("./sync/git-sync.js");
    return gitSync(this, this.opts.env);
  }

  async freshness() {
    const tip = await this.tip();
    if (!tip) return [];
    const { stateFreshness } = await import("./sync/state-freshness.js");
    return stateFreshness(this.paths, this.db, this.opts.env, tip);
  }

  async keepNotice(value: unknown, tag: string): Promise<string> {
    this.checkWritable();
    return keepNotice(this.paths.commonDir, value, this.opts.now(), tag);
  }

  async notices() {
    return readNotices(this.paths.commonDir);
  }

  async dropNotices(ids: readonly string[]) {
    dropNotices(this.paths.commonDir, ids);
  }

  // What doctor checks and repairs of the repository: loaded on demand (repository-care.ts).
  private async care(): Promise<import("./repo/repository-care.js").RepositoryCare> {
    const { RepositoryCare } = await import("./repo/repository-care.js");
    return (this.careCache ??= new RepositoryCare(this, this.opts.env));
  }
  private careCache: import("./repo/repository-care.js").RepositoryCare | undefined;

  async repository() {
    return (await this.care()).status();
  }
  async recoveryCandidates(limit: number) {
    return (await this.care()).candidates(limit);
  }
  async lostTips() {
    return (await this.care()).lostTips();
  }
  private missingState() {
    return missingState(() => this.lostTips());
  }
  async gitLeftovers() {
    return (await this.care()).gitLeftovers();
  }
  async recover(commit: string, infoFor: (from: string) => CommitInfo) {
    return (await this.care()).recover(commit, infoFor);
  }
  async startReflog() {
    return (await this.care()).startReflog();
  }
  async writeCloneFile(relPath: string, text: string) {
    return (await this.care()).writeCloneFile(relPath, text);
  }
  async writableDirs(o: { create: boolean }) {
    return (await this.care()).writableDirs(o.create);
  }
  async listKeepDir() {
    return (await this.care()).listKeepDir();
  }
  async fixPermissions() {
    return (await this.care()).fixPermissions();
  }

  /** Git identity for commits (DESIGN §1.7); the fallback is announced once per clone. */
  async identity(): Promise<CommitIdentity> {
    if (this.identityCache) return this.identityCache;
    const id = await commitIdentity(this.paths, this.opts.env);
    if (id.source === "fallback") {
      const marker = join(this.paths.commonDir, "pantheon", "identity-notice");
      if (!existsSync(marker)) {
        this.opts.warn(
          `git has no user.name/user.email here; committing as "${id.author.name} <${id.author.email}>" (set them with: git config --global user.email "you@example.com")`,
        );
        try {
          mkdirShared(join(this.paths.commonDir, "pantheon"), sharedPermOf(this.paths.commonDir));
          writeFileSync(marker, `${id.author.name} <${id.author.email}>\n`);
          adjustSharedPerm(marker, sharedPermOf(this.paths.commonDir));
        } catch {
          // Read-only common dir: the notice simply repeats; nothing depends on the marker.
        }
      }
    }
    this.identityCache = id;
    return id;
  }
}

/** `tasks/7` → `tasks/07/7.json`; null for keys that are not records of a kind. */
function pathOfKey(key: string): string | null {
  const m = /^(tasks|epics|missions|reviews)\/([1-9]\d*)$/.exec(key);
  return m ? recordPath(m[1] as RecordKind, Number(m[2])) : null;
}

/** No state ref: a fresh clone (E_NOT_INITIALIZED, which a first command answers by adopting), or one that lost it. */
async function missingState(lost: () => Promise<Array<{ commit: string; date: string; summary: string }>>) {
  const tip = (await lost())[0];
  if (tip) return new StateLostError(tip);
  return new RepositoryError(
    "E_NOT_INITIALIZED",
    `No Pantheon state in this repository (${REF} does not exist)`,
    "pantheon init (or pantheon sync, when a remote already has state)",
  );
}
