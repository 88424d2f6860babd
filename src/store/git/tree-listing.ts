import { runBoundedGit } from "./git-bounds.js";
import { isTreeMode, type TreeEntry } from "./tree-entry.js";
import { MAX_TREE_BYTES } from "./tree-edit.js";

export interface KindListing {
  /** The kind tree's entries (shards, and anything stray beside them). */
  shards: TreeEntry[];
  /** Each shard tree's entries, by shard name. */
  files: Map<string, TreeEntry[]>;
}

/**
 * A kind's tree two levels deep from one `git ls-tree -r -t` (DESIGN §2.5: a full rebuild lists
 * with git when git is there): at 50,000 tasks that is one process instead of 100 tree reads,
 * each a lookup in the packs once the repository is packed. Null when git
 * is missing or fails (or is stopped at a bound of git-bounds.ts), or a shard is over the size of
 * a tree of the state: the caller then lists the trees itself, and names a tree it cannot read.
 */
export async function listKindWithGit(gitDir: string, kindTree: string): Promise<KindListing | null> {
  const r = await runBoundedGit([`--git-dir=${gitDir}`, "ls-tree", "-r", "-t", "-z", kindTree], {
    env: { ...process.env, GIT_DIR: undefined } as NodeJS.ProcessEnv,
  });
  if (r.status !== 0) return null;
  const shards: TreeEntry[] = [];
  const files = new Map<string, TreeEntry[]>();
  const bytes = new Map<string, number>();
  // "<mode> SP <type> SP <oid> TAB <path> NUL"; -t lists the trees on the way, so shards come first.
  for (const record of r.stdout.toString("utf8").split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const [mode, , oid] = record.slice(0, tab).split(" ");
    const path = record.slice(tab + 1);
    const slash = path.indexOf("/");
    if (slash < 0) {
      shards.push({ mode: mode!, name: path, oid: oid! });
      if (isTreeMode(mode!)) files.set(path, []);
    } else if (path.indexOf("/", slash + 1) < 0) {
      const shard = path.slice(0, slash);
      const name = path.slice(slash + 1);
      files.get(shard)?.push({ mode: mode!, name, oid: oid! });
      // A tree over the limit is reported by the caller's own listing, with its reason.
      const size = (bytes.get(shard) ?? 0) + mode!.length + Buffer.byteLength(name) + 22;
      if (size > MAX_TREE_BYTES) return null;
      bytes.set(shard, size);
    }
    // Deeper paths lie inside an entry that is itself reported as stray.
  }
  return { shards, files };
}
