import { NoMergeBaseError, RepositoryError, SyncError } from "../../errors.js";
import { DIRECTOR } from "../../domain/actor.js";
import type { NetOptions, StateSync, Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { afterLanding } from "./merge-aftermath.js";
import { refuseLostRef } from "./lost-ref.js";
import { commitActor } from "../kernel/resolve-actor.js";
import type { SyncAction, SyncReport } from "./sync-report.js";
import { droppedRecords, remoteLosses, rewriteRefusal } from "./remote-losses.js";
import { replayOnto, rewrittenFrom } from "./sync-rewrite.js";

const short = (oid: string) => oid.slice(0, 12);

export interface StepOptions {
  acceptRewrite?: boolean;
  /** After the remote rewrote (or rewound) its history: publish this clone's state again, merged with the remote's. */
  restore?: boolean;
  adoptRemote?: boolean;
  /** For publishing (DESIGN §3.5): never prompt, give up after a while. */
  net?: NetOptions;
}

/**
 * One attempt of a sync, up to what this clone's ref holds: fetch, classify, then
 * fast-forward, merge, replay or join locally. `push` is what the remote still lacks (null:
 * nothing); "retry" when a local command moved the ref meanwhile. A sync pushes `push`; a
 * publishing command pushes its own commit on top of it instead.
 */
export type Step =
  | {
      action: SyncAction;
      push: string | null /** Records the push sends that the report has not counted yet. */;
      sends?: number;
    }
  | "retry";

export interface StepState {
  /** Set once a replay (--accept-rewrite) landed: later attempts still name it. */
  accepted: boolean;
  /** Set once --restore found the rewrite it undoes: later attempts still name it. */
  restoring?: boolean;
  /** Notices kept by merges this sync landed (shown by its own report). */
  kept: string[];
  /**
   * The remote's tip the last attempt fetched, when that attempt gave up only because a command
   * of this clone moved the ref: the next attempt merges with it again without a round trip.
   */
  fetched?: string | null;
}

export async function syncStep(
  ctx: Context<unknown>,
  store: Store,
  sync: StateSync,
  remote: string,
  report: SyncReport,
  state: StepState,
  o: StepOptions,
): Promise<Step> {
  // A clone that lost its ref says so before anything is fetched, adopted or pushed.
  if (!(await store.tip())) await refuseLostRef(store);
  const remoteTip = state.fetched !== undefined ? state.fetched : await sync.fetch(remote, o.net);
  delete state.fetched;
  const localTip = await store.tip();
  if (report.attempts === 1) report.before = localTip;
  report.remoteTip = remoteTip;
  report.local = localTip;
  if (!remoteTip && !localTip)
    throw new RepositoryError(
      "E_NOT_INITIALIZED",
      `Neither this clone nor ${remote} has Pantheon state`,
      "pantheon init",
    );
  if (!remoteTip)
    return { action: "pushed", push: localTip, sends: o.net ? 0 : await sync.changedRecords(null, localTip!) };
  // A state written by a newer Pantheon is neither adopted, fast-forwarded nor merged into.
  await sync.checkVersion(remoteTip);
  if (!localTip) {
    // Never half-adopted: every object of the state must be here before the ref names it.
    await requireComplete(sync, remote, remoteTip);
    if (!(await sync.advance(null, remoteTip))) return "retry";
    await sync.recordSynced(remote, remoteTip);
    report.received = await sync.changedRecords(null, remoteTip);
    report.local = remoteTip;
    return { action: "adopted", push: null };
  }
  await sync.requireHistory(remote, [localTip, remoteTip]);
  const relation = await sync.relation(localTip, remoteTip);
  const synced = await rewrittenFrom(sync, remote, localTip, remoteTip, relation);
  if (synced) {
    const losses = await remoteLosses(store, sync, synced, remoteTip);
    if (o.restore) {
      // Undone by the ordinary cases below: this clone's state is pushed over the remote's tip
      // (a rewind: a fast-forward of it) or merged with what is new there, then pushed.
      report.restored = losses.refs;
      state.restoring = true;
    } else if (o.acceptRewrite) {
      const landed = await replayOnto(ctx, store, sync, report, remote, synced, localTip, remoteTip, state.kept);
      if (!landed) return "retry";
      state.accepted = true;
      report.dropped = await droppedRecords(store, sync, localTip, landed, losses);
      // What differs and was not dropped is what the remote has that this clone did not.
      report.received = Math.max(0, report.received - report.dropped.length);
      return { action: "rewrite-accepted", push: landed === remoteTip ? null : landed };
    } else throw await rewriteRefusal(sync, remote, synced, localTip, remoteTip, losses);
  }
  // After a rejected push the next attempt may find the remote equal, behind or ahead: the
  // action still names the merge (or replay, restore, join) this sync made.
  const named = (a: SyncAction): SyncAction =>
    state.accepted
      ? "rewrite-accepted"
      : state.restoring
        ? "restored"
        : report.joined > 0
          ? "joined"
          : report.merges > 0
            ? "merged"
            : a;
  if (relation === "equal") {
    await sync.recordSynced(remote, remoteTip);
    return { action: named("equal"), push: null };
  }
  if (relation === "behind") {
    if (!(await sync.advance(localTip, remoteTip))) return "retry";
    await sync.recordSynced(remote, remoteTip);
    report.received += await sync.changedRecords(localTip, remoteTip);
    report.local = remoteTip;
    return { action: named("fast-forward"), push: null };
  }
  if (relation === "ahead")
    return {
      action: named("pushed"),
      push: localTip,
      sends: o.net ? 0 : await sync.changedRecords(remoteTip, localTip),
    };
  const base = await sync.mergeBase(localTip, remoteTip);
  if (!base && !o.adoptRemote) {
    // Merging with no base would take every record as changed on both sides: the remote's
    // version would win everywhere and this clone's work would be reverted (and pushed).
    throw new NoMergeBaseError(
      `${remote}'s state and this clone's share no history (unrelated histories: each was started on its own); nothing was merged or pushed`,
      `pantheon sync ${remote} --adopt-remote keeps ${remote}'s state and re-creates this clone's records on it (renumbered, one commit); to compare first: git log refs/coordination/main and git log refs/coordination/remotes/${remote}/main`,
      { remote, local: localTip, remoteTip },
    );
  }
  const summary = base
    ? `sync merge with ${remote}`
    : `sync adopt-remote of ${remote}: this clone's records re-created on its state`;
  const info = { summary, op: base ? "sync.merge" : "sync.adopt-remote", ...commitActor(DIRECTOR), actor: "sync" };
  const merged = base
    ? await sync.merge(base, localTip, remoteTip, remote, info)
    : await sync.join(localTip, remoteTip, remote, info);
  if (!(await sync.advance(localTip, merged.commit))) return "retry"; // a local command landed meanwhile: redo
  for (const notice of merged.notices) ctx.warn(notice);
  await sync.recordSynced(remote, remoteTip);
  if (base) {
    report.merges += 1;
    // What each side brought since they parted: the remote's changes in, ours out.
    report.received += await sync.changedRecords(base, remoteTip);
    report.sent += await sync.changedRecords(base, localTip);
  } else {
    report.joined += merged.output.renumbered.length;
    report.received += await sync.changedRecords(localTip, merged.commit);
    report.sent += await sync.changedRecords(remoteTip, merged.commit);
  }
  report.keptRemote.push(...merged.keptRemote);
  const kept = await afterLanding(ctx, store, report, remote, merged, remoteTip);
  if (kept) state.kept.push(kept);
  report.local = merged.commit;
  return { action: named(base ? "merged" : "joined"), push: merged.commit };
}

/** Refuses (exit 3, nothing changed) to adopt a state whose objects this clone does not all hold. */
async function requireComplete(sync: StateSync, remote: string, tip: string): Promise<void> {
  if (await sync.complete(tip)) return;
  throw new SyncError(
    `${remote}'s state arrived incomplete (objects of ${short(tip)} are missing in this clone, as a partial clone leaves them); nothing was adopted`,
    `git fetch --refetch --no-filter ${remote} ${(await sync.remoteRef(remote)).ref}, then pantheon sync ${remote}`,
    { remote, tip },
  );
}
