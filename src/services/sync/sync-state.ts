import { SyncError, UsageError } from "../../errors.js";
import type { StateSync, Store, SyncLock } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { takeNotices } from "./kept-notices.js";
import { remoteRefChangeLines } from "../../domain/remote-ref-notice.js";
import { emptyReport, type SyncAction, type SyncReport } from "./sync-report.js";
import { syncStep, type StepOptions, type StepState } from "./sync-step.js";

export type { SyncAction, SyncReport } from "./sync-report.js";

export interface SyncOptions {
  acceptRewrite?: boolean;
  /** After the remote rewrote or rewound its history: publish what it lost again (this clone's state merged with the remote's). */
  restore?: boolean;
  adoptRemote?: boolean;
}

/**
 * How long a sync keeps trying while the remote keeps moving (DESIGN §3.2: at least 30 s).
 * Giving up saves nothing: the next sync starts over. Measured with 8 clones syncing after every
 * create on 2 loaded cores, the unluckiest sync needed 40-115 s.
 */
export const SYNC_BUDGET_MS = 180_000;

export function syncBudget(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PANTHEON_SYNC_BUDGET_MS);
  return env.PANTHEON_SYNC_BUDGET_MS !== undefined && env.PANTHEON_SYNC_BUDGET_MS !== "" && Number.isFinite(v) && v >= 0
    ? v
    : SYNC_BUDGET_MS;
}

/** Refuses (exit 2) options that contradict each other, before any remote is asked. */
export function checkSyncOptions(o: SyncOptions): void {
  if (o.restore && o.acceptRewrite)
    throw new UsageError(
      "--restore and --accept-rewrite are the two opposite answers to a rewritten remote: choose one",
      "pantheon sync (without either) says what each would do",
    );
}

/** How long a sync may wait before it stops making way for newer ones (see syncBackoffMs). */
export const SYNC_PATIENCE_MS = 10_000;

/**
 * Full jitter: syncs that lost the same race spread out instead of fetching and pushing in
 * lockstep again. A round trip costs tens of milliseconds to seconds, so the ceiling grows to
 * two seconds. A sync that has already waited SYNC_PATIENCE_MS retries almost at once: while
 * it slept, syncs that started later (a winner's next one) went first, and a busy remote then
 * starves the oldest (measured: 8 clones syncing after every create on 2 cores, one sync took
 * 50-60 attempts and over 60 s).
 */
export function syncBackoffMs(attempt: number, random: () => number, waitedMs = 0): number {
  const ceiling = waitedMs >= SYNC_PATIENCE_MS ? 100 : Math.min(2_000, 50 * 2 ** Math.min(attempt, 6));
  return 10 + Math.floor(random() * ceiling);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Brings this clone and one remote to the same state (DESIGN §3.2): fetch, classify, then
 * fast-forward, push, or merge and push; a push rejected because the remote moved is retried
 * with a fresh fetch, with jittered backoff, within a time budget. Refuses (exit 3, nothing
 * changed) when the two states share no history this clone can see (unless `adoptRemote`),
 * or when the remote rewrote its history since this clone last synced with it (unless
 * `acceptRewrite` or `restore`). One sync at a time per clone (the sync lock).
 */
export async function syncWith(ctx: Context, remote: string, o: SyncOptions = {}): Promise<SyncReport> {
  checkSyncOptions(o);
  const store = await ctx.store();
  const sync = await store.sync();
  const lock = await sync.lock();
  try {
    return await syncLocked(ctx, store, sync, lock, remote, o);
  } finally {
    lock.release();
    // A sync that failed after moving the remote's state ref (recorded in git config) still says so.
    for (const c of sync.remoteRefChanges()) for (const line of remoteRefChangeLines(c)) ctx.warn(line);
  }
}

async function syncLocked(
  ctx: Context,
  store: Store,
  sync: StateSync,
  lock: SyncLock,
  remote: string,
  o: SyncOptions,
): Promise<SyncReport> {
  // An unusable git config pantheon.<remote>.remoteRef (or pantheon.remoteRef) is refused here (exit 2), before anything moves.
  const report = emptyReport(remote, await sync.remoteRef(remote));
  const refspec = await sync.migrateRefspec(remote);
  report.refspecMigrated = refspec.migrated;
  const finish = async (action: SyncAction): Promise<SyncReport> => {
    report.action = action;
    if (report.remoteTip && action !== "pushed" && action !== "equal")
      report.problems = await sync.inspect(report.before, report.remoteTip);
    if (report.before && report.local && report.before !== report.local && action !== "pushed")
      report.projectChanges = await sync.projectChanges(report.before, report.local);
    report.refspecAdded = refspec.replaced || (!refspec.configured && (await sync.ensureFetchRefspec(remote)));
    const moved = sync.remoteRefChanges();
    if (moved.length > 0) {
      report.remoteRefChange = moved.at(-1)!;
      const now = await sync.remoteRef(remote);
      report.remoteRef = now.ref;
      report.refspec = now.refspec;
    }
    // This report shows what this sync decided; what earlier ones decided and nobody saw yet
    // (a push that failed after its merge landed) comes with it, once.
    const taken = await takeNotices(store, state.kept);
    report.earlier = taken.earlier;
    return report;
  };
  const state: StepState = { accepted: false, kept: [] };
  const step: StepOptions = {
    acceptRewrite: Boolean(o.acceptRewrite),
    restore: Boolean(o.restore),
    adoptRemote: Boolean(o.adoptRemote),
  };
  const budget = syncBudget(ctx.env);
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    lock.touch();
    report.attempts = attempt;
    const r = await syncStep(ctx, store, sync, remote, report, state, step);
    if (r !== "retry") {
      if (r.push === null) return finish(r.action);
      if ((await sync.push(remote, r.push)) === "ok") {
        await sync.recordSynced(remote, r.push);
        // A merge counted what it sent when it landed; a plain push counts it now.
        report.sent += r.sends ?? 0;
        report.remoteTip = r.push;
        return finish(r.action);
      }
    }
    const elapsed = Date.now() - started;
    if (elapsed >= budget) {
      throw new SyncError(
        `${remote} kept changing; gave up after ${attempt} attempts in ${Math.round(elapsed / 1000)} s (the local state is valid and includes every merge so far)`,
        `run pantheon sync ${remote} again`,
        { report },
      );
    }
    // A local command that moved the ref needs no backoff, nor a new fetch: the merge is made
    // again with the remote's tip just fetched. A push that lost to another clone backs off.
    if (r === "retry") state.fetched = report.remoteTip;
    else await sleep(Math.min(syncBackoffMs(attempt, ctx.ids.random, elapsed), Math.max(0, budget - elapsed)));
  }
}
