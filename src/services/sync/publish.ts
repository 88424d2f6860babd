import { PantheonError } from "../../errors.js";
import type {
  MutateOutcome,
  MutationResult,
  NetOptions,
  PublishOutcome,
  RecordStore,
  StateSync,
  Store,
  SyncLock,
  Tx,
} from "../../store/store.js";
import { networkOff, type Context, type Publication } from "../kernel/context.js";
import { emptyReport } from "./sync-report.js";
import { syncBackoffMs, syncBudget } from "./sync-state.js";
import { syncStep, type Step, type StepState } from "./sync-step.js";
import { remoteRefChangeLines } from "../../domain/remote-ref-notice.js";
import { publishFailure, spent, type Tries } from "./publish-reasons.js";

/**
 * How long one network call may take before the remote has answered once in this command: an
 * unreachable remote that swallows packets costs this much, then the change lands here. Enough
 * for an ssh handshake on a loaded machine (measured: over 5 s in the soak on 2 busy cores).
 */
export const CONTACT_LIMIT_MS = 15_000;

/**
 * How long a racing command keeps trying while a reachable remote keeps moving (DESIGN §3.5: a
 * budget like sync's, which it is by default): contention is not absence, and a claim given up
 * after a few seconds lands here only and is dropped by a later sync when another persona's
 * claim of the same task reached the remote first. `PANTHEON_PUBLISH_BUDGET_MS` sets it apart.
 */
export function publishBudget(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PANTHEON_PUBLISH_BUDGET_MS);
  return env.PANTHEON_PUBLISH_BUDGET_MS !== undefined &&
    env.PANTHEON_PUBLISH_BUDGET_MS !== "" &&
    Number.isFinite(v) &&
    v >= 0
    ? v
    : syncBudget(env);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A mutation others race for (claims, mission start and end, review decisions, summon), made
 * on the remote's latest state and published at once (DESIGN §3.5): fetch and merge first, run
 * the mutation on the merged state, push its commit, and only then move this clone's ref; a
 * push the remote rejects (it moved meanwhile) repeats from the fetch, with sync's jittered
 * backoff and within its budget, so the intent runs again on what the remote now holds and a
 * claim it already has is refused at once. The merges fetched stay even when the mutation is
 * refused.
 *
 * Publishing happens only with a reachable remote that has state (this clone's default remote,
 * whose state it has fetched before) and is off with `--offline`, `pantheon.autoSync=false`, or
 * in a sandbox without network. Nothing here ever fails the command: an unreachable remote, one
 * that kept moving past the budget or a sync problem (a rewritten or unrelated remote) lands
 * the mutation locally, says "not published yet (why): pantheon sync" and tells
 * `ctx.published` so, which `--json`, the MCP result and summon's brief carry. Reads and other
 * writes never come here.
 */
export async function publishedMutation<R>(
  ctx: Context<RecordStore | Store>,
  fn: (tx: Tx) => Promise<MutationResult<R>>,
): Promise<MutateOutcome<R>> {
  const store = await ctx.store();
  const tell = (p: Publication) => ctx.published?.(p);
  // Publishing is off, or there is nowhere to publish: the change is all there is, said only in --json.
  const quietly = async (remote: string | null, reason: string) => {
    const r = await store.mutate(fn);
    tell({ published: false, remote, reason, off: true });
    return r;
  };
  // A store of records alone (the in-memory one of service tests) has no remotes to publish to.
  if (!sharesWithRemotes(store)) return quietly(null, "this clone has no remote to publish to");
  let sync: StateSync;
  try {
    sync = await store.sync();
  } catch {
    return quietly(null, "this clone has no remote to publish to");
  }
  const target = await sync.publishTarget();
  if (!("remote" in target) || "skip" in target) {
    if (target.skip === "disabled") return quietly(null, "publishing is off in this clone (pantheon.autoSync false)");
    if (target.skip === "no-remote") return quietly(null, "this clone has no remote to publish to");
    return quietly(target.remote, `this clone has not synced with ${target.remote} yet (pantheon sync publishes)`);
  }
  const remote = target.remote;
  const local = async (why: string): Promise<MutateOutcome<R>> => {
    const r = await store.mutate(fn);
    if (r.commit !== null) ctx.warn(`not published yet (${why}): pantheon sync`);
    tell({ published: false, remote, reason: why });
    return r;
  };
  const off = networkOff(ctx);
  if (off) return local(off);
  const tries: Tries = { remote, budgetMs: publishBudget(ctx.env), started: Date.now(), attempts: 0, moves: 0 };
  let lock: SyncLock;
  try {
    lock = await sync.lock({ waitMs: Math.max(0, tries.budgetMs - spent(tries)) });
  } catch (e) {
    if (e instanceof PantheonError)
      return local(`another sync of this clone held its sync lock past the publishing budget (${e.message})`);
    throw e;
  }
  try {
    return await publishLocked(ctx, store, sync, fn, tries, local, tell);
  } finally {
    lock.release();
    // The remote refused refs/coordination/main for its name and the state moved to a branch: said.
    for (const c of sync.remoteRefChanges()) for (const line of remoteRefChangeLines(c)) ctx.warn(line);
  }
}

/** Whether the store has the parts beyond its records (a repository with remotes), not records alone. */
function sharesWithRemotes(store: RecordStore | Store): store is Store {
  return "sync" in store;
}

