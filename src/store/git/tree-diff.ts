import { TreeTooLargeError } from "../../errors.js";
import type { ObjectDb } from "./object-db.js";
import { isTreeMode, type TreeEntry } from "./tree-entry.js";
import { listTree } from "./tree-edit.js";

/** A blob path changed on the local side since the base, with its id on each side. */
export interface ChangedPath {
  path: string;
  base: string | null;
  local: string | null;
  remote: string | null;
}

type Entries = Map<string, TreeEntry>;

/** An oversized tree (hostile or broken) reads as empty: carried as it is, never opened. */
async function entries(db: ObjectDb, tree: string | null): Promise<Entries> {
  if (!tree) return new Map();
  try {
    return new Map((await listTree(db, tree)).map((e) => [e.name, e]));
  } catch (e) {
    if (e instanceof TreeTooLargeError) return new Map();
    throw e;
  }
}

const treeOf = (e: TreeEntry | undefined) => (e && isTreeMode(e.mode) ? e.oid : null);
const blobOf = (e: TreeEntry | undefined) => (e && !isTreeMode(e.mode) ? e.oid : null);

/**
 * Every blob path whose id differs between `base` and `local`, walking top-down by tree id:
 * a subtree the local side did not change is never opened, so the cost follows the local
 * changes, not the size of the state (DESIGN §3.3).
 */
export async function localChanges(
  db: ObjectDb,
  base: string | null,
  local: string | null,
  remote: string | null,
  prefix = "",
): Promise<ChangedPath[]> {
  if (base === local) return [];
  const [b, l, r] = await Promise.all([entries(db, base), entries(db, local), entries(db, remote)]);
  const out: ChangedPath[] = [];
  for (const name of new Set([...b.keys(), ...l.keys()])) {
    const eb = b.get(name);
    const el = l.get(name);
    const er = r.get(name);
    if (eb?.oid === el?.oid && eb?.mode === el?.mode) continue;
    const path = prefix + name;
    // No push(...spread): a hostile tree of 100,000+ entries would overflow the call stack.
    if (treeOf(eb) || treeOf(el))
      for (const c of await localChanges(db, treeOf(eb), treeOf(el), treeOf(er), `${path}/`)) out.push(c);
    if (blobOf(eb) || blobOf(el)) out.push({ path, base: blobOf(eb), local: blobOf(el), remote: blobOf(er) });
  }
  return out;
}

/** Blob paths that differ between two trees (for "records received/sent" counts). */
export async function changedPaths(db: ObjectDb, a: string | null, b: string | null): Promise<string[]> {
  return (await changedBlobs(db, a, b)).map((c) => c.path);
}

/**
 * Blob paths that differ between two trees, with the blob's id in `b` (null: gone, or a tree
 * over the size limit, named with a trailing note).
 */
export async function changedBlobs(
  db: ObjectDb,
  a: string | null,
  b: string | null,
  prefix = "",
): Promise<Array<{ path: string; oid: string | null }>> {
  if (a === b) return [];
  const [x, y] = await Promise.all([entries(db, a), entries(db, b)]);
  const out: Array<{ path: string; oid: string | null }> = [];
  for (const name of new Set([...x.keys(), ...y.keys()])) {
    const ex = x.get(name);
    const ey = y.get(name);
    if (ex?.oid === ey?.oid) continue;
    if (treeOf(ex) || treeOf(ey)) {
      const inner = await changedBlobs(db, treeOf(ex), treeOf(ey), `${prefix}${name}/`);
      if (inner.length === 0 && treeOf(ey) && (await tooLarge(db, treeOf(ey)!)))
        out.push({ path: `${prefix}${name}/ (over the size limit for a tree of the state)`, oid: null });
      for (const p of inner) out.push(p);
    }
    if (blobOf(ex) || blobOf(ey)) out.push({ path: prefix + name, oid: blobOf(ey) });
  }
  return out;
}

async function tooLarge(db: ObjectDb, tree: string): Promise<boolean> {
  try {
    await listTree(db, tree);
    return false;
  } catch (e) {
    return e instanceof TreeTooLargeError;
  }
}
