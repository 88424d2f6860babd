// Part of the port (store/store.ts): types only, importing nothing from the store's rooms.
// The clone around the state: its code (worktrees, commits, hooks) and its own files.

/** A linked worktree as git records it in this clone. */
export interface LinkedWorktree {
  path: string;
  /** The branch checked out there (null when its HEAD is detached). */
  branch: string | null;
  head: string | null;
  /** Its folder is gone (git still lists it until pruned). */
  missing: boolean;
}

/** What removing a persona worktree would lose; empty lists mean nothing. */
export interface LossReport {
  /** Commits kept nowhere else (see store/code/commit-losses.ts for the rule): removal refuses. */
  commits: string[];
  /** Uncommitted changes and untracked files that differ from the main worktree's: removal refuses. */
  files: string[];
  /** Ignored files Pantheon copied in (`worktree.copy`) that were edited since: removal keeps a copy. */
  copies: string[];
}

/** What `init --hooks` did; "manual": the hooks folder is in the working tree, add `line` to `file` yourself. */
export interface HookInstall {
  result: "installed" | "updated" | "chained" | "manual";
  /** The hook file written, or (manual) the project's own hook, relative to the worktree. */
  file: string;
  line: string | null;
}

/** The code side of the repository: persona worktrees, provenance commits, hooks. */
export interface CodeRepo {
  /** This worktree's top (null in a bare repository). */
  root: string | null;
  /** The main worktree as git records it (null in a bare repository). */
  mainWorktree(): string | null;
  addWorktree(path: string, branch: string, base: string): void;
  /** The linked worktree of this clone at `path` (never the main one), or null: a record's path is trusted only if git lists it. */
  findWorktree(path: string): LinkedWorktree | null;
  /** What removing `worktree` and deleting `deleteBranch` would lose; `copied` are the paths Pantheon copied in. */
  worktreeLosses(worktree: LinkedWorktree, deleteBranch: string | null, copied: readonly string[]): LossReport;
  removeWorktree(path: string, deleteBranch: string | null): void;
  /** Whether a path is tracked by git (tracked files need no copying into a worktree). */
  isTracked(relPath: string): boolean;
  missionCommits(
    number: string,
    codename: string,
  ): Array<{ oid: string; date: string; author: string; summary: string }>;
  /** `cli` runs this Pantheon when `pantheon` is not on PATH; never written into the working tree. */
  installCommitMsgHook(cli: string[]): HookInstall;
  /** A git config value (repository, then global and system), e.g. `pantheon.assistant`. */
  config(key: string): string | undefined;
}

/** The clone around the state, as worktrees, live status and summon use it. */
export interface CloneStore {
  /** Worktrees, code commits and hooks; refused by stores that have none. */
  code(): Promise<CodeRepo>;
  /** The commit the current worktree's HEAD names (code, not state); null on an unborn branch. */
  codeHead(): Promise<string | null>;
  /**
   * Whether a commit is a Pantheon state (project.json and counters.json at its root): a HEAD
   * there is the state's branch checked out (a host that takes only branches), never code.
   */
  holdsState(commit: string): Promise<boolean>;
  /**
   * Writes a file of this clone's own in `<commondir>/pantheon/<relPath>` (a summoned persona's
   * instructions), honouring core.sharedRepository; returns its absolute path.
   */
  writeCloneFile(relPath: string, text: string): Promise<string>;
  /**
   * The folders of the common dir Pantheon writes (refs/coordination/, logs/refs/coordination/,
   * objects/, pantheon/), absolute; made first when `create`. A sandboxed assistant gets exactly
   * these writable, never the common dir (DESIGN §5); empty for a store without one.
   */
  writableDirs(o: { create: boolean }): Promise<string[]>;
}
