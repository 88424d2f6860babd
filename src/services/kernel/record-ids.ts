import { epicId, missionId, reviewId, taskId } from "../../domain/ids.js";
import type { Kind } from "../../domain/merge/renumber.js";
import type { RecordChange, Snapshot } from "../../store/store.js";

/** The id of record `n` of a kind, as it reads at `snap`; `as` gives it another number (a former one). */
export async function idOf(snap: Snapshot, kind: Kind, n: number, as = n): Promise<string> {
  if (kind === "missions") return missionId(as);
  if (kind === "reviews") return reviewId(as);
  if (kind === "tasks") {
    const t = await snap.get("tasks", n).catch(() => null);
    return t ? taskId({ ...t, number: as }) : `tasks/${as}`;
  }
  const e = await snap.get("epics", n).catch(() => null);
  return e ? epicId({ ...e, number: as }) : `epics/${as}`;
}

/** A record a sync or a recovery would lose or bring back, by id: `whole` when the other side lacks it altogether. */
export interface RecordRef {
  record: string;
  kind: Kind;
  whole: boolean;
}

const ORDER: Kind[] = ["tasks", "epics", "missions", "reviews"];

/** The changes as ids read at `snap` (the side that holds the records), in kind then number order. */
export async function recordRefs(snap: Snapshot, changes: readonly RecordChange[]): Promise<RecordRef[]> {
  const sorted = [...changes].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.n - b.n);
  const out: RecordRef[] = [];
  for (const c of sorted) out.push({ record: await idOf(snap, c.kind, c.n), kind: c.kind, whole: c.whole });
  return out;
}

/**
 * A list of records for a one-line message, every one by id up to `max` (`ENG-H-0003`, or
 * `ENG-M-0001 (changes)` when the other side has the record in another version), then "and N more".
 */
export function listRecords(refs: readonly RecordRef[], max = 12): string {
  const shown = refs.slice(0, max).map((r) => (r.whole ? r.record : `${r.record} (changes)`));
  return refs.length > max ? `${shown.join(", ")} and ${refs.length - max} more` : shown.join(", ");
}

/** "1 record", "3 records". */
export const records = (n: number) => `${n} record${n === 1 ? "" : "s"}`;
