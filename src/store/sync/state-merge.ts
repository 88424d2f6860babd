import { CorruptRecordError } from "../../errors.js";
import {
  CORRUPT,
  isRecord,
  mergeState,
  type MergeOutput,
  type Side,
  type Touched,
} from "../../domain/merge/merge-state.js";
import type { Review } from "../../domain/schemas/review.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Kind } from "../../domain/merge/renumber.js";
import type { Counters } from "../../domain/schemas/counters.js";
import { canonicalJson } from "../state/canonical-json.js";
import { COUNTERS_PATH, parseRecordFile, recordPath, RECORD_KINDS, type RecordKind } from "../state/layout.js";
import type { ObjectDb } from "../git/object-db.js";
import { encodeRecord } from "../state/record-tx.js";
import { loadSchemas } from "../state/schema-loader.js";
import type { Snapshot } from "../store.js";
import { localChanges } from "../git/tree-diff.js";
import type { TreeEdits } from "../git/tree-edit.js";

export interface StateMergeResult {
  /** Changes to apply over the REMOTE tree (the local side's blobs by id: they are stored already). */
  changes: TreeEdits;
  output: MergeOutput;
  /** Non-record paths changed on both sides, where the published version was kept. */
  keptRemote: string[];
}

async function side<K extends RecordKind>(snap: Snapshot, kind: K, n: number, present: boolean): Promise<Side<never>> {
  if (!present) return null;
  try {
    return ((await snap.get(kind, n)) ?? null) as never;
  } catch (e) {
    if (e instanceof CorruptRecordError) return CORRUPT;
    throw e;
  }
}

/**
 * The published tasks of reviews changed on both sides whose task this clone did not change: a
 * review decided differently on both keeps the losing verdict in its task's notes
 * (merge-followups.ts), so the merge needs that task even though only the review was touched.
 */
async function reviewedTasks(touched: { [K in Kind]: Touched<never>[] }, remote: Snapshot): Promise<Map<number, Task>> {
  const changedHere = new Set(touched.tasks.map((t) => t.number));
  const out = new Map<number, Task>();
  for (const t of touched.reviews as Touched<Review>[]) {
    if (!t.remoteChanged || !isRecord(t.local) || !isRecord(t.remote)) continue;
    const n = t.remote.task;
    if (n === null || changedHere.has(n) || out.has(n)) continue;
    const task = await side(remote, "tasks", n, true);
    if (isRecord(task)) out.set(n, task as Task);
  }
  return out;
}

/**
 * The store's half of a sync merge: diff the trees (only local changes are opened), read the
 * records those paths hold on each side, let the domain merge them, and turn its decisions into
 * tree changes over the published state.
 */
export async function mergeTrees(
  db: ObjectDb,
  trees: { base: string | null; local: string; remote: string },
  snaps: { base: Snapshot | null; local: Snapshot; remote: Snapshot },
  remoteName: string,
  o: { renumberAll?: boolean } = {},
): Promise<StateMergeResult> {
  const changed = await localChanges(db, trees.base, trees.local, trees.remote);
  const touched: { [K in Kind]: Touched<never>[] } = { tasks: [], epics: [], missions: [], reviews: [] };
  const changes: TreeEdits = new Map();
  const keptRemote: string[] = [];
  const localBlobs = new Map<string, string>();
  for (const c of changed) {
    const m = /^(tasks|epics|missions|reviews)\/(\d\d)\/([^/]+)$/.exec(c.path);
    const n = m ? parseRecordFile(m[2]!, m[3]!) : null;
    if (m && n !== null) {
      const kind = m[1] as RecordKind;
      localBlobs.set(recordPath(kind, n), c.local ?? "");
      touched[kind].push({
        number: n,
        base: snaps.base ? await side(snaps.base, kind, n, c.base !== null) : null,
        local: await side(snaps.local, kind, n, c.local !== null),
        remote: await side(snaps.remote, kind, n, c.remote !== null),
        remoteChanged: c.remote !== c.base,
      });
      continue;
    }
    if (c.path === COUNTERS_PATH) continue; // the domain takes the maximum per kind
    if (c.local === c.remote) continue; // the same change on both sides (two clones' identical migrations)
    // project.json, personas, unknown entries: one-sided changes are taken; on both sides the
    // published version stays (and is reported).
    if (c.remote !== c.base) keptRemote.push(c.path);
    else changes.set(c.path, c.local === null ? null : (await db.read(c.local)).content);
  }
  const counters = async (s: Snapshot): Promise<Counters> =>
    s.counters().catch(() => ({ tasks: 0, epics: 0, missions: 0, reviews: 0 }));
  const schemas = await loadSchemas();
  const output = mergeState({
    touched,
    counters: { local: await counters(snaps.local), remote: await counters(snaps.remote) },
    remote: remoteName,
    renumberAll: Boolean(o.renumberAll),
    published: { tasks: await reviewedTasks(touched, snaps.remote) },
  });
  for (const kind of RECORD_KINDS) {
    for (const w of output.writes[kind]) {
      const path = recordPath(kind, w.number);
      if ("value" in w) changes.set(path, encodeRecord(schemas, kind, w.value as never));
      else if ("delete" in w) changes.set(path, null);
      // The local record, read above (side()): carried by id, not stored a second time.
      else changes.set(path, { blob: localBlobs.get(path)! });
    }
  }
  changes.set(COUNTERS_PATH, Buffer.from(canonicalJson(output.counters)));
  return { changes, output, keptRemote };
}
