/**
 * A tree entry as Pantheon handles it; trees are parsed and encoded by the object engine
 * (isomorphic-git, object-engine.ts), which also sorts entries as git requires.
 */
export interface TreeEntry {
  /** "100644" | "100755" | "120000" | "160000" | "040000" (a subtree; git itself writes "40000"). */
  mode: string;
  name: string;
  oid: string;
}

/** Whether a tree entry's mode is a subtree ("040000" as the engine reads it, or git's "40000"). */
export function isTreeMode(mode: string): boolean {
  return mode === "40000" || mode === "040000";
}
