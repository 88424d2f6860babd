import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runBoundedGit } from "./git-bounds.js";
import { ObjectDb } from "./object-db.js";

// The history index (store/cache/history-index.ts) is built and caught up from these two calls
// of the system git, never from a walk of commit objects in JavaScript: at 100,000 commits a
// walk read every commit through a reader in JavaScript (~5 s, ~700 MB); one `git rev-list
// --format` hands over what the index takes of the same commits, parsed by git.

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

/** What the history index takes of a commit, as git reads it. */
export interface CommitFacts {
  oid: string;
  parents: string[];
  /** Committer and author times, seconds since the epoch. */
  ctime: number;
  atime: number;
  /** The Pantheon-Op and Pantheon-Records trailers' values, by key. */
  trailers: Record<string, string[]>;
}

const TRAILER_KEYS = ["Pantheon-Op", "Pantheon-Records"] as const;
/**
 * One record per commit: \x01, then the id, parents, committer and author times and each
 * trailer's values (joined by \x1f, unfolded) as git parses them, each field ended by NUL.
 */
const FACTS_FORMAT = `%x01%H%x00%P%x00%ct%x00%at%x00${TRAILER_KEYS.map((k) => `%(trailers:key=${k},valueonly,unfold,separator=%x1f)%x00`).join("")}`;

/** The records of a listing; null at the first that is not well formed (a message git printed raw can break the framing). */
function parseFacts(out: string): CommitFacts[] | null {
  const facts: CommitFacts[] = [];
  for (const record of out.split("\x01")) {
    if (record.trim() === "") continue;
    const f = record.split("\0");
    const [oid, parents, ctime, atime, ...values] = f;
    if (
      f.length !== 5 + TRAILER_KEYS.length ||
      f.at(-1)!.trim() !== "" ||
      !OID.test(oid!) ||
      !/^([0-9a-f]{40}( [0-9a-f]{40})*)?$/.test(parents!) ||
      !/^-?\d+$/.test(ctime!) ||
      !/^-?\d+$/.test(atime!)
    )
      return null;
    const trailers: Record<string, string[]> = {};
    TRAILER_KEYS.forEach((k, i) => {
      if (values[i]) trailers[k] = values[i]!.split("\x1f");
    });
    facts.push({
      oid: oid!,
      parents: parents ? parents.split(" ") : [],
      ctime: Number(ctime),
      atime: Number(atime),
      trailers,
    });
  }
  return facts;
}

/**
 * The commits reachable from `tips` and not from `exclude` (all of them when it is null), in no
 * particular order, each as git parses it (one `git rev-list --format`: no commit object is
 * read in JavaScript; at 100,000 commits, parsing each through the object engine would cost
 * seconds); a tip not in the repository is left out. Null when git cannot answer (not
 * installed, `exclude` is no longer in the repository: the caller then lists from the tips
 * alone) or prints a record that is not well formed. Git stops at a shallow clone's graft: the
 * caller lists again from parents that are present (DESIGN §3.1: a graft never shortens the
 * state's history).
 */
export async function listCommitFacts(
  gitDir: string,
  tips: readonly string[],
  exclude: string | null,
  env: NodeJS.ProcessEnv,
): Promise<CommitFacts[] | null> {
  // Ids only: a parent line of a crafted commit is text, and must never reach git as an option.
  const ids = tips.filter((t) => OID.test(t));
  if (ids.length === 0 || (exclude !== null && !OID.test(exclude))) return null;
  const args = [
    "-c",
    "i18n.logOutputEncoding=UTF-8",
    "rev-list",
    "--ignore-missing",
    "--no-commit-header",
    `--format=${FACTS_FORMAT}`,
    ...ids,
    ...(exclude ? [`^${exclude}`] : []),
    "--",
  ];
  const r = await runBoundedGit([`--git-dir=${gitDir}`, ...args], { env: { ...env, GIT_DIR: undefined } });
  if (r.stopped || r.error || r.status !== 0) return null;
  const facts = parseFacts(r.stdout.toString("utf8"));
  if (!facts) return null;
  // git shows a grafted commit's parents as the graft says (a shallow cut: none); the index
  // wants the commit's own, so that the caller lists the parents that are present.
  const grafted = graftedCommits(gitDir);
  if (grafted.size > 0) {
    const db = new ObjectDb(gitDir);
    for (const f of facts) if (grafted.has(f.oid)) f.parents = (await db.readCommit(f.oid)).parents;
  }
  return facts;
}

/** Commits whose parents git replaces: the shallow file's (`git fetch --depth`) and info/grafts'. */
function graftedCommits(gitDir: string): Set<string> {
  const out = new Set<string>();
  for (const file of [join(gitDir, "shallow"), join(gitDir, "info", "grafts")]) {
    let text = "";
    try {
      text = readFileSync(file, "latin1");
    } catch {
      continue; // none: the usual case
    }
    for (const line of text.split("\n")) {
      const oid = line.slice(0, 40);
      if (OID.test(oid)) out.add(oid);
    }
  }
  return out;
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
