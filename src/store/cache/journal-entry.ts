import type { Task } from "../../domain/schemas/task.js";
import { toTaskSummary } from "../../domain/task-summary.js";
import type { JournalEntry } from "./cache-journal.js";
import { logItem } from "../state/commit-log.js";
import { PROJECT_PATH, RECORD_KINDS, type RecordKind } from "../state/layout.js";
import type { ObjectDb } from "../git/object-db.js";
import type { Schemas } from "../state/record-schemas.js";
import { decodeRecord } from "../state/record-snapshot.js";
import type { TreeChanges } from "../git/tree-edit.js";
import { listTree } from "../git/tree-edit.js";
import { isTreeMode, type TreeEntry } from "../git/tree-entry.js";

/** Past this many changed records (an import) a journal line is not worth its size: reads refresh from git. */
const MAX_JOURNALED_RECORDS = 200;

const RECORD = /^(tasks|epics|missions|reviews)\/(\d\d)\/([1-9]\d*)\.json$/;

/**
 * The journal line for a commit this process just made: its changed records decoded into cache
 * rows, and the new tree ids of the shards they live in. Every object read here was written or
 * read moments ago, so none comes from disk. Null when the commit is not worth journaling.
 */
export async function journalEntryFor(
  db: ObjectDb,
  parent: string,
  commit: string,
  changes: TreeChanges,
  schemas: Schemas,
): Promise<JournalEntry | null> {
  const byKind = new Map<RecordKind, Array<{ shard: string; n: number; path: string; bytes: Buffer | null }>>();
  for (const [path, bytes] of changes) {
    const m = RECORD.exec(path);
    if (!m) continue; // project, counters, personas: not part of a kind's cache
    const kind = m[1] as RecordKind;
    const list = byKind.get(kind) ?? [];
    list.push({ shard: m[2]!, n: Number(m[3]), path, bytes });
    byKind.set(kind, list);
  }
  if ([...byKind.values()].reduce((sum, l) => sum + l.length, 0) > MAX_JOURNALED_RECORDS) return null;
  const c = await db.readCommit(commit);
  const { time, entry: logged } = logItem(commit, c);
  const { oid: _, ...l } = logged;
  const entry: JournalEntry = { p: parent, c: commit, s: {}, r: {}, l: { t: time, ...l } };
  const root = await listTree(db, c.tree);
  // The parent's trees on the written paths: read moments ago by the mutation's own writes.
  const parentRoot = await listTree(db, (await db.readCommit(parent)).tree);
  const project = root.find((e) => e.name === PROJECT_PATH)?.oid;
  if (project) entry.j = project;
  for (const kind of RECORD_KINDS) {
    const records = byKind.get(kind);
    if (!records) continue;
    const kindTree = root.find((e) => e.name === kind);
    const shards = new Map((kindTree ? await listTree(db, kindTree.oid) : []).map((e) => [e.name, e.oid]));
    const parentShards = await shardsOf(db, parentRoot, kind);
    const s: Record<string, string | null> = {};
    const o: Record<string, string | null> = {};
    const r: Array<[number, string, unknown] | [number, null]> = [];
    for (const rec of records) {
      s[rec.shard] = shards.get(rec.shard) ?? null;
      o[String(rec.n)] = (await blobIn(db, parentShards.get(rec.shard), `${rec.n}.json`)) ?? null;
      if (rec.bytes === null) {
        r.push([rec.n, null]);
        continue;
      }
      const value = decodeRecord(schemas[kind] as never, rec.bytes, rec.path, commit) as unknown;
      r.push([rec.n, db.hash("blob", rec.bytes), kind === "tasks" ? toTaskSummary(value as Task) : value]);
    }
    entry.s[kind] = s;
    entry.r[kind] = r;
    (entry.o ??= {})[kind] = o;
  }
  return entry;
}

async function shardsOf(db: ObjectDb, root: readonly TreeEntry[], kind: RecordKind): Promise<Map<string, string>> {
  const tree = root.find((e) => e.name === kind && isTreeMode(e.mode));
  return new Map(
    (tree ? await listTree(db, tree.oid) : []).filter((e) => isTreeMode(e.mode)).map((e) => [e.name, e.oid]),
  );
}

async function blobIn(db: ObjectDb, shard: string | undefined, name: string): Promise<string | undefined> {
  if (!shard) return undefined;
  const e = (await listTree(db, shard)).find((x) => x.name === name);
  return e && !isTreeMode(e.mode) ? e.oid : undefined;
}
