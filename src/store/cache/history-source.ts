import { type CommitData, parseTrailers } from "../git/commit-data.js";
import { firstParentChanges, listCommits, type PathChange } from "../git/commit-listing.js";
import { ObjectDb } from "../git/object-db.js";
import { changedPaths } from "../git/tree-diff.js";
import { recordKey } from "../state/layout.js";
import { trailerKeys } from "../state/records-trailer.js";
import type { Journal } from "./cache-journal.js";
import type { IndexedCommit } from "./history-table.js";

// Where the history index gets the commits it lacks: the journal's lines (a run of this clone's
// own mutations: no git at all), else the system git (a sync, a rebuild), else the commit
// objects themselves (no git installed).

/** The largest time a JavaScript Date holds (ECMA-262 §21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

/** A run of commits after `from` ends here: a journal walk past this is not worth it. */
const MAX_JOURNAL_RUN = 10_000;

function commitOf(
  oid: string,
  c: { parents: string[]; ctime: number; atime: number; trailers: Record<string, string[]> },
): IndexedCommit {
  return {
    oid,
    parents: c.parents,
    ctime: c.ctime,
    atime: c.atime,
    op: c.trailers["Pantheon-Op"]?.[0] ?? "",
    keys: trailerKeys(c.trailers["Pantheon-Records"] ?? []),
  };
}

/**
 * The commits from `from` (excluded) to `tip`, when the journal's lines lead there: each a
 * mutation of this clone (one parent), described by its line. Null when they do not.
 */
export function journalRun(journal: Journal, from: string, tip: string): IndexedCommit[] | null {
  const out: IndexedCommit[] = [];
  for (let at = tip; at !== from; ) {
    const item = journal.logged(at);
    if (!item || item.entry.parents.length !== 1 || out.length >= MAX_JOURNAL_RUN) return null;
    const atime = Date.parse(item.entry.date) / 1000;
    if (!Number.isFinite(atime)) return null;
    const c = commitOf(at, { parents: item.entry.parents, ctime: item.time, atime, trailers: item.entry.trailers });
    const blobs = journal.blobs(at);
    if (blobs) c.blobs = new Map([...blobs].map(([path, b]) => [recordKey(path), b]));
    out.push(c);
    at = item.entry.parents[0]!;
  }
  return out;
}

/** A commit object as the index takes it; a merge's keys are filled in by its caller. */
function parsed(oid: string, c: CommitData): IndexedCommit {
  return commitOf(oid, {
    parents: c.parents,
    ctime: c.committer.timestamp,
    // As the log shows it (state/commit-log.ts, isoOf): a date JavaScript cannot show is the epoch.
    atime: Math.abs(c.author.timestamp * 1000) <= MAX_DATE_MS ? c.author.timestamp : 0,
    trailers: parseTrailers(c.message),
  });
}

/** What a merge changed on the line it joins: its first-parent diff, as record keys. */
function mergeKeys(paths: readonly string[]): string[] {
  return [...new Set(paths.map(recordKey))];
}

/** Each touched record's blob before and after the commit, where the diff says (a file both sides). */
function blobsOf(c: IndexedCommit, changes: readonly PathChange[]): void {
  const keys = new Set(c.keys);
  for (const ch of changes) {
    const key = recordKey(ch.path);
    if (!keys.has(key) || ch.before === undefined || ch.after === undefined) continue;
    (c.blobs ??= new Map()).set(key, [ch.before, ch.after]);
  }
}

/**
 * The commits of `tip`'s history that `from`'s lacks (all of it when `from` is null or gone),
 * from `git rev-list` and one `git cat-file --batch`; what each changed against its first
 * parent (a merge's keys, every touched record's blobs) from one `git diff-tree`.
 * `complete` says whether `from` was honoured (false: a full listing). Null when git cannot answer.
 */
export async function gitRun(
  gitDir: string,
  from: string | null,
  tip: string,
  env: NodeJS.ProcessEnv,
  indexed: (oid: string) => boolean,
): Promise<{ commits: IndexedCommit[]; complete: boolean } | null> {
  let raw = from ? await listCommits(gitDir, [tip], from, env) : null;
  const complete = raw !== null;
  raw ??= await listCommits(gitDir, [tip], null, env);
  if (!raw) return null;
  // Parsed by the object engine, from the bytes git handed over (no object is read again).
  const db = new ObjectDb(gitDir);
  const parse = async (o: { oid: string; content: Buffer }) => {
    db.remember(o.oid, { type: "commit", content: o.content });
    return parsed(o.oid, await db.readCommit(o.oid));
  };
  const commits: IndexedCommit[] = [];
  for (const o of raw) commits.push(await parse(o));
  // Parents git did not list (a shallow graft hides them) are listed in turn while present.
  const listed = new Set(commits.map((c) => c.oid));
  for (let round = 0; round < 100; round++) {
    const hidden = [...new Set(commits.flatMap((c) => c.parents))].filter(
      (p) => !listed.has(p) && !(complete && indexed(p)),
    );
    const more = hidden.length === 0 ? [] : await listCommits(gitDir, hidden, complete ? from : null, env);
    if (!more || more.length === 0) break;
    for (const o of more) {
      if (listed.has(o.oid)) continue;
      listed.add(o.oid);
      commits.push(await parse(o));
    }
  }
  const diffs = await firstParentChanges(
    gitDir,
    commits.map((c) => ({ oid: c.oid, firstParent: c.parents[0] ?? null })),
    env,
  );
  if (!diffs) return null;
  for (const c of commits) {
    const changes = diffs.get(c.oid) ?? [];
    if (c.parents.length > 1) c.keys = mergeKeys(changes.map((ch) => ch.path));
    blobsOf(c, changes);
  }
  return { commits, complete };
}

/**
 * The same from the commit objects, read one by one from `tip` down to commits `known` has:
 * the fallback when git cannot run (a merge's diff through the trees, shard by shard).
 */
export async function objectRun(db: ObjectDb, tip: string, known: (oid: string) => boolean): Promise<IndexedCommit[]> {
  const out: IndexedCommit[] = [];
  const seen = new Set<string>([tip]);
  const queue = [tip];
  while (queue.length > 0) {
    const oid = queue.pop()!;
    if (known(oid)) continue;
    let commit: CommitData;
    try {
      commit = await db.readCommit(oid);
    } catch {
      continue; // a shallow clone's cut: the history ends here, as git's does
    }
    const c = parsed(oid, commit);
    if (c.parents.length > 1) {
      const base = await db
        .readCommit(c.parents[0]!)
        .then((p) => p.tree)
        .catch(() => null);
      c.keys = mergeKeys(await changedPaths(db, base, commit.tree));
    }
    out.push(c);
    for (const p of c.parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      queue.push(p);
    }
  }
  return out;
}
