/**
 * Git tree objects: a sequence of "<mode> <name>\0<20-byte oid>". Modes are kept as the exact
 * strings found, so a tree written by an odd tool re-encodes to the same bytes (and the same id)
 * when we carry it unchanged; compare modes with isTreeMode, not ===.
 */
import { GitError } from "../../errors.js";

export interface TreeEntry {
  /** "100644" | "100755" | "120000" | "160000" | "40000" (git also accepts "040000" from old tools). */
  mode: string;
  name: string;
  oid: string;
}

/** Whether a tree entry's mode is a subtree ("40000", or the zero-padded form some tools write). */
export function isTreeMode(mode: string): boolean {
  return mode === "40000" || mode === "040000";
}

/** Decodes a tree object's content into its entries, in stored order. */
export function parseTree(buf: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < buf.length) {
    const space = buf.indexOf(0x20, i);
    const nul = space < 0 ? -1 : buf.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > buf.length) {
      throw new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt tree object at byte ${i}`, "git fsck");
    }
    entries.push({
      mode: buf.toString("latin1", i, space),
      // Names are bytes to git; UTF-8 is what every path we write uses.
      name: buf.toString("utf8", space + 1, nul),
      oid: buf.toString("hex", nul + 1, nul + 21),
    });
    i = nul + 21;
  }
  return entries;
}

/** Git's tree order: names compare as bytes, a subtree's name as if it ended in "/". */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  return Buffer.compare(sortKey(a), sortKey(b));
}

function sortKey(e: TreeEntry): Buffer {
  // A blob's name ends where it ends (sorts before any longer name); "a" the tree sorts after
  // "a.json" and before "a0" because "/" (0x2f) lies between "." (0x2e) and "0" (0x30).
  return Buffer.from(isTreeMode(e.mode) ? `${e.name}/` : e.name, "utf8");
}

/** Encodes entries (in any order) as a tree object's content, sorted as git requires. */
export function encodeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort(compareTreeEntries);
  const parts: Buffer[] = [];
  const seen = new Set<string>();
  for (const e of sorted) {
    if (e.name === "" || e.name === "." || e.name === ".." || /[/\0]/.test(e.name)) {
      throw new GitError("E_GIT_WRITE_OBJECT", `Invalid tree entry name ${JSON.stringify(e.name)}`);
    }
    // A blob and a tree of the same name do not sort next to each other, so check by name.
    if (seen.has(e.name)) {
      throw new GitError("E_GIT_WRITE_OBJECT", `Duplicate tree entry ${JSON.stringify(e.name)}`);
    }
    if (!/^[0-9a-f]{40}$/.test(e.oid) || !/^[0-7]+$/.test(e.mode)) {
      throw new GitError("E_GIT_WRITE_OBJECT", `Invalid tree entry ${e.mode} ${e.oid} ${e.name}`);
    }
    parts.push(Buffer.from(`${e.mode} ${e.name}\0`, "utf8"), Buffer.from(e.oid, "hex"));
    seen.add(e.name);
  }
  return Buffer.concat(parts);
}
