import { NoMergeBaseError, RemoteRewrittenError, RepositoryError, SyncError } from "../errors.js";
import { DIRECTOR } from "../domain/actor.js";
import type { StateSync, Store, SyncLock } from "../store/store.js";
import type { Context } from "./context.js";
import { commitActor } from "./resolve-actor.js";
import { describeMerge, emptyReport, type SyncAction, type SyncReport } from "./sync-report.js";
import { replayOnto, rewrittenFrom } from "./sync-rewrite.js";

export type { SyncAction, SyncReport } from "./sync-report.js";

const MAX_ATTEMPTS = 6;
const short = (oid: string) => oid.slice(0, 12);

/**
 * Brings this clone and one remote to the same state (DESIGN §3.2): fetch, classify, then
 * fast-forward, push, or merge and push; a push rejected because the remote moved is retried
 * with a fresh fetch. Refuses (exit 3, nothing changed) when the two states share no history
 * this clone can see, or when the remote rewrote its history since this clone last synced
 * with it, unless `acceptRewrite`. One sync at a time per clone (the sync lock).
 */
export async function syncWith(ctx: Context, remote: string, o: { acceptRewrite?: boolean } = {}): Promise<SyncReport> {
  const store = await ctx.store();
  const sync = await store.sync();
  const lock = await sync.lock();
  try {
    return await syncLocked(ctx, store, sync, lock, remote, Boolean(o.acceptRewrite));
  } finally {
    lock.release();
  }
}

async function syncLocked(ctx: Context, store: Store, sync: StateSync, lock: SyncLock, remote: string, acceptRewrite: boolean): Promise<SyncReport> {
  const report = emptyReport(remote);
  const refspec = await sync.migrateRefspec(remote);
  report.refspecMigrated = refspec.migrated;
  const finish = async (action: SyncAction): Promise<SyncReport> => {
    report.action = action;
    if (report.remoteTip && action !== "pushed" && action !== "equal") report.problems = await sync.inspect(report.before, report.remoteTip);
    if (report.before && report.local && report.before !== report.local && action !== "pushed") report.projectChanges = await sync.projectChanges(report.before, report.local);
    report.refspecAdded = !refspec.configured && (await sync.ensureFetchRefspec(remote));
    return report;
  };
  let accepted = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    lock.touch();
    report.attempts = attempt;
    const remoteTip = await sync.fetch(remote);
    const localTip = await store.tip();
    if (attempt === 1) report.before = localTip;
    report.remoteTip = remoteTip;
    report.local = localTip;
    if (!remoteTip && !localTip) throw new RepositoryError("E_NOT_INITIALIZED", `Neither this clone nor ${remote} has Pantheon state`, "pantheon init");
    if (!remoteTip) {
      const sent = await sync.changedRecords(null, localTip!);
      if ((await sync.push(remote, localTip!)) === "rejected") continue;
      report.sent += sent;
      await sync.recordSynced(remote, localTip!);
      return finish("pushed");
    }
    // A state written by a newer Pantheon is neither adopted, fast-forwarded nor merged into.
    await sync.checkVersion(remoteTip);
    if (!localTip) {
      if (!(await sync.advance(null, remoteTip))) continue;
      await sync.recordSynced(remote, remoteTip);
      report.received = await sync.changedRecords(null, remoteTip);
      report.local = remoteTip;
      return finish("adopted");
    }
    await sync.requireHistory(remote, [localTip, remoteTip]);
    const relation = await sync.relation(localTip, remoteTip);
    const synced = await rewrittenFrom(sync, remote, localTip, remoteTip, relation);
    if (synced) {
      if (!acceptRewrite) {
        const unpublished = await sync.countCommits(synced, localTip);
        throw new RemoteRewrittenError(
          `${remote} rewrote the state's history: its tip ${short(remoteTip)} no longer contains ${short(synced)}, the last tip this clone synced with it; nothing was merged or pushed`,
          `pantheon sync ${remote} --accept-rewrite takes ${remote}'s state and replays only this clone's ${unpublished} unpublished commit${unpublished === 1 ? "" : "s"} onto it`,
          { remote, remoteTip, syncedTip: synced, unpublished },
        );
      }
      const commit = await replayOnto(store, sync, report, remote, synced, localTip, remoteTip);
      if (!commit) continue;
      accepted = true;
      if ((await sync.push(remote, commit)) === "rejected") continue;
      await sync.recordSynced(remote, commit);
      report.remoteTip = commit;
      return finish("rewrite-accepted");
    }
    // After a rejected push the next attempt may find the remote equal, behind or ahead: the
    // action still names the merge (or replay) this sync made.
    const done = (a: SyncAction): SyncAction => (accepted ? "rewrite-accepted" : report.merges > 0 ? "merged" : a);
    if (relation === "equal") {
      await sync.recordSynced(remote, remoteTip);
      return finish(done("equal"));
    }
    if (relation === "behind") {
      if (!(await sync.advance(localTip, remoteTip))) continue;
      await sync.recordSynced(remote, remoteTip);
      report.received += await sync.changedRecords(localTip, remoteTip);
      report.local = remoteTip;
      return finish(done("fast-forward"));
    }
    if (relation === "ahead") {
      const sent = await sync.changedRecords(remoteTip, localTip);
      if ((await sync.push(remote, localTip)) === "rejected") continue;
      await sync.recordSynced(remote, localTip);
      report.sent += sent;
      return finish(done("pushed"));
    }
    const base = await sync.mergeBase(localTip, remoteTip);
    if (!base) {
      // Merging with no base would take every record as changed on both sides: the remote's
      // version would win everywhere and this clone's work would be reverted (and pushed).
      throw new NoMergeBaseError(
        `${remote}'s state and this clone's share no history (unrelated histories: each was started on its own); nothing was merged or pushed`,
        `this clone's state is untouched; compare git log refs/coordination/main with git log refs/coordination/remotes/${remote}/main, and see pantheon doctor`,
        { remote, local: localTip, remoteTip },
      );
    }
    const info = { summary: `sync merge with ${remote}`, op: "sync.merge", ...commitActor(DIRECTOR), actor: "sync" };
    const merged = await sync.merge(base, localTip, remoteTip, remote, info);
    if (!(await sync.advance(localTip, merged.commit))) continue; // a local command landed meanwhile: redo
    for (const notice of merged.notices) ctx.warn(notice);
    await sync.recordSynced(remote, remoteTip);
    report.merges += 1;
    // What each side brought since they parted: the remote's changes in, ours out.
    report.received += await sync.changedRecords(base, remoteTip);
    report.sent += await sync.changedRecords(base, localTip);
    report.keptRemote.push(...merged.keptRemote);
    await describeMerge(store, merged.commit, merged.output, report, remote);
    report.local = merged.commit;
    if ((await sync.push(remote, merged.commit)) === "rejected") continue;
    await sync.recordSynced(remote, merged.commit);
    report.remoteTip = merged.commit;
    return finish(done("merged"));
  }
  throw new SyncError(`${remote} kept changing; gave up after ${MAX_ATTEMPTS} attempts (the local state is valid and includes every merge so far)`, `run pantheon sync ${remote} again`, { report });
}
