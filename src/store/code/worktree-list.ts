import { realpathSync } from "node:fs";

/** One entry of `git worktree list --porcelain -z`: what git itself records about a worktree. */
export interface ListedWorktree {
  path: string;
  /** The commit its HEAD names (null on an unborn branch or a bare entry). */
  head: string | null;
  /** The branch checked out there, without `refs/heads/` (null when detached). */
  branch: string | null;
  /** Its folder is gone: the next `git worktree prune` forgets it and what only its HEAD held. */
  prunable: boolean;
  bare: boolean;
}

/** Parses `git worktree list --porcelain -z`; the first entry is the main worktree. */
export function parseWorktreeList(out: string): ListedWorktree[] {
  const entries: ListedWorktree[] = [];
  let cur: ListedWorktree | null = null;
  for (const field of out.split("\0")) {
    if (field === "") {
      if (cur) entries.push(cur);
      cur = null;
      continue;
    }
    const space = field.indexOf(" ");
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? "" : field.slice(space + 1);
    if (key === "worktree") cur = { path: value, head: null, branch: null, prunable: false, bare: false };
    else if (!cur) continue;
    else if (key === "HEAD") cur.head = /^[0-9a-f]{40,64}$/.test(value) && !/^0+$/.test(value) ? value : null;
    else if (key === "branch") cur.branch = value.replace(/^refs\/heads\//, "");
    else if (key === "prunable") cur.prunable = true;
    else if (key === "bare") cur.bare = true;
  }
  if (cur) entries.push(cur);
  return entries;
}

/** The same folder for git and for us: compared through realpath when it still exists. */
export function samePath(a: string, b: string): boolean {
  return a === b || real(a) === real(b);
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
