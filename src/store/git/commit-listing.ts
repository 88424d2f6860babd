import { catFileBatch } from "./cat-file-batch.js";
import { runBoundedGit } from "./git-bounds.js";

// The history index (store/cache/history-index.ts) is built and caught up from these two calls
// of the system git, never from a walk of commit objects in JavaScript: at 100,000 commits a
// walk read every commit through the pack reader (~5 s, ~700 MB); `git rev-list` and one
// `git cat-file --batch` hand over the same commits in ~1 s.

const OID = /^[0-9a-f]{40}$/;

/**
 * git within the bounds of an object read (git-bounds.ts; git-spawn.ts sets
 * GIT_NO_REPLACE_OBJECTS, so replacement refs never show other commits in their place). A stop
 * at a bound is an answer git could not give: null, and the caller reads the commit objects.
 */
async function runGit(gitDir: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv) {
  const r = await runBoundedGit([`--git-dir=${gitDir}`, ...args], {
    env: { ...env, GIT_DIR: undefined },
    ...(input !== undefined && { input }),
  });
  return r.stopped || r.error || r.status !== 0 || r.stdout.length === 0 ? null : r.stdout;
}

/**
 * The raw commit objects reachable from `tips` and not from `exclude` (all of them when it is
 * null), in no particular order; a tip not in the repository is left out. Null when git cannot
 * answer (not installed, or `exclude` is no longer in the repository: the caller then lists
 * from the tips alone). Git stops at a shallow clone's graft: the caller lists again from
 * parents that are present (DESIGN §3.1: a graft never shortens the state's history).
 */
export async function listCommits(
  gitDir: string,
  tips: readonly string[],
  exclude: string | null,
  env: NodeJS.ProcessEnv,
): Promise<Array<{ oid: string; content: Buffer }> | null> {
  // Ids only: a parent line of a crafted commit is text, and must never reach git as an option.
  const ids = tips.filter((t) => OID.test(t));
  if (ids.length === 0 || (exclude !== null && !OID.test(exclude))) return null;
  const args = ["rev-list", "--ignore-missing", ...ids, ...(exclude ? [`^${exclude}`] : []), "--"];
  const out = await runGit(gitDir, args, undefined, env);
  if (!out) return null;
  const oids = out
    .toString("latin1")
    .split("\n")
    .filter((l) => OID.test(l));
  if (oids.length === 0) return [];
  const objects = await catFileBatch(gitDir, oids, env);
  if (!objects || objects.length !== oids.length || objects.some((o) => o.type !== "commit")) return null;
  return objects.map((o) => ({ oid: o.oid, content: o.content }));
}

/**
 * A path a commit changed against its first parent: its blob ids before and after (null:
 * absent; undefined: not a file there, such as a symlink or a submodule).
 */
export interface PathChange {
  path: string;
  before: string | null | undefined;
  after: string | null | undefined;
}

const blobOf = (mode: string | undefined, id: string | undefined) =>
  mode === "000000" ? null : mode && /^100[0-7]{3}$/.test(mode) && id && /^[0-9a-f]{40}$/.test(id) ? id : undefined;

/**
 * What each commit changed against its first parent (a root commit: against nothing), from one
 * `git diff-tree --stdin`; null when git cannot answer. A commit that changed nothing maps to [].
 */
export async function firstParentChanges(
  gitDir: string,
  commits: ReadonlyArray<{ oid: string; firstParent: string | null }>,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, PathChange[]> | null> {
  const out = new Map<string, PathChange[]>();
  if (commits.length === 0) return out;
  if (commits.some((c) => !OID.test(c.oid))) return null;
  const input = commits
    .map((c) => (c.firstParent && OID.test(c.firstParent) ? `${c.oid} ${c.firstParent}\n` : `${c.oid}\n`))
    .join("");
  const diff = await runGit(
    gitDir,
    ["diff-tree", "--stdin", "-r", "--root", "--no-renames", "--raw", "-z", "--always", "--no-abbrev"],
    input,
    env,
  );
  if (!diff) return null;
  // "<commit>\0" then ":<mode> <mode> <before> <after> <status>\0<path>\0" per path. A header is
  // the next commit asked for, in order, read only where a path cannot be: a path that looks
  // like a commit id is still a path.
  const tokens = diff.toString("utf8").split("\0");
  let i = 0;
  let current: PathChange[] | null = null;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token === "") continue;
    if (token.startsWith(":") && current) {
      const [was, now, before, after] = token.slice(1).split(" ");
      const path = tokens[++t];
      if (path === undefined) return null;
      current.push({ path, before: blobOf(was, before), after: blobOf(now, after) });
    } else if (i < commits.length && token === commits[i]!.oid) {
      current = [];
      out.set(commits[i]!.oid, current);
      i++;
    } else return null;
  }
  return i === commits.length ? out : null;
}
