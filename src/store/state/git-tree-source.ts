import { TreeTooLargeError } from "../../errors.js";
import type { ObjectDb } from "../git/object-db.js";
import type { TreeSource } from "./record-snapshot.js";
import { isTreeMode, type TreeEntry } from "../git/tree-entry.js";

import { MAX_TREE_BYTES } from "../git/tree-edit.js";

/**
 * Reads paths of one git tree, loading only the trees on the way to what is asked:
 * `tasks/07/107.json` costs the root, `tasks`, `tasks/07` and one blob.
 */
export class GitTreeSource implements TreeSource {
  private readonly trees = new Map<string, Map<string, TreeEntry> | null>();
  /** Why a tree could not be read, by tree id (an oversized tree from someone else's clone). */
  readonly problems = new Map<string, string>();

  /**
   * `rootTree` may be deferred: a read the cache answers never opens the commit at all.
   * `known` names a path's blob where the history index knows it (null: absent there), so
   * `task history` reads two blobs an event and no tree; a blob that cannot be read is looked
   * up through the trees after all.
   */
  constructor(
    private readonly db: ObjectDb,
    private readonly rootTree: string | (() => Promise<string>),
    private readonly known: (path: string) => string | null | undefined = () => undefined,
  ) {}

  async read(path: string): Promise<Buffer | null> {
    const blob = this.known(path);
    if (blob === null) return null;
    if (blob !== undefined) {
      const obj = await this.db.read(blob).catch(() => null);
      if (obj?.type === "blob") return obj.content;
    }
    const slash = path.lastIndexOf("/");
    const dir = await this.tree(slash < 0 ? "" : path.slice(0, slash));
    const entry = dir?.get(path.slice(slash + 1));
    if (!entry || isTreeMode(entry.mode)) return null;
    const obj = await this.db.read(entry.oid);
    return obj.type === "blob" ? obj.content : null;
  }

  async list(dir: string): Promise<string[] | null> {
    const tree = await this.tree(dir);
    return tree ? [...tree.keys()] : null;
  }

  async problem(dir: string): Promise<string | undefined> {
    const slash = dir.lastIndexOf("/");
    const parent = await this.tree(slash < 0 ? "" : dir.slice(0, slash));
    const entry = parent?.get(dir.slice(slash + 1));
    return entry ? this.problems.get(entry.oid) : undefined;
  }

  private async tree(dir: string): Promise<Map<string, TreeEntry> | null> {
    const cached = this.trees.get(dir);
    if (cached !== undefined) return cached;
    let result: Map<string, TreeEntry> | null = null;
    if (dir === "") {
      result = await this.load(typeof this.rootTree === "string" ? this.rootTree : await this.rootTree());
    } else {
      const slash = dir.lastIndexOf("/");
      const parent = await this.tree(slash < 0 ? "" : dir.slice(0, slash));
      const entry = parent?.get(dir.slice(slash + 1));
      if (entry && isTreeMode(entry.mode)) result = await this.load(entry.oid);
    }
    this.trees.set(dir, result);
    return result;
  }

  private async load(oid: string): Promise<Map<string, TreeEntry> | null> {
    let entries: readonly TreeEntry[] | null;
    try {
      entries = await this.db.readTree(oid);
    } catch (err) {
      // A shard holds ~500 records at 50,000; a tree of millions of entries is hostile or broken.
      if (!(err instanceof TreeTooLargeError)) throw err;
      this.problems.set(oid, `${err.bytes} bytes, over the ${MAX_TREE_BYTES}-byte limit for a tree of the state`);
      return null; // reported by scans as a stray entry with this reason; never parsed
    }
    return entries && new Map(entries.map((e) => [e.name, e]));
  }
}
