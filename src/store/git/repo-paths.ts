/** Where a repository's parts are, as git finds them (repo/repo.ts discovers them). */
export interface RepoPaths {
  /** Top of the working tree; null for a bare repository or when inside the git dir itself. */
  workTree: string | null;
  /** This worktree's git dir (`.git`, or `.git/worktrees/<name>` in a linked worktree). */
  gitDir: string;
  /** Where refs, objects and config live; equals gitDir outside linked worktrees. */
  commonDir: string;
}
