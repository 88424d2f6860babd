import { ConflictError, NoMergeBaseError } from "../../errors.js";
import { DIRECTOR } from "../../domain/actor.js";
import type { LostTip, RecoveryCandidate, RepositoryStatus, Store } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import type { Context } from "../kernel/context.js";
import { recordRefs, type RecordRef } from "../kernel/record-ids.js";
import { describeMerge, emptyReport } from "../sync/sync-report.js";

/** A state the ref can be restored to; with a healthy ref, one it lacks commits of, and what merging it back brings. */
export type RecoveryChoice = RecoveryCandidate & { commits?: number; brings?: RecordRef[] };

export interface RecoveryReport {
  /** The state ref as found. */
  ref: RepositoryStatus["ref"];
  /**
   * Complete earlier states, newest first: for a missing or damaged ref, every state the logs
   * name; for a healthy one, the reflog tips holding commits it lacks (DESIGN §3.2).
   */
  candidates: RecoveryChoice[];
  /** Commits the logs name whose objects are gone (a prune) or that are not Pantheon's state. */
  incomplete: number;
  /**
   * What was restored: the chosen state and the new commit the ref now names; `merged` when a
   * healthy ref took it in by a merge (or a fast-forward), with what that brought back.
   */
  restored: {
    from: string;
    commit: string;
    merged?: boolean;
    /** Merged: what the lost tip brings back; restored: what no remote had at the last sync. */
    brings?: RecordRef[];
    /** A restore's `brings` compares with this remote's last synced tip (null: never synced: all records). */
    remote?: string | null;
    /** Numbers the merge gave the lost tip's records because the ref had given theirs to others. */
    renumbered?: Array<{ from: string; to: string }>;
  } | null;
}

/** How many candidates are listed: the newest are the ones worth restoring. */
const LIST = 20;

async function choices(store: Store, tips: LostTip[]): Promise<RecoveryChoice[]> {
  const out: RecoveryChoice[] = [];
  for (const { records, ...tip } of tips)
    out.push({ ...tip, brings: await recordRefs(await store.snapshotAt(tip.commit), records) });
  return out;
}

/**
 * `pantheon doctor --recover`: the ref's condition and the states it can be restored to. A
 * healthy ref is "nothing to recover" only when no reflog tip holds commits it lacks.
 */
export async function recoveryPlan(ctx: Context): Promise<RecoveryReport> {
  const store = await ctx.store();
  const repo = await store.repository();
  if (repo.ref.state === "ok")
    return { ref: repo.ref, candidates: await choices(store, await store.lostTips()), incomplete: 0, restored: null };
  const { candidates, incomplete } = await store.recoveryCandidates(LIST);
  return { ref: repo.ref, candidates, incomplete, restored: null };
}

/**
 * `pantheon doctor --recover <commit>`: a missing or damaged ref is restored to that state as
 * one commit (parent: the state, tree: its tree) compare-and-swapped over it; a healthy ref
 * that lacks commits of a reflog tip takes the tip in by a merge (DESIGN §3.3's rules, the ref
 * as the published side), so nothing the ref holds is lost either. Never guesses: the caller
 * names the commit (or picks it at a terminal).
 */
export async function recoverState(ctx: Context, commit: string): Promise<RecoveryReport> {
  const store = await ctx.store();
  const plan = await recoveryPlan(ctx);
  if (plan.ref.state === "ok") {
    const text = commit.trim().toLowerCase();
    const tip = /^[0-9a-f]{4,40}$/.test(text) ? plan.candidates.filter((c) => c.commit.startsWith(text)) : [];
    // Anything else goes to the store, which refuses a healthy ref with its own message.
    if (tip.length === 1) return { ...plan, restored: await mergeBack(ctx, store, plan.ref.oid!, tip[0]!) };
  }
  const restored = await store.recover(commit, (from) => ({
    ...commitInfo("doctor.recover", "state", DIRECTOR),
    summary: `doctor recover of state ${from.slice(0, 12)} by Director`,
  }));
  return { ...plan, restored: { ...restored, ...(await unpublished(store, restored.commit)) } };
}

/**
 * What a restored ref brings back that no remote has yet (DESIGN §3.2: "listing what it brings
 * back"): the records that differ from the last tip this clone synced with its default remote,
 * or every record when it never synced. `remote` says which it was compared with.
 */
async function unpublished(store: Store, commit: string): Promise<{ brings: RecordRef[]; remote: string | null }> {
  const sync = await store.sync();
  const remote = await sync.defaultRemote();
  const synced = remote ? await sync.syncedTip(remote) : null;
  const changes = await sync.recordChanges(commit, synced);
  return { brings: await recordRefs(await store.snapshotAt(commit), changes), remote: synced ? remote : null };
}

/** Merges a lost tip into the healthy ref (a fast-forward when the ref is an older commit of it). */
async function mergeBack(
  ctx: Context,
  store: Store,
  ref: string,
  tip: RecoveryChoice,
): Promise<NonNullable<RecoveryReport["restored"]>> {
  const sync = await store.sync();
  const brings = tip.brings ?? [];
  if (await sync.contains(ref, tip.commit)) {
    if (!(await sync.advance(ref, tip.commit))) throw moved();
    return { from: tip.commit, commit: tip.commit, merged: true, brings };
  }
  const base = await sync.mergeBase(tip.commit, ref);
  if (!base)
    throw new NoMergeBaseError(
      `${tip.commit.slice(0, 12)} shares no history with refs/coordination/main; nothing was merged`,
      `compare first: git log ${tip.commit.slice(0, 12)} and git log refs/coordination/main`,
    );
  const info = {
    ...commitInfo("doctor.recover", "state", DIRECTOR),
    summary: `doctor recover merge of state ${tip.commit.slice(0, 12)} by Director`,
  };
  // The ref is the published side: where both changed a field, its value stays and the lost
  // tip's is kept in a conflict note, as a sync keeps this clone's.
  const merged = await sync.merge(base, tip.commit, ref, "refs/coordination/main", info);
  if (!(await sync.advance(ref, merged.commit))) throw moved();
  for (const notice of merged.notices) ctx.warn(notice);
  const decided = await describeMerge(
    store,
    merged.commit,
    merged.output,
    emptyReport("recover"),
    "refs/coordination/main",
  );
  const renumbered = decided.renumbered.map((r) => ({ from: r.from, to: r.to }));
  return { from: tip.commit, commit: merged.commit, merged: true, brings, renumbered };
}

const moved = () =>
  new ConflictError(
    "refs/coordination/main moved while the state was merged back; nothing was changed",
    "pantheon doctor --recover",
  );
