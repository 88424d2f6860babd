import { RepositoryError, SyncError, UsageError } from "../errors.js";
import { DIRECTOR } from "../domain/actor.js";
import { epicId, missionId, reviewId, taskId } from "../domain/ids.js";
import type { Kind } from "../domain/merge/renumber.js";
import type { MergeOutput } from "../domain/merge/merge-state.js";
import type { Snapshot, StateSync, Store } from "../store/store.js";
import type { Context } from "./context.js";
import { commitActor } from "./resolve-actor.js";

export type SyncAction = "equal" | "fast-forward" | "pushed" | "merged" | "adopted" | "nothing";

export interface SyncReport {
  remote: string;
  action: SyncAction;
  local: string | null;
  remoteTip: string | null;
  received: number;
  sent: number;
  merges: number;
  renumbered: Array<{ kind: Kind; from: string; to: string }>;
  droppedClaims: Array<{ task: string; yours: string; winner: string | null; message: string }>;
  conflicts: Array<{ record: string; fields: string[] }>;
  keptRemote: string[];
  unreadable: string[];
  refspecAdded: boolean;
  attempts: number;
  /** What arrived that Pantheon ignores or cannot read (named, never fatal). */
  problems: string[];
  /** This clone's tip before the sync. */
  before: string | null;
}

const MAX_ATTEMPTS = 6;

/** The id of record `n` of a kind, as it reads at `snap`; `as` gives it another number (a former one). */
async function idOf(snap: Snapshot, kind: Kind, n: number, as = n): Promise<string> {
  if (kind === "missions") return missionId(as);
  if (kind === "reviews") return reviewId(as);
  if (kind === "tasks") {
    const t = await snap.get("tasks", n).catch(() => null);
    return t ? taskId({ ...t, number: as }) : `tasks/${as}`;
  }
  const e = await snap.get("epics", n).catch(() => null);
  return e ? epicId({ ...e, number: as }) : `epics/${as}`;
}

async function describeMerge(store: Store, commit: string, out: MergeOutput, report: SyncReport, remote: string): Promise<void> {
  const snap = await store.snapshotAt(commit);
  for (const r of out.renumbered) report.renumbered.push({ kind: r.kind, from: await idOf(snap, r.kind, r.to, r.from), to: await idOf(snap, r.kind, r.to) });
  for (const d of out.droppedClaims) {
    const task = await idOf(snap, "tasks", d.task);
    const who = d.remote ? `${d.remote} claimed it first on ${remote}` : `${remote} changed it first`;
    report.droppedClaims.push({ task, yours: d.local, winner: d.remote, message: `${task}: your claim by ${d.local} was dropped; ${who}` });
  }
  for (const c of out.conflicts) report.conflicts.push({ record: await idOf(snap, c.kind, c.number), fields: c.fields });
  for (const u of out.unreadable) report.unreadable.push(`${u.kind}/${u.number}`);
}

/**
 * Brings this clone and one remote to the same state (DESIGN §3.2): fetch, classify, then
 * fast-forward, push, or merge and push; a push rejected because the remote moved is retried
 * with a fresh fetch. Exit 3 when it cannot complete; the local state stays valid throughout.
 */
export async function syncWith(ctx: Context, remote: string): Promise<SyncReport> {
  const store = await ctx.store();
  const sync = await store.sync();
  const report: SyncReport = { remote, action: "nothing", local: null, remoteTip: null, received: 0, sent: 0, merges: 0, renumbered: [], droppedClaims: [], conflicts: [], keptRemote: [], unreadable: [], refspecAdded: false, attempts: 0, problems: [], before: null };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    report.attempts = attempt;
    const remoteTip = await sync.fetch(remote);
    const localTip = await store.tip();
    if (attempt === 1) report.before = localTip;
    report.remoteTip = remoteTip;
    report.local = localTip;
    if (!remoteTip && !localTip) throw new RepositoryError("E_NOT_INITIALIZED", `Neither this clone nor ${remote} has Pantheon state`, "pantheon init");
    if (!remoteTip) {
      report.sent += await sync.changedRecords(null, localTip!);
      if ((await sync.push(remote, localTip!)) === "rejected") continue;
      return finish(sync, report, "pushed");
    }
    // A state written by a newer Pantheon is neither adopted, fast-forwarded nor merged into.
    await sync.checkVersion(remoteTip);
    if (!localTip) {
      if (!(await sync.advance(null, remoteTip))) continue;
      report.received = await sync.changedRecords(null, remoteTip);
      report.local = remoteTip;
      return finish(sync, report, "adopted");
    }
    const relation = await sync.relation(localTip, remoteTip);
    if (relation === "equal") return finish(sync, report, report.merges > 0 ? "merged" : "equal");
    if (relation === "behind") {
      if (!(await sync.advance(localTip, remoteTip))) continue;
      report.received += await sync.changedRecords(localTip, remoteTip);
      report.local = remoteTip;
      return finish(sync, report, report.merges > 0 ? "merged" : "fast-forward");
    }
    if (relation === "ahead") {
      const sent = await sync.changedRecords(remoteTip, localTip);
      if ((await sync.push(remote, localTip)) === "rejected") continue;
      report.sent += sent;
      return finish(sync, report, report.merges > 0 ? "merged" : "pushed");
    }
    const info = { summary: `sync merge with ${remote}`, op: "sync.merge", ...commitActor(DIRECTOR), actor: "sync" };
    const merged = await sync.merge(localTip, remoteTip, remote, info);
    if (!(await sync.advance(localTip, merged.commit))) continue; // a local command landed meanwhile: redo
    for (const notice of merged.notices) ctx.warn(notice);
    report.merges += 1;
    // What each side brought since they parted: the remote's changes in, ours out.
    report.received += await sync.changedRecords(merged.base, remoteTip);
    report.sent += await sync.changedRecords(merged.base, localTip);
    report.keptRemote.push(...merged.keptRemote);
    await describeMerge(store, merged.commit, merged.output, report, remote);
    report.local = merged.commit;
    if ((await sync.push(remote, merged.commit)) === "rejected") continue;
    report.remoteTip = merged.commit;
    return finish(sync, report, "merged");
  }
  throw new SyncError(`${remote} kept changing; gave up after ${MAX_ATTEMPTS} attempts (the local state is valid and includes every merge so far)`, `run pantheon sync ${remote} again`, { report });
}

async function finish(sync: StateSync, report: SyncReport, action: SyncAction): Promise<SyncReport> {
  report.action = action;
  if (report.remoteTip && action !== "pushed" && action !== "equal") report.problems = await sync.inspect(report.before, report.remoteTip);
  report.refspecAdded = await sync.ensureFetchRefspec(report.remote);
  return report;
}

/** The remote `sync` uses without an argument: the branch's upstream remote, else origin. */
export async function pickRemotes(ctx: Context, o: { remote?: string; all?: boolean }): Promise<string[]> {
  const sync = await (await ctx.store()).sync();
  const remotes = await sync.remotes();
  if (remotes.length === 0) throw new UsageError("This repository has no remote to sync with", "git remote add origin <url>");
  if (o.all) return remotes;
  if (o.remote !== undefined) {
    if (!remotes.includes(o.remote)) throw new UsageError(`No remote named "${o.remote}" (remotes: ${remotes.join(", ")})`, "git remote -v");
    return [o.remote];
  }
  const picked = await sync.defaultRemote();
  if (!picked) throw new UsageError(`Which remote? This repository has ${remotes.join(", ")} and none is the upstream or origin`, `pantheon sync ${remotes[0]} (or --all)`);
  return [picked];
}
