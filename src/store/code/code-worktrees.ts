import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConflictError, GitError } from "../../errors.js";
import { unsavedCommits } from "./commit-losses.js";
import type { RepoPaths } from "../repo/repo.js";
import type { LinkedWorktree, LossReport } from "../store.js";
import { gitReason, runCodeGit, runGitIn } from "../repo/run-git.js";
import { parseWorktreeList, samePath } from "./worktree-list.js";

/**
 * The persona worktrees of DESIGN §5: a linked worktree and branch per persona, removed only when
 * safe. Every git call here names the common dir and runs from the main worktree, never from
 * the worktree being removed: the command may be run from inside it (`-C`), and it vanishes.
 */
export class CodeWorktrees {
  private commonPaths: RepoPaths | undefined;

  constructor(
    private readonly paths: RepoPaths,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The common dir as git dir, run from the main worktree (from the common dir in a bare repository). */
  private get common(): RepoPaths {
    if (!this.commonPaths) {
      const bare: RepoPaths = { workTree: null, gitDir: this.paths.commonDir, commonDir: this.paths.commonDir };
      const main = listIn(bare, this.env)[0];
      this.commonPaths = main && !main.bare && existsSync(main.path) ? { ...bare, workTree: main.path } : bare;
    }
    return this.commonPaths;
  }

  private git(args: string[]) {
    return runCodeGit(this.common, args, this.env);
  }

  private list() {
    return listIn(this.common, this.env);
  }

  /** The main worktree (null in a bare repository). */
  mainWorktree(): string | null {
    return this.common.workTree;
  }

  /** The linked worktree git records at `path` (never the main one), or null. */
  find(path: string): LinkedWorktree | null {
    const [, ...linked] = this.list();
    const w = linked.find((e) => samePath(e.path, path));
    return w ? { path: w.path, branch: w.branch, head: w.head, missing: w.prunable } : null;
  }

  /** Creates `path` on a new `branch` from `base` (the current HEAD). */
  add(path: string, branch: string, base: string): void {
    if (existsSync(path))
      throw new ConflictError(
        `Cannot create the worktree: ${path} already exists`,
        "choose another --branch, or remove that folder",
      );
    const r = this.git(["worktree", "add", "-b", branch, path, base]);
    if (r.status !== 0)
      throw new GitError(
        "E_GIT_WORKTREE",
        `git worktree add failed: ${gitReason(r.stderr)}`,
        `git worktree list; git branch --list ${branch}`,
      );
  }

  /**
   * What removing `wt` (and deleting `deleteBranch`) would lose: commits (see unsavedCommits),
   * uncommitted or untracked changes, and ignored files under `copied` that differ from the
   * main worktree's copy (Pantheon copied them in; an edited `.env` is the persona's work).
   */
  losses(wt: LinkedWorktree, deleteBranch: string | null, copied: readonly string[]): LossReport {
    const [, ...linked] = this.list();
    const otherHeads = linked.filter((e) => !samePath(e.path, wt.path) && !e.prunable && e.head).map((e) => e.head!);
    const commits = unsavedCommits(this.common, this.env, {
      branch: deleteBranch,
      head: wt.branch === null ? wt.head : null,
      otherHeads,
    });
    const files: string[] = [];
    const copies: string[] = [];
    if (!wt.missing && existsSync(wt.path)) {
      const main = this.common.workTree;
      const st = runGitIn(wt.path, ["status", "--porcelain=v1", "-z", "--untracked-files=all"], this.env);
      if (st.status !== 0)
        throw new GitError(
          "E_GIT_WORKTREE",
          `git status failed in ${wt.path}: ${gitReason(st.stderr)}`,
          `git -C ${wt.path} status`,
        );
      for (const entry of statusEntries(st.stdout)) {
        // Pantheon copied these from the main worktree; identical copies lose nothing.
        if (entry.code === "??" && main && sameFile(join(wt.path, entry.file), join(main, entry.file))) continue;
        files.push(entry.file);
      }
      if (copied.length > 0) {
        // Ignored files only: tracked and untracked ones are in `files` already.
        const ign = runGitIn(
          wt.path,
          [
            "--literal-pathspecs",
            "status",
            "--porcelain=v1",
            "-z",
            "--ignored=matching",
            "--untracked-files=all",
            "--",
            ...copied,
          ],
          this.env,
        );
        for (const entry of statusEntries(ign.stdout).filter((e) => e.code === "!!")) {
          for (const file of filesUnder(wt.path, entry.file.replace(/\/$/, ""))) {
            if (!main || !sameFile(join(wt.path, file), join(main, file))) copies.push(file);
          }
        }
      }
    }
    return { commits, files, copies };
  }

  /** Removes the worktree (its folder may be gone already) and deletes `branch`; call only after losses() allowed it. */
  remove(path: string, branch: string | null): void {
    const r = this.git(["worktree", "remove", "--force", path]);
    if (r.status !== 0)
      throw new GitError("E_GIT_WORKTREE", `git worktree remove failed: ${gitReason(r.stderr)}`, "git worktree list");
    if (!branch) return;
    // -D is safe here: losses() showed every commit of the branch is kept elsewhere.
    const b = this.git(["branch", "-D", branch]);
    if (b.status !== 0)
      throw new GitError(
        "E_GIT_WORKTREE",
        `The worktree is removed, but deleting ${branch} failed: ${gitReason(b.stderr)}`,
        `git branch -D ${branch}`,
      );
  }
}

function listIn(paths: RepoPaths, env: NodeJS.ProcessEnv) {
  const r = runCodeGit(paths, ["worktree", "list", "--porcelain", "-z"], env);
  if (r.status !== 0)
    throw new GitError("E_GIT_WORKTREE", `git worktree list failed: ${gitReason(r.stderr)}`, "git worktree list");
  return parseWorktreeList(r.stdout);
}

function statusEntries(out: string): Array<{ code: string; file: string }> {
  const fields = out.split("\0");
  const entries: Array<{ code: string; file: string }> = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.length < 4) continue;
    entries.push({ code: f.slice(0, 2), file: f.slice(3) });
    // A rename or copy is followed by its source path.
    if (f[0] === "R" || f[0] === "C") i++;
  }
  return entries;
}

/** Files under `rel` (itself when it is a file), relative to `root`; symbolic links are not followed. */
function filesUnder(root: string, rel: string): string[] {
  const st = lstatSync(join(root, rel), { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return [rel];
  return readdirSync(join(root, rel), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(root, `${rel}/${d.name}`) : [`${rel}/${d.name}`],
  );
}

function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}
