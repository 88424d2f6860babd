import type { ObjectDb } from "../git/object-db.js";
import { readTreePath } from "../git/tree-edit.js";
import { COUNTERS_PATH, PROJECT_PATH } from "./layout.js";

/**
 * Whether `commit` (present here) is a Pantheon state: project.json and counters.json at its
 * root, as every state commit has from `init` on. Tells the state, kept on a branch of a host
 * that takes only branches, from the code: never a base for code, never adopted from code.
 */
export async function holdsState(db: ObjectDb, commit: string): Promise<boolean> {
  try {
    const tree = (await db.readCommit(commit)).tree;
    return (
      (await readTreePath(db, tree, PROJECT_PATH)) !== null && (await readTreePath(db, tree, COUNTERS_PATH)) !== null
    );
  } catch {
    return false; // not a commit, or its objects missing: not a state this clone can take
  }
}
