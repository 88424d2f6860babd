/**
 * Recovery of a deleted or damaged state ref (DESIGN §2.3, `pantheon doctor --recover`): the
 * candidates are the commits the ref was moved to, from git's reflog, Pantheon's copy of it
 * (which `git update-ref -d` leaves alone) and the read cache's journal. Each names a commit that
 * a `git gc --prune=now` may since have removed, so none is trusted: a candidate is offered only
 * when git can list every object of its tree and its project.json reads as a Pantheon project.
 */
import { readJournal } from "../cache/cache-journal.js";
import { REF } from "../state/layout.js";
import type { ObjectDb } from "../git/object-db.js";
import { readReflogs } from "../git/reflog.js";
import { runBoundedGit } from "../git/git-bounds.js";
import type { RepoPaths } from "./repo.js";
import type { RecoveryCandidate } from "../store.js";

interface Seen {
  commit: string;
  /** When the ref moved there (reflog), else the commit's time (journal); seconds. */
  time: number | null;
  source: RecoveryCandidate["source"];
}

/** Every commit the logs name, newest first, each once (its newest mention wins). */
export function namedCommits(commonDir: string): Seen[] {
  const { git, copy } = readReflogs(commonDir, REF);
  const all: Seen[] = [];
  // Later lines are newer: walk each log backwards.
  for (const e of [...(git ?? [])].reverse()) all.push({ commit: e.next, time: e.time, source: "reflog" });
  for (const e of [...copy].reverse()) all.push({ commit: e.next, time: e.time, source: "pantheon-reflog" });
  for (const j of readJournal(commonDir).commits()) all.push({ commit: j.commit, time: j.time, source: "journal" });
  const best = new Map<string, Seen>();
  for (const s of all) {
    if (/^0{40}$/.test(s.commit)) continue;
    const had = best.get(s.commit);
    if (!had || (s.time ?? 0) > (had.time ?? 0)) best.set(s.commit, s);
  }
  return [...best.values()].sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
}

/**
 * Whether every object of `commit`'s tree is present: `git rev-list --objects --no-walk` walks
 * exactly that tree and fails on the first object it cannot find (loose or packed, which the
 * in-process reader would have to look up object by object). A tree git cannot read within its
 * bounds (git-bounds.ts) makes the commit incomplete: it is never offered.
 */
export async function isComplete(paths: RepoPaths, commit: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(commit)) return false;
  const r = await runBoundedGit([`--git-dir=${paths.commonDir}`, "rev-list", "--objects", "--no-walk", commit], {
    env: { ...env, GIT_DIR: undefined } as NodeJS.ProcessEnv,
    discardStdout: true, // the ids it lists are not wanted, only whether it gets to the end
  });
  return r.status === 0;
}

/** A commit's first line and committer time; null when it is missing or not a commit. */
export async function describeCommit(db: ObjectDb, commit: string): Promise<{ summary: string; time: number } | null> {
  try {
    const obj = await db.read(commit);
    if (obj.type !== "commit") return null;
    const c = await db.readCommit(commit);
    return { summary: c.message.split("\n")[0] ?? "", time: c.committer.timestamp };
  } catch {
    return null;
  }
}

/**
 * The candidates, newest first, complete ones only, at most `limit`; `checkProject` reads the
 * commit's project.json (a commit of something other than Pantheon's state is no candidate).
 */
export async function recoveryCandidates(
  paths: RepoPaths,
  db: ObjectDb,
  env: NodeJS.ProcessEnv,
  checkProject: (commit: string) => Promise<boolean>,
  limit: number,
): Promise<{ candidates: RecoveryCandidate[]; incomplete: number }> {
  const candidates: RecoveryCandidate[] = [];
  let incomplete = 0;
  for (const seen of namedCommits(paths.commonDir)) {
    if (candidates.length >= limit) break;
    const about = await describeCommit(db, seen.commit);
    if (!about || !(await isComplete(paths, seen.commit, env)) || !(await checkProject(seen.commit))) {
      incomplete++;
      continue;
    }
    const time = seen.time ?? about.time;
    candidates.push({
      commit: seen.commit,
      date: new Date(time * 1000).toISOString(),
      summary: about.summary,
      source: seen.source,
    });
  }
  return { candidates, incomplete };
}
