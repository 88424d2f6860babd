import type { FieldChange } from "../../domain/field-changes.js";
import type { MergeOutput } from "../../domain/merge/merge-state.js";
import type { Store } from "../../store/store.js";
import { idOf, type RecordRef } from "../kernel/record-ids.js";
import { reviewId } from "../../domain/ids.js";
import { describeValue } from "../../domain/merge/conflict-notes.js";
import { addDecisions, noDecisions, type KeptDecisions, type MergeDecisions } from "../../domain/sync-decisions.js";
import type { RemoteRefChange } from "../../domain/remote-ref-notice.js";

export type { KeptDecisions, MergeDecisions } from "../../domain/sync-decisions.js";

export type SyncAction =
  | "equal"
  | "fast-forward"
  | "pushed"
  | "merged"
  | "adopted"
  | "rewrite-accepted"
  | "restored"
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
  /** The ref the remote keeps the state on (refs/coordination/main, or git config pantheon.<remote>.remoteRef or pantheon.remoteRef). */
  remoteRef: string;
  /** The state's fetch refspec in the remote's config (what `git fetch` brings). */
  refspec: string;
  /** When this sync moved the remote's state ref (a refusal of the ref's name, or a teammate's move found): what and why. */
  remoteRefChange: RemoteRefChange | null;
  attempts: number;
  /** What arrived that Pantheon ignores or cannot read (named, never fatal). */
  problems: string[];
  /** This clone's tip before the sync. */
  before: string | null;
  /** project.json fields this sync brought in (updatedAt left out). */
  projectChanges: FieldChange[];
  /** With --accept-rewrite: how many unpublished commits of this clone were replayed onto the rewritten remote (as one commit). */
  replayed: number;
  /** With --accept-rewrite: the records (`whole`) or changes this clone had that the remote's rewrite took away, now gone here too. */
  dropped: RecordRef[];
  /** With --restore: the records (`whole`) or changes the remote had lost that this sync published again. */
  restored: RecordRef[];
  /** With --adopt-remote: how many of this clone's records were re-created on the remote's state. */
  joined: number;
  /** What earlier syncs decided that no command had shown yet (their push failed, or they ran under --json): shown now. */
  earlier: KeptDecisions[];
}

export function emptyReport(
  remote: string,
  at: { ref: string; refspec: string } = { ref: "", refspec: "" },
): SyncReport {
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
    remoteRef: at.ref,
    refspec: at.refspec,
    remoteRefChange: null,
    attempts: 0,
    problems: [],
    before: null,
    projectChanges: [],
    replayed: 0,
    dropped: [],
    restored: [],
    joined: 0,
    earlier: [],
  };
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
    const withdrawn = out.withdrawn
      .filter((w) => w.task === x.task && w.requester === x.local)
      .map((w) => reviewId(w.review));
    d.droppedClaims.push({
      task,
      yours: x.local,
      winner: x.remote,
      message: `${task}: your claim by ${x.local} was dropped; ${who}${withdrawn.length > 0 ? `; your review request ${withdrawn.join(", ")} was withdrawn` : ""}`,
    });
  }
  for (const c of out.conflicts) {
    const record = await idOf(snap, c.kind, c.number);
    const notedIn =
      c.noted === null
        ? null
        : c.noted.number === c.number && c.kind === "tasks"
          ? record
          : await idOf(snap, "tasks", c.noted.number);
    d.conflicts.push({
      record,
      fields: c.fields,
      notedIn,
      ...(notedIn === null && { yours: describeValue(c.local, 200) }),
    });
  }
  for (const u of out.unreadable) report.unreadable.push(`${u.kind}/${u.number}`);
  addDecisions(report, d);
  return d;
}