async function publishLocked<R>(
  ctx: Context<unknown>,
  store: Store,
  sync: StateSync,
  fn: (tx: Tx) => Promise<MutationResult<R>>,
  tries: Tries,
  local: (why: string) => Promise<MutateOutcome<R>>,
  tell: (p: Publication) => void,
): Promise<MutateOutcome<R>> {
  const remote = tries.remote;
  const left = () => tries.budgetMs - spent(tries);
  const report = emptyReport(remote);
  const state: StepState = { accepted: false, kept: [] };
  let reached = false;
  let seenTip: string | null | undefined;
  for (let attempt = 1; ; attempt++) {
    if (left() <= 0) return local(publishFailure(tries, null));
    tries.attempts = attempt;
    report.attempts = attempt;
    // Until the remote has answered once, a call gets the contact limit; after, the budget.
    const net: NetOptions = {
      batch: true,
      timeoutMs: Math.max(1_000, Math.min(left(), reached ? left() : CONTACT_LIMIT_MS)),
    };
    let step: Step;
    try {
      step = await syncStep(ctx, store, sync, remote, report, state, { net });
    } catch (e) {
      // Unreachable, a rewritten or unrelated remote, a newer schema there: said as it is.
      if (e instanceof PantheonError) return await local(publishFailure(tries, e));
      throw e;
    }
    reached = true;
    if (seenTip !== undefined && report.remoteTip !== seenTip) tries.moves += 1;
    seenTip = report.remoteTip;
    if (step === "retry") {
      // A command of this clone moved the ref during the merge: merge again with what was just
      // fetched, without a round trip (a push will say if the remote moved too).
      state.fetched = report.remoteTip;
      continue;
    }
    let failure: string | null = null;
    const pushLimit = Math.max(left(), 5_000);
    const publish = async (commit: string): Promise<PublishOutcome> => {
      if (failure !== null) return "unpublished"; // the mutation re-ran after a local race: no second try
      try {
        return (await sync.push(remote, commit, { batch: true, timeoutMs: pushLimit })) === "ok"
          ? "published"
          : "rejected";
      } catch (e) {
        if (!(e instanceof PantheonError)) throw e;
        failure = publishFailure(tries, e);
        return "unpublished";
      }
    };
    const r = await heldNotices(
      ctx,
      () => store.mutate(fn, { publish }),
      (x) => x.published === "rejected",
    );
    if (r.published === "rejected") {
      await sleep(Math.min(syncBackoffMs(attempt, ctx.ids.random, spent(tries)), Math.max(0, left())));
      continue;
    }
    if (r.commit === null) {
      // Nothing of its own to publish; what the fetch merged in goes out too, if it can.
      const sent = step.push ? await pushMerged(sync, remote, step.push, pushLimit) : null;
      tell(
        sent === null || sent === "ok"
          ? { published: true, remote, reason: null }
          : { published: false, remote, reason: sent === "rejected" ? `${remote} moved meanwhile` : sent },
      );
      return r;
    }
    if (r.published === "published") {
      await sync.recordSynced(remote, r.commit);
      tell({ published: true, remote, reason: null });
      // Another command of this clone moved the ref between the push and the swap: the remote
      // has this commit and this clone not yet; one more step brings it in.
      if (r.landed === false) await bringIn(ctx, store, sync, remote, state, { batch: true, timeoutMs: pushLimit });
      return r;
    }
    const why = failure ?? "the push failed";
    ctx.warn(`not published yet (${why}): pantheon sync`);
    tell({ published: false, remote, reason: why });
    return r;
  }
}

/**
 * Runs one attempt of the mutation with its notices held back, and drops them when the attempt
 * is `discarded` (its push was rejected, so it runs again on a newer merge): a notice of the
 * attempt that stands is said once, not one per attempt with numbers a later merge changed.
 */
async function heldNotices<T>(ctx: Context<unknown>, run: () => Promise<T>, discarded: (r: T) => boolean): Promise<T> {
  const warn = ctx.warn;
  const held: string[] = [];
  ctx.warn = (m) => held.push(m);
  let r: T | undefined;
  try {
    r = await run();
  } finally {
    ctx.warn = warn;
    if (r === undefined || !discarded(r)) for (const m of held) warn.call(ctx, m);
  }
  return r;
}

/** Pushes a merge the fetch brought (the command itself changed nothing): "ok", "rejected", or why it failed. */
async function pushMerged(sync: StateSync, remote: string, commit: string, timeoutMs: number): Promise<string> {
  try {
    const p = await sync.push(remote, commit, { batch: true, timeoutMs });
    if (p === "ok") await sync.recordSynced(remote, commit);
    return p;
  } catch (e) {
    if (e instanceof PantheonError) return e.message;
    throw e;
  }
}

async function bringIn(
  ctx: Context<unknown>,
  store: Store,
  sync: StateSync,
  remote: string,
  state: StepState,
  net: NetOptions,
): Promise<void> {
  try {
    const again = await syncStep(ctx, store, sync, remote, emptyReport(remote), state, { net });
    if (again !== "retry" && again.push && (await sync.push(remote, again.push, net)) === "ok")
      await sync.recordSynced(remote, again.push);
  } catch {
    ctx.warn(`this clone's state lacks its own published commit until the next pantheon sync`);
  }
}
