/** Where a repository's parts are, as git finds them (repo/repo.ts discovers them). */
export interface RepoPaths {
  /** Top of the working tree; null for a bare repository or when inside the git dir itself. */
  workTree: string | null;
  /** This worktree's git dir (`.git`, or `.git/worktrees/<name>` in a linked worktree). */
  gitDir: string;
  /** Where refs, objects and config live; equals gitDir outside linked worktrees. */
  commonDir: string;
}

/**
 * The folders of the common dir Pantheon writes, and nothing else of it (DESIGN §5): the state
 * ref and its lock (refs/coordination/), the ref's reflog (logs/refs/coordination/), objects/
 * (loose objects and the keep dir), pantheon/ (the cache, live files, sessions). An assistant's
 * sandbox gets exactly these writable: hooks/, config and info/ run code or change how git runs.
 */
export const WRITABLE_DIRS = ["refs/coordination", "logs/refs/coordination", "objects", "pantheon"] as const;
