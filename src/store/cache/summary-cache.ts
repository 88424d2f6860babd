import { CorruptRecordError, TreeTooLargeError } from "../../errors.js";
import type { Epic } from "../../domain/schemas/epic.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Review } from "../../domain/schemas/review.js";
import type { Task } from "../../domain/schemas/task.js";
import { toTaskSummary, type TaskSummary } from "../../domain/task-summary.js";
import { streamObjects } from "../git/object-stream.js";

import { parseRecordFile, type RecordKind } from "../state/layout.js";
import type { ObjectDb } from "../git/object-db.js";
import { decodeRecord, MAX_RECORD_BYTES, recordTooLarge } from "../state/record-snapshot.js";
import { loadSchemas } from "../state/schema-loader.js";
import { isTreeMode, type TreeEntry } from "../git/tree-entry.js";
import { listTree } from "../git/tree-edit.js";
import { listKindWithGit, type KindListing } from "../git/tree-listing.js";

/** Above this many blobs, one streaming `git cat-file --batch` beats reading them one by one in-process. */
const STREAM_THRESHOLD = 256;

/** Shards of a kind from which a full rebuild asks git to list them (spawning git costs ~5 ms). */
const GIT_LISTING_MIN_SHARDS = 16;

/**
 * A kind's rows brought to a commit from git's trees: one file per kind in
 * `<common dir>/pantheon/cache/`, so asking for the missions never loads 50,000 task summaries.
 * Each file names the commit it reflects, the tree id of every shard and the blob id of every
 * record: an unchanged shard is never opened and a changed one re-reads only its changed blobs.
 * Its files are cache-files.ts's; the journal that usually spares this refresh is
 * cache-journal.ts; read-cache.ts decides which to use.
 */

