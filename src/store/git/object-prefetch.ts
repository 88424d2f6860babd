import { runBoundedGit } from "./git-bounds.js";
import { catFileBatch } from "./cat-file-batch.js";
import type { ObjectDb, ObjectType } from "./object-db.js";

/** Above this many objects a prefetch is not attempted (a side that rewrote the whole state). */
const MAX_PREFETCH = 50_000;
const OID = /^[0-9a-f]{40}$/;
const TYPES = new Set<string>(["blob", "tree", "commit", "tag"]);
const TREE_MODE = "040000";

/** Two commits to diff; `oldBlobs`: the blobs on the `from` side are wanted too (a merge base's records). */
export interface PrefetchPair {
  from: string;
  to: string;
  oldBlobs: boolean;
}

/**
 * Objects a sync is about to read, taken from git before it reads them one by one: `git
 * diff-tree` lists every tree and blob that differs between each pair of commits, and one `git
 * cat-file --batch` hands over the trees of both sides, the blobs of the newer one (and of the
 * older one when asked), each commit, its root tree, project.json and counters.json. Objects
 * already loose here are left out. They land in the object db's memo.
 *
 * Why: a fetch leaves the new state in a pack, and so does the `git gc` that packed the old
 * one. Read object by object (then through isomorphic-git, loaded for it: ~40 ms), the 400
 * objects of a 200-task fast-forward took ~250 ms; git reads them in ~10 ms.
 *
 * Only ever an acceleration: whatever git does not give (a missing object, a shallow or partial
 * clone's gap, git failing) is read the usual way later, and is reported there if it is missing.
 * One exception: an object git cannot read within its bounds (cat-file-batch.ts) is reported
 * here, as E_GIT_CORRUPT_OBJECT; read later it would only be refused again. Returns how many
 * objects were stored.
 */
export async function prefetchDiffs(
  db: ObjectDb,
  gitDir: string,
  env: NodeJS.ProcessEnv,
  pairs: ReadonlyArray<PrefetchPair>,
): Promise<number> {
  const wanted = new Set<string>();
  const commits = new Set(pairs.flatMap((p) => [p.from, p.to]).filter((c) => OID.test(c)));
  for (const c of commits)
    for (const spec of [c, `${c}^{tree}`, `${c}:project.json`, `${c}:counters.json`]) wanted.add(spec);
  const candidates = new Set<string>();
  const want = (oid: string | undefined) => {
    if (oid && OID.test(oid) && !/^0+$/.test(oid)) candidates.add(oid);
  };
  for (const p of pairs) {
    if (!OID.test(p.from) || !OID.test(p.to) || p.from === p.to) continue;
    // -t lists the trees on the way to each blob; -z keeps paths from being quoted.
    const diff = await runBoundedGit(
      [`--git-dir=${gitDir}`, "diff-tree", "--no-commit-id", "-r", "-t", "-z", "--no-renames", p.from, p.to],
      { env: { ...env, GIT_DIR: undefined } },
    );
    // A tree git cannot read in its bounds is left to the reads that follow, which name it.
    if (diff.status !== 0) return 0;
    // Records are ":<mode> <mode> <oid> <oid> <status>" NUL "<path>" NUL; only the ids matter,
    // and only well-formed ones are passed on (a path is never read as a request).
    for (const token of diff.stdout.toString("latin1").split("\0")) {
      if (!token.startsWith(":")) continue;
      const [fromMode, toMode, fromOid, toOid] = token.slice(1).split(" ");
      if (fromMode === TREE_MODE || p.oldBlobs) want(fromOid);
      if (toMode !== undefined) want(toOid);
      if (candidates.size > MAX_PREFETCH) return 0;
    }
  }
  // Objects already loose here (what local commands wrote) are read fast anyway.
  const loose = db.looseAmong(candidates);
  for (const oid of candidates) if (!loose.has(oid)) wanted.add(oid);
  let stored = 0;
  for (const o of (await catFileBatch(gitDir, [...wanted], env)) ?? [])
    if (OID.test(o.oid) && TYPES.has(o.type)) {
      db.remember(o.oid, { type: o.type as ObjectType, content: o.content });
      stored++;
    }
  return stored;
}
