import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConflictError, RepositoryError } from "../errors.js";
import type { RepoPaths } from "./repo.js";
import { gitReason, runGit, runGitIn } from "./transport.js";

/** What removing a persona's worktree would lose; empty lists mean nothing. */
export interface LossReport {
  /** Commits that exist only on the branch (not on another branch, tag or remote ref, nor squash-merged or rebased). */
  commits: string[];
  /** Uncommitted or untracked files that differ from the main worktree's copy. */
  files: string[];
}

/** The persona worktrees of DESIGN §5: a linked worktree and branch per persona, removed only when safe. */
export class CodeWorktrees {
  constructor(private readonly paths: RepoPaths, private readonly env: NodeJS.ProcessEnv) {}

  /** Creates `path` on a new `branch` from `base` (the current HEAD). */
  add(path: string, branch: string, base: string): void {
    if (existsSync(path)) throw new ConflictError(`Cannot create the worktree: ${path} already exists`, "choose another --branch, or remove that folder");
    const r = runGit(this.paths, ["worktree", "add", "-b", branch, path, base], this.env);
    if (r.status !== 0) throw new RepositoryError("E_GIT", `git worktree add failed: ${gitReason(r.stderr)}`, `git worktree list; git branch --list ${branch}`);
  }

  /** Commits on `branch` that nothing else holds, and local changes a removal would discard. */
  losses(path: string, branch: string, mainWorkTree: string | null): LossReport {
    const own = `refs/heads/${branch}`;
    const tips: string[] = [];
    if (runGit(this.paths, ["rev-parse", "--verify", "--quiet", own], this.env).status === 0) tips.push(own);
    // The worktree's own HEAD too: a commit made on a detached HEAD there is on no branch at all.
    const head = existsSync(path) ? runGitIn(path, ["rev-parse", "--verify", "--quiet", "HEAD"], this.env).stdout.trim() : "";
    if (head) tips.push(head);
    let commits: string[] = [];
    if (tips.length > 0) {
      // --exclude patterns apply to the following --branches, matched without "refs/heads/".
      const only = runGit(this.paths, ["rev-list", ...tips, "--not", `--exclude=${branch}`, "--branches", "--tags", "--remotes"], this.env);
      commits = only.stdout.split("\n").filter(Boolean);
      if (commits.length > 0 && this.integratedElsewhere(branch, head)) commits = [];
    }
    const files: string[] = [];
    if (existsSync(path)) {
      const st = runGitIn(path, ["status", "--porcelain=v1", "-z", "--untracked-files=all"], this.env);
      for (const entry of st.stdout.split("\0").filter(Boolean)) {
        const file = entry.slice(3);
        // Pantheon copied these from the main worktree; identical copies lose nothing.
        if (entry.startsWith("??") && mainWorkTree && sameFile(join(path, file), join(mainWorkTree, file))) continue;
        files.push(file);
      }
    }
    return { commits, files };
  }

  /** Squash-merged (merging the branch changes no tree) or rebased (every patch already present) into another branch. */
  private integratedElsewhere(branch: string, head: string): boolean {
    // A detached HEAD ahead of the branch holds work the branch does not: never "integrated".
    if (head && runGit(this.paths, ["merge-base", "--is-ancestor", head, `refs/heads/${branch}`], this.env).status !== 0) return false;
    const others = runGit(this.paths, ["for-each-ref", "--format=%(refname:short)", "refs/heads"], this.env).stdout.split("\n").filter((b) => b && b !== branch);
    for (const other of others) {
      const merged = runGit(this.paths, ["merge-tree", "--write-tree", other, branch], this.env);
      const tree = runGit(this.paths, ["rev-parse", `${other}^{tree}`], this.env).stdout.trim();
      if (merged.status === 0 && merged.stdout.split("\n")[0]?.trim() === tree) return true;
      const cherry = runGit(this.paths, ["cherry", other, branch], this.env);
      if (cherry.status === 0 && cherry.stdout.trim() !== "" && !cherry.stdout.split("\n").some((l) => l.startsWith("+"))) return true;
    }
    return false;
  }

  /** Removes the worktree and deletes its branch; call only after losses() came back empty. */
  remove(path: string, branch: string): void {
    if (existsSync(path)) {
      const r = runGit(this.paths, ["worktree", "remove", "--force", path], this.env);
      if (r.status !== 0) throw new RepositoryError("E_GIT", `git worktree remove failed: ${gitReason(r.stderr)}`, "git worktree list");
    } else {
      runGit(this.paths, ["worktree", "prune"], this.env);
    }
    // -D is safe here: losses() showed every commit of the branch exists elsewhere.
    runGit(this.paths, ["branch", "-D", branch], this.env);
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}