export interface SummaryTypes {
  tasks: TaskSummary;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

export interface Row<T> {
  oid: string;
  value: T;
}

/** A kind's rows by number: a Map, or for tasks a table with changes on top (table-rows.ts). */
export interface RowMap<T> extends Iterable<[number, Row<T>]> {
  readonly size: number;
  get(n: number): Row<T> | undefined;
  set(n: number, row: Row<T>): unknown;
  delete(n: number): boolean;
  entries(): Iterable<[number, Row<T>]>;
  /** The values in number order, when the map can give them without sorting. */
  ordered?(): T[];
  copy?(): RowMap<T>;
}

/** One kind as cached at `commit`: its shards, a row per record, and what was wrong. */
export interface KindState<T> {
  commit: string;
  shards: Map<string, string>;
  rows: RowMap<T>;
  /** Unreadable records, by path: [blob id, message]; reported again on every list without re-reading. */
  bad: Map<string, [string, string]>;
  stray: string[];
  /** Records read from git by the refresh that produced this state (0 when loaded as saved). */
  reread: number;
  /**
   * What the journal set since these were last read from git: its lines are hints that reads
   * follow, never checks (`doctor` re-reads these, cache-journal.ts).
   */
  unverified: Unverified;
}

/** Shards whose tree id, and rows whose blob and value, a journal line gave. */
export interface Unverified {
  shards: Set<string>;
  rows: Set<number>;
}

export function emptyKind<T>(commit: string): KindState<T> {
  return {
    commit,
    shards: new Map(),
    rows: new Map(),
    bad: new Map(),
    stray: [],
    reread: 0,
    unverified: { shards: new Set(), rows: new Set() },
  };
}

async function listOrNull(db: ObjectDb, oid: string): Promise<readonly TreeEntry[] | string> {
  try {
    return await listTree(db, oid);
  } catch (e) {
    if (e instanceof TreeTooLargeError) return e.message;
    throw e;
  }
}

interface ToRead {
  n: number;
  path: string;
  oid: string;
}

/**
 * Hands each record's bytes to `use` (null: git has no such blob), one at a time: many through
 * one streaming `git cat-file --batch` (decoded while git reads on, never all held at once: a
 * rebuild at 100,000 tasks held 60 MB of output), the rest through the object db. A blob over
 * the record size limit is never read: its size is passed on instead.
 */
async function readEach(
  db: ObjectDb,
  gitDir: string,
  toRead: readonly ToRead[],
  use: (r: ToRead, bytes: Buffer | number) => void,
): Promise<void> {
  const done = new Set<string>();
  if (toRead.length >= STREAM_THRESHOLD) {
    const byOid = new Map<string, ToRead[]>();
    for (const r of toRead) {
      const list = byOid.get(r.oid);
      if (list) list.push(r);
      else byOid.set(r.oid, [r]);
    }
    await streamObjects(
      gitDir,
      [...byOid.keys()],
      (oid, type, size, content) => {
        if (type !== "blob") return;
        done.add(oid);
        for (const r of byOid.get(oid) ?? []) use(r, content ?? size);
      },
      { maxObjectBytes: MAX_RECORD_BYTES },
    );
  }
  for (const r of toRead) {
    if (done.has(r.oid)) continue;
    const obj = await db.read(r.oid);
    use(r, obj.type === "blob" ? obj.content : 0);
  }
}

/**
 * Brings one kind's cache to `commit`, whose root tree is `rootTree`: an unchanged shard (same
 * tree id) is kept without opening it; a changed one is listed and only its changed blobs are
 * read (in one `git cat-file --batch` when there are many).
 */
export async function refreshKind<K extends RecordKind>(
  db: ObjectDb,
  gitDir: string,
  commit: string,
  rootTree: string,
  kind: K,
  prev: KindState<SummaryTypes[K]> | null,
  o: { verify?: boolean } = {},
): Promise<KindState<SummaryTypes[K]>> {
  const old = (prev ?? emptyKind(commit)) as KindState<unknown>;
  const state = emptyKind<unknown>(commit);
  // `verify` (doctor): what the journal gave is read from git like anything changed.
  const hintedRows = new Set([...old.unverified.rows].map((n) => String(n % 100).padStart(2, "0")));
  const hinted = (shard: string) => o.verify === true && (old.unverified.shards.has(shard) || hintedRows.has(shard));
  const trusted = (n: number) => o.verify !== true || !old.unverified.rows.has(n);
  const entry = (await listTree(db, rootTree)).find((e) => e.name === kind);
  let shards: readonly TreeEntry[] = [];
  // A full rebuild of a large kind lists it with one `git ls-tree -r`, when git is there.
  let viaGit: KindListing | null = null;
  if (entry && !isTreeMode(entry.mode)) state.stray.push(kind);
  else if (entry) {
    const listed = await listOrNull(db, entry.oid);
    if (typeof listed === "string") state.stray.push(`${kind} (${listed})`);
    else shards = listed;
    if (old.rows.size === 0 && shards.length >= GIT_LISTING_MIN_SHARDS)
      viaGit = await listKindWithGit(gitDir, entry.oid);
  }
  // One pass to group the old rows by shard: a kept shard copies its rows without a scan each.
  const oldByShard = new Map<number, Array<[number, Row<unknown>]>>();
  for (const [n, row] of old.rows) {
    const list = oldByShard.get(n % 100);
    if (list) list.push([n, row]);
    else oldByShard.set(n % 100, [[n, row]]);
  }
  const toRead: ToRead[] = [];
  for (const shard of shards) {
    const prefix = `${kind}/${shard.name}`;
    if (!isTreeMode(shard.mode)) {
      state.stray.push(prefix);
      continue;
    }
    state.shards.set(shard.name, shard.oid);
    if (old.shards.get(shard.name) === shard.oid && !hinted(shard.name)) {
      for (const [n, row] of oldByShard.get(Number(shard.name)) ?? []) {
        state.rows.set(n, row);
        if (old.unverified.rows.has(n)) state.unverified.rows.add(n);
      }
      if (old.unverified.shards.has(shard.name)) state.unverified.shards.add(shard.name);
      for (const [p, b] of old.bad) if (p.startsWith(`${prefix}/`)) state.bad.set(p, b);
      for (const p of old.stray) if (p.startsWith(`${prefix}/`) || p.startsWith(`${prefix} (`)) state.stray.push(p);
      continue;
    }
    const files = viaGit?.files.get(shard.name) ?? (await listOrNull(db, shard.oid));
    if (typeof files === "string") {
      state.stray.push(`${prefix} (${files})`);
      continue;
    }
    for (const file of files) {
      const path = `${prefix}/${file.name}`;
      const n = parseRecordFile(shard.name, file.name);
      if (n === null || isTreeMode(file.mode)) {
        state.stray.push(path);
        continue;
      }
      const cached = old.rows.get(n);
      if (cached?.oid === file.oid && trusted(n)) {
        state.rows.set(n, cached);
        // Still as the journal gave it: the listing vouches for the blob id, not for the row.
        if (old.unverified.rows.has(n)) state.unverified.rows.add(n);
      } else if (old.bad.get(path)?.[0] === file.oid) state.bad.set(path, old.bad.get(path)!);
      else toRead.push({ n, path, oid: file.oid });
    }
  }
  state.reread = toRead.length;
  if (toRead.length > 0) {
    const schemas = await loadSchemas();
    await readEach(db, gitDir, toRead, (r, bytes) => {
      try {
        if (typeof bytes === "number")
          throw bytes > MAX_RECORD_BYTES
            ? recordTooLarge(r.path, commit, bytes)
            : new CorruptRecordError(r.path, commit, "not a blob");
        const record = decodeRecord(schemas[kind] as never, bytes, r.path, commit) as { number: number };
        if (record.number !== r.n)
          throw new CorruptRecordError(r.path, commit, `number is ${record.number}, but the path says ${r.n}`);
        state.rows.set(r.n, { oid: r.oid, value: kind === "tasks" ? toTaskSummary(record as Task) : record });
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
        state.bad.set(r.path, [r.oid, e.message]);
      }
    });
  }
  return state as KindState<SummaryTypes[K]>;
}
