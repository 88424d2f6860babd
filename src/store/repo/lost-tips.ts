/**
 * States the ref lost (DESIGN §3.2): a `git update-ref -d` by mistake, a hand-made
 * `git update-ref` back to an older commit, or an older Pantheon that then adopted a remote's
 * state over the gap. Every move Pantheon makes is logged with its old value, so a log line
 * whose successor does not start from its new value marks a tip something else moved the ref
 * away from; so does the last line when the ref no longer names it. A tip the current ref
 * contains lost nothing (a recovery, a fast-forward by hand); a state Pantheon itself moved away
 * from on purpose (`sync --accept-rewrite`) is followed by its own line and is never one.
 */
import type { ObjectDb } from "../git/object-db.js";
import { readReflogs, ZERO_OID, type ReflogEntry } from "../git/reflog.js";
import { REF } from "../state/layout.js";
import { recordChanges } from "../state/record-changes.js";
import type { LostTip, RecoveryCandidate } from "../store.js";
import type { RepoPaths } from "./repo.js";
import { runGit } from "./run-git.js";
import { describeCommit, isComplete } from "./state-recovery.js";

interface Tip {
  commit: string;
  time: number;
  source: RecoveryCandidate["source"];
}

/** Tips a log names that its next line (or the ref, for the last one) does not start from, newest first. */
export function reflogTips(commonDir: string, current: string | null): Tip[] {
  const { git, copy } = readReflogs(commonDir, REF);
  const best = new Map<string, Tip>();
  const scan = (log: ReflogEntry[], source: Tip["source"]) => {
    for (let i = 0; i < log.length; i++) {
      const e = log[i]!;
      if (e.next === ZERO_OID) continue;
      const after = log[i + 1];
      if (after ? after.old === e.next : e.next === current) continue;
      const had = best.get(e.next);
      if (!had || e.time > had.time) best.set(e.next, { commit: e.next, time: e.time, source });
    }
  };
  scan(git ?? [], "reflog");
  scan(copy, "pantheon-reflog");
  return [...best.values()].sort((a, b) => b.time - a.time);
}

/**
 * The reflog tips holding commits `current` lacks (all of them when the ref is missing), each a
 * complete Pantheon state (`isState`), with what it would bring back; newest first.
 */
export async function lostTips(
  paths: RepoPaths,
  db: ObjectDb,
  env: NodeJS.ProcessEnv,
  current: string | null,
  isState: (commit: string) => Promise<boolean>,
): Promise<LostTip[]> {
  const out: LostTip[] = [];
  for (const tip of reflogTips(paths.commonDir, current)) {
    // --is-ancestor: 0 contained (nothing lost), 1 not; anything else (the tip pruned) judges nothing.
    if (current && runGit(paths, ["merge-base", "--is-ancestor", tip.commit, current], env).status !== 1) continue;
    const about = await describeCommit(db, tip.commit);
    if (!about || !isComplete(paths, tip.commit, env) || !(await isState(tip.commit))) continue;
    const range = current ? [tip.commit, `^${current}`] : [tip.commit];
    const commits = Number(runGit(paths, ["rev-list", "--count", ...range], env).stdout.trim()) || 0;
    let records: LostTip["records"] = [];
    if (current) {
      const base = runGit(paths, ["merge-base", tip.commit, current], env).stdout.trim() || null;
      const treeOf = async (c: string) => (await db.readCommit(c)).tree;
      records = await recordChanges(db, await treeOf(tip.commit), base ? await treeOf(base) : null);
    }
    out.push({
      commit: tip.commit,
      date: new Date(tip.time * 1000).toISOString(),
      summary: about.summary,
      source: tip.source,
      commits,
      records,
    });
  }
  return out;
}
