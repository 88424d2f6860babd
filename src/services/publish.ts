import { PantheonError } from "../errors.js";
import type {
  MutateOutcome,
  MutationResult,
  NetOptions,
  PublishOutcome,
  StateSync,
  Store,
  SyncLock,
  Tx,
} from "../store/store.js";
import { networkOff, type Context } from "./context.js";
import { emptyReport } from "./sync-report.js";
import { syncBackoffMs } from "./sync-state.js";
import { syncStep, type Step, type StepState } from "./sync-step.js";
import { remoteRefChangeLines } from "../domain/remote-ref-notice.js";

/** How long a racing command spends on the network before it lands locally only (DESIGN §3.5: about 5 s). */
export const PUBLISH_BUDGET_MS = 5_000;

function publishBudget(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PANTHEON_PUBLISH_BUDGET_MS);
  return env.PANTHEON_PUBLISH_BUDGET_MS !== undefined &&
    env.PANTHEON_PUBLISH_BUDGET_MS !== "" &&
    Number.isFinite(v) &&
    v >= 0
    ? v
    : PUBLISH_BUDGET_MS;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A mutation others race for (claims, mission start and end, review decisions, summon), made
 * on the remote's latest state and published at once (DESIGN §3.5): fetch and merge first, run
 * the mutation on the merged state, push its commit, and only then move this clone's ref; a
 * push the remote rejects (it moved meanwhile) repeats from the fetch, so the intent runs again
 * on what the remote now holds and a claim it already has is refused at once. The merges
 * fetched stay even when the mutation is refused.
 *
 * Publishing happens only with a reachable remote that has state (this clone's default remote,
 * whose state it has fetched before) and is off with `--offline`, `pantheon.autoSync=false`, or
 * in a sandbox without network. Nothing here ever fails the command: an unreachable remote, one
 * that keeps moving past the budget or a sync problem (a rewritten or unrelated remote) lands
 * the mutation locally and says "not published yet: pantheon sync". Reads and other writes
 * never come here.
 */
export async function publishedMutation<R>(
  ctx: Context,
  fn: (tx: Tx) => Promise<MutationResult<R>>,
): Promise<MutateOutcome<R>> {
  const store = await ctx.store();
  let sync: StateSync;
  try {
    sync = await store.sync();
  } catch {
    return store.mutate(fn); // a store without remotes
  }
  const target = await sync.publishTarget();
  if (!("remote" in target) || "skip" in target) return store.mutate(fn);
  const remote = target.remote;
  const local = async (why: string): Promise<MutateOutcome<R>> => {
    const r = await store.mutate(fn);
    if (r.commit !== null) ctx.warn(`not published yet (${why}): pantheon sync`);
    return r;
  };
  const off = networkOff(ctx);
  if (off) return local(off);
  const deadline = Date.now() + publishBudget(ctx.env);
  const left = () => Math.max(0, deadline - Date.now());
  let lock: SyncLock;
  try {
    lock = await sync.lock({ waitMs: left() });
  } catch (e) {
    if (e instanceof PantheonError) return local("another sync of this clone is running");
    throw e;
  }
  try {
    const report = emptyReport(remote);
    const state: StepState = { accepted: false, kept: [] };
    for (let attempt = 1; ; attempt++) {
      if (left() <= 0) return await local(`${remote} kept changing`);
      report.attempts = attempt;
      const net: NetOptions = { batch: true, timeoutMs: left() };
      let step: Step;
      try {
        step = await syncStep(ctx, store, sync, remote, report, state, { net });
      } catch (e) {
        // Unreachable, a rewritten or unrelated remote, a newer schema there: sync says why.
        if (e instanceof PantheonError) return await local(e.message);
        throw e;
      }
      if (step === "retry") continue;
      let failure: string | null = null;
      const publish = async (commit: string): Promise<PublishOutcome> => {
        if (failure !== null) return "unpublished"; // the mutation re-ran after a local race: no second try
        try {
          return (await sync.push(remote, commit, { batch: true, timeoutMs: Math.max(left(), 1_000) })) === "ok"
            ? "published"
            : "rejected";
        } catch (e) {
          if (!(e instanceof PantheonError)) throw e;
          failure = e.message;
          return "unpublished";
        }
      };
      const r = await store.mutate(fn, { publish });
      if (r.published === "rejected") {
        await sleep(Math.min(syncBackoffMs(attempt, ctx.ids.random), left()));
        continue;
      }
      if (r.commit === null) {
        // Nothing of its own to publish; what the fetch merged in goes out too, if it can.
        if (step.push)
          await sync
            .push(remote, step.push, { batch: true, timeoutMs: Math.max(left(), 1_000) })
            .then((p) => (p === "ok" ? sync.recordSynced(remote, step.push!) : undefined))
            .catch(() => undefined);
        return r;
      }
      if (r.published === "published") {
        await sync.recordSynced(remote, r.commit);
        // Another command of this clone moved the ref between the push and the swap: the remote
        // has this commit and this clone not yet; one more step brings it in.
        if (r.landed === false) await bringIn(ctx, store, sync, remote, state, net);
        return r;
      }
      ctx.warn(`not published yet (${failure ?? "the push failed"}): pantheon sync`);
      return r;
    }
  } finally {
    lock.release();
    // The remote refused refs/coordination/main for its name and the state moved to a branch: said.
    for (const c of sync.remoteRefChanges()) for (const line of remoteRefChangeLines(c)) ctx.warn(line);
  }
}

async function bringIn(
  ctx: Context,
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
