import { NoMergeBaseError } from "../../errors.js";
import { DIRECTOR } from "../../domain/actor.js";
import type { StateSync, Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { afterLanding } from "./merge-aftermath.js";
import { commitActor } from "../kernel/resolve-actor.js";
import type { SyncReport } from "./sync-report.js";

/** A remote that rewrote its history (DESIGN §3.2): how it is recognised, and `--accept-rewrite`. */

const short = (oid: string) => oid.slice(0, 12);

/**
 * The last synced tip when the remote's new tip no longer contains it (a rewrite), else null.
 * A plain `git fetch` may have moved the tracking ref, so the judge is the tip kept by sync.
 */
export async function rewrittenFrom(
  sync: StateSync,
  remote: string,
  local: string,
  remoteTip: string,
  relation: string,
): Promise<string | null> {
  const synced = await sync.syncedTip(remote);
  if (!synced || synced === remoteTip) return null;
  // Usually this clone is still at the tip it last synced: the relation already answers.
  if (synced === local) return relation === "ahead" || relation === "diverged" ? synced : null;
  // null (git cannot tell: the commit is gone from this clone) judges nothing.
  return (await sync.contains(synced, remoteTip)) === false ? synced : null;
}

/**
 * `--accept-rewrite`: ONE commit on the remote's tip carrying what this clone changed since the
 * last synced tip (a three-way merge with that tip as base), so what the remote purged stays
 * purged and the old history is no longer reachable from the state ref. Returns null when a
 * local command moved the ref meanwhile (the caller redoes the attempt).
 */
export async function replayOnto(
  ctx: Context<unknown>,
  store: Store,
  sync: StateSync,
  report: SyncReport,
  remote: string,
  synced: string,
  local: string,
  remoteTip: string,
  kept: string[],
): Promise<string | null> {
  const base = (await sync.contains(synced, local)) ? synced : await sync.mergeBase(synced, local);
  if (!base)
    throw new NoMergeBaseError(
      `This clone's state no longer contains ${short(synced)}, the last tip it synced with ${remote}, so its unpublished commits cannot be told apart; nothing was changed`,
      "pantheon doctor",
      { remote },
    );
  if (base === local) {
    // Nothing unpublished here: the remote's state is taken as it is.
    if (!(await sync.advance(local, remoteTip))) return null;
    await sync.recordSynced(remote, remoteTip);
    report.replayed = 0;
    report.received += await sync.changedRecords(local, remoteTip);
    report.local = remoteTip;
    return remoteTip;
  }
  const replayed = await sync.countCommits(base, local);
  const info = {
    summary: `sync accept-rewrite of ${remote}: ${replayed} unpublished commit${replayed === 1 ? "" : "s"} replayed`,
    op: "sync.accept-rewrite",
    ...commitActor(DIRECTOR),
    actor: "sync",
  };
  const r = await sync.replay(base, local, remoteTip, remote, info);
  if (!(await sync.advance(local, r.commit))) return null;
  await sync.recordSynced(remote, remoteTip);
  report.replayed = replayed;
  report.received += await sync.changedRecords(local, r.commit);
  report.sent += await sync.changedRecords(base, local);
  report.keptRemote.push(...r.keptRemote);
  const notice = await afterLanding(ctx, store, report, remote, r, remoteTip);
  if (notice) kept.push(notice);
  report.local = r.commit;
  return r.commit;
}
