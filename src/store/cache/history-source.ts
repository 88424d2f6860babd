import { type CommitData, parseTrailers } from "../git/commit-data.js";
import { type CommitFacts, firstParentChanges, listCommitFacts, type PathChange } from "../git/commit-listing.js";
import type { ObjectDb } from "../git/object-db.js";
import { changedPaths } from "../git/tree-diff.js";
import { recordKey } from "../state/layout.js";
import { trailerKeys } from "../state/records-trailer.js";
import type { Journal } from "./cache-journal.js";
import type { IndexedCommit } from "./history-rows.js";

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

/** As the log shows it (state/commit-log.ts, isoOf): a date JavaScript cannot show is the epoch. */
const shownTime = (t: number): number => (Math.abs(t * 1000) <= MAX_DATE_MS ? t : 0);

/** A commit object as the index takes it; a merge's keys are filled in by its caller. */
function parsed(oid: string, c: CommitData): IndexedCommit {
  return commitOf(oid, {
    parents: c.parents,
    ctime: c.committer.timestamp,
    atime: shownTime(c.author.timestamp),
    trailers: parseTrailers(c.message),
  });
}

/** A commit as git listed it. */
const listed = (f: CommitFacts): IndexedCommit => commitOf(f.oid, { ...f, atime: shownTime(f.atime) });

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
 * from one `git rev-list --format` (git parses them); what each changed against its first
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
  let raw = from ? await listCommitFacts(gitDir, [tip], from, env) : null;
  const complete = raw !== null;
  raw ??= await listCommitFacts(gitDir, [tip], null, env);
  if (!raw) return null;
  const commits = raw.map(listed);
  // Parents git did not list (a shallow graft hides them) are listed in turn while present.
  const seen = new Set(commits.map((c) => c.oid));
  for (let round = 0; round < 100; round++) {
    const hidden = [...new Set(commits.flatMap((c) => c.parents))].filter(
      (p) => !seen.has(p) && !(complete && indexed(p)),
    );
    const more = hidden.length === 0 ? [] : await listCommitFacts(gitDir, hidden, complete ? from : null, env);
    if (!more || more.length === 0) break;
    for (const f of more) {
      if (seen.has(f.oid)) continue;
      seen.add(f.oid);
      commits.push(listed(f));
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
