import { epicId, missionId, reviewId, taskId } from "../domain/ids.js";
import type { FieldChange } from "../domain/field-changes.js";
import type { Kind } from "../domain/merge/renumber.js";
import type { MergeOutput } from "../domain/merge/merge-state.js";
import type { Snapshot, Store } from "../store/store.js";
import { addDecisions, noDecisions, type KeptDecisions, type MergeDecisions } from "../domain/sync-decisions.js";

export type { KeptDecisions, MergeDecisions } from "../domain/sync-decisions.js";

export type SyncAction =
  | "equal"
  | "fast-forward"
  | "pushed"
  | "merged"
  | "adopted"
  | "rewrite-accepted"
  | "joined"
  | "nothing";

/** What one `pantheon sync` with one remote did (the `--json` data of kind `sync`). */
export interface SyncReport {
  remote: string;
  action: SyncAction;
  local: string | null;
  remoteTip: string | null;
  received: number;
  sent: number;
  merges: number;
  renumbered: MergeDecisions["renumbered"];
  droppedClaims: MergeDecisions["droppedClaims"];
  conflicts: MergeDecisions["conflicts"];
  cycles: MergeDecisions["cycles"];
  planning: MergeDecisions["planning"];
  keptRemote: string[];
  unreadable: string[];
  refspecAdded: boolean;
  /** The exact fetch refspec of an earlier version (and its old tracking ref) was replaced by the glob. */
  refspecMigrated: boolean;
  attempts: number;
  /** What arrived that Pantheon ignores or cannot read (named, never fatal). */
  problems: string[];
  /** This clone's tip before the sync. */
  before: string | null;
  /** project.json fields this sync brought in (updatedAt left out). */
  projectChanges: FieldChange[];
  /** With --accept-rewrite: how many unpublished commits of this clone were replayed onto the rewritten remote (as one commit). */
  replayed: number;
  /** With --adopt-remote: how many of this clone's records were re-created on the remote's state. */
  joined: number;
  /** What earlier syncs decided that no command had shown yet (their push failed, or they ran under --json): shown now. */
  earlier: KeptDecisions[];
}

export function emptyReport(remote: string): SyncReport {
  return {
    remote,
    action: "nothing",
    local: null,
    remoteTip: null,
    received: 0,
    sent: 0,
    merges: 0,
    renumbered: [],
    droppedClaims: [],
    conflicts: [],
    cycles: [],
    planning: [],
    keptRemote: [],
    unreadable: [],
    refspecAdded: false,
    refspecMigrated: false,
    attempts: 0,
    problems: [],
    before: null,
    projectChanges: [],
    replayed: 0,
    joined: 0,
    earlier: [],
  };
}

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

/**
 * What a merge decided (renumberings, dropped claims, conflicts), in ids as they read at the
 * merge commit; added to the report and returned on its own (the notice kept for it).
 */
export async function describeMerge(
  store: Store,
  commit: string,
  out: MergeOutput,
  report: SyncReport,
  remote: string,
): Promise<MergeDecisions> {
  const snap = await store.snapshotAt(commit);
  const d = noDecisions();
  for (const r of out.renumbered)
    d.renumbered.push({
      kind: r.kind,
      from: await idOf(snap, r.kind, r.to, r.from),
      to: await idOf(snap, r.kind, r.to),
    });
  for (const x of out.droppedClaims) {
    const task = await idOf(snap, "tasks", x.task);
    const who = x.remote ? `${x.remote} claimed it first on ${remote}` : `${remote} changed it first`;
    d.droppedClaims.push({
      task,
      yours: x.local,
      winner: x.remote,
      message: `${task}: your claim by ${x.local} was dropped; ${who}`,
    });
  }
  for (const c of out.conflicts) d.conflicts.push({ record: await idOf(snap, c.kind, c.number), fields: c.fields });
  for (const u of out.unreadable) report.unreadable.push(`${u.kind}/${u.number}`);
  addDecisions(report, d);
  return d;
}
