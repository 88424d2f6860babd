import type { ObjectDb } from "../git/object-db.js";
import { changedBlobs } from "../git/tree-diff.js";
import type { RecordChange } from "../store.js";
import { parseRecordFile, type RecordKind } from "./layout.js";

const RECORD = /^(tasks|epics|missions|reviews)\/(\d\d)\/([^/]+)$/;

/**
 * The records tree `from` holds that tree `to` lacks or holds in another version, diffed
 * top-down by tree id (only the shards that differ are opened). What a remote lost, what a
 * replay dropped, what a lost tip would bring back: each is such a difference, seen from the
 * side that has the records. Records `from` lacks are not listed.
 */
export async function recordChanges(db: ObjectDb, from: string, to: string | null): Promise<RecordChange[]> {
  // Each diff names blobs by their id on its second side: from's ids, then to's.
  const mine = await changedBlobs(db, to, from);
  const theirs = new Map((await changedBlobs(db, from, to)).map((c) => [c.path, c.oid]));
  const out: RecordChange[] = [];
  for (const { path, oid } of mine) {
    const m = RECORD.exec(path);
    const n = m ? parseRecordFile(m[2]!, m[3]!) : null;
    if (!m || n === null || oid === null) continue;
    out.push({ kind: m[1] as RecordKind, n, whole: (theirs.get(path) ?? null) === null });
  }
  return out;
}
