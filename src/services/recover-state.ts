import { DIRECTOR } from "../domain/actor.js";
import type { RecoveryCandidate, RepositoryStatus } from "../store/store.js";
import { commitInfo } from "./commit-info.js";
import type { Context } from "./context.js";

export interface RecoveryReport {
  /** The state ref as found. */
  ref: RepositoryStatus["ref"];
  /** Complete earlier states, newest first. */
  candidates: RecoveryCandidate[];
  /** Commits the logs name whose objects are gone (a prune) or that are not Pantheon's state. */
  incomplete: number;
  /** What was restored: the chosen state and the new commit the ref now names. */
  restored: { from: string; commit: string } | null;
}

/** How many candidates are listed: the newest are the ones worth restoring. */
const LIST = 20;

/** `pantheon doctor --recover`: the ref's condition and the states it can be restored to. */
export async function recoveryPlan(ctx: Context): Promise<RecoveryReport> {
  const store = await ctx.store();
  const repo = await store.repository();
  if (repo.ref.state === "ok") return { ref: repo.ref, candidates: [], incomplete: 0, restored: null };
  const { candidates, incomplete } = await store.recoveryCandidates(LIST);
  return { ref: repo.ref, candidates, incomplete, restored: null };
}

/**
 * `pantheon doctor --recover <commit>`: restores that state as one commit (parent: the state,
 * tree: its tree) compare-and-swapped over the missing or damaged ref. Never guesses: the
 * caller names the commit (or picks it at a terminal).
 */
export async function recoverState(ctx: Context, commit: string): Promise<RecoveryReport> {
  const store = await ctx.store();
  const plan = await recoveryPlan(ctx);
  const restored = await store.recover(commit, (from) => ({
    ...commitInfo("doctor.recover", "state", DIRECTOR),
    summary: `doctor recover of state ${from.slice(0, 12)} by Director`,
  }));
  return { ...plan, restored };
}
