/**
 * Path-level edits of a tree without an index: only the trees on changed paths are rewritten and
 * every other entry (including ones Pantheon does not understand: stray files, submodules) is
 * carried with its id and mode, as DESIGN §2.1 requires of every write. Trees are parsed and
 * encoded by the object engine (object-db.ts), which reads a mode as one of git's five (an old
 * tool's "100664" is carried as "100644", as git itself would write it).
 */
import { GitError } from "../../errors.js";
import type { ObjectDb } from "./object-db.js";
import { isTreeMode, type TreeEntry } from "./tree-entry.js";

export { MAX_TREE_BYTES } from "./object-db.js";

/** Path ("tasks/07/107.json") → new blob content, or null to delete the path. */
export type TreeChanges = Map<string, Buffer | null>;

/**
 * A blob the repository already holds, reachable from the state being built on (a sync merge
 * carries the local side's records this way): its id goes into the tree as it is, without
 * hashing and storing its bytes again.
 */
export interface KnownBlob {
  blob: string;
}

/** What writeTreeChanges takes: TreeChanges, where a path may also name a KnownBlob. */
export type TreeEdits = Map<string, Buffer | KnownBlob | null>;

const OID = /^[0-9a-f]{40}$/;

/** What writing trees needs of an object store: the object db, or one writing into a pack. */
export type ObjectWriter = Pick<ObjectDb, "readTree" | "write" | "writeTree">;

const BLOB_MODE = "100644";
const TREE_MODE = "040000";

/**
 * Lists a tree's entries (the db keeps them parsed: a sync diffs the same shard trees several
 * times); E_GIT_READ_OBJECT if the object is missing, E_GIT_CORRUPT_OBJECT if it is not a tree,
 * TreeTooLargeError past MAX_TREE_BYTES.
 */
export async function listTree(db: Pick<ObjectDb, "readTree">, treeOid: string): Promise<readonly TreeEntry[]> {
  const entries = await db.readTree(treeOid);
  if (!entries) throw new GitError("E_GIT_CORRUPT_OBJECT", `Object ${treeOid} is not a tree`, "git fsck");
  return entries;
}

/** Resolves one path ("tasks/07/107.json") inside a tree; null when any segment is absent. */
export async function readTreePath(
  db: ObjectDb,
  treeOid: string,
  path: string,
): Promise<{ oid: string; mode: string } | null> {
  let current = { oid: treeOid, mode: TREE_MODE };
  for (const segment of path.split("/").filter((s) => s !== "")) {
    if (!isTreeMode(current.mode)) return null;
    const entry = (await listTree(db, current.oid)).find((e) => e.name === segment);
    if (!entry) return null;
    current = { oid: entry.oid, mode: entry.mode };
  }
  return current;
}

/**
 * Applies path changes to `baseTree` (null = empty) and returns the new root tree id.
 * @example await writeTreeChanges(db, tip.tree, new Map([["tasks/07/107.json", json], ["tasks/08/8.json", null]]))
 */
export async function writeTreeChanges(db: ObjectWriter, baseTree: string | null, changes: TreeEdits): Promise<string> {
  const root = await applyLevel(db, baseTree, changes, "");
  // An empty root is still a tree; write it so fsck's connectivity check finds it stored.
  return root ?? (await db.writeTree([]));
}

interface Group {
  leaf?: Buffer | KnownBlob | null; // a change to this very name
  below: TreeEdits; // changes under this name, with the name stripped
}

/** Rewrites one tree level; returns null when the tree ends up empty (so the parent drops it). */
async function applyLevel(
  db: ObjectWriter,
  treeOid: string | null,
  changes: TreeEdits,
  prefix: string,
): Promise<string | null> {
  const groups = new Map<string, Group>();
  for (const [path, content] of changes) {
    const slash = path.indexOf("/");
    const name = slash < 0 ? path : path.slice(0, slash);
    if (name === "" || name === "." || name === "..") {
      throw new GitError("E_GIT_WRITE_OBJECT", `Invalid path ${JSON.stringify(prefix + path)} in tree change`);
    }
    const group: Group = groups.get(name) ?? { below: new Map() };
    groups.set(name, group);
    if (slash < 0) group.leaf = content;
    else group.below.set(path.slice(slash + 1), content);
    if (group.leaf !== undefined && group.below.size > 0 && group.leaf !== null) {
      throw new GitError(
        "E_GIT_WRITE_OBJECT",
        `Path ${prefix}${name} cannot be both a file and a directory in one change`,
      );
    }
  }
  const entries = new Map<string, TreeEntry>();
  if (treeOid !== null) for (const e of await listTree(db, treeOid)) entries.set(e.name, e);
  let changed = false;
  // One name after another: all I/O underneath is synchronous, and side by side every shard of
  // a 100,000-record import held its changes and entries at once (~50 MB more at peak).
  for (const [name, group] of groups) if (await applyName(db, entries, name, group, prefix)) changed = true;
  if (!changed && treeOid !== null) return entries.size === 0 ? null : treeOid;
  if (entries.size === 0) return null;
  return db.writeTree([...entries.values()]);
}

/** Applies one name's changes to `entries`; true when its entry changed. */
async function applyName(
  db: ObjectWriter,
  entries: Map<string, TreeEntry>,
  name: string,
  group: Group,
  prefix: string,
): Promise<boolean> {
  const existing = entries.get(name);
  let next: TreeEntry | null;
  if (group.leaf !== undefined && group.below.size === 0) {
    next = group.leaf === null ? null : { mode: BLOB_MODE, name, oid: await blobId(db, group.leaf) };
  } else {
    // A deletion under a non-tree touches nothing; a write under a blob replaces it with a tree.
    const base = existing && isTreeMode(existing.mode) && group.leaf !== null ? existing.oid : null;
    const onlyDeletes = [...group.below.values()].every((v) => v === null);
    if (base === null && onlyDeletes && group.leaf === undefined) return false;
    const sub = await applyLevel(db, base, group.below, `${prefix}${name}/`);
    next = sub === null ? null : { mode: existing && base === sub ? existing.mode : TREE_MODE, name, oid: sub };
  }
  if (next === null) return entries.delete(name);
  if (existing?.oid === next.oid && existing.mode === next.mode) return false;
  entries.set(name, next);
  return true;
}

/** A change's blob id: stored now, or already in the repository. */
async function blobId(db: ObjectWriter, leaf: Buffer | KnownBlob): Promise<string> {
  if (Buffer.isBuffer(leaf)) return db.write("blob", leaf);
  if (!OID.test(leaf.blob))
    throw new GitError("E_GIT_WRITE_OBJECT", `Invalid blob id ${JSON.stringify(leaf.blob)} in tree change`);
  return leaf.blob;
}
