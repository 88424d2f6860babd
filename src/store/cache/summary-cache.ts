import { CorruptRecordError, TreeTooLargeError } from "../../errors.js";
import type { Epic } from "../../domain/schemas/epic.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Review } from "../../domain/schemas/review.js";
import type { Task } from "../../domain/schemas/task.js";
import { toTaskSummary, type TaskSummary } from "../../domain/task-summary.js";
import { readBlobs } from "../git/blob-batch.js";
import { parseRecordFile, type RecordKind } from "../state/layout.js";
import type { ObjectDb } from "../git/object-db.js";
import { decodeRecord } from "../state/record-snapshot.js";
import { loadSchemas } from "../state/schema-loader.js";
import { isTreeMode, type TreeEntry } from "../git/tree-entry.js";
import { listTree } from "../git/tree-edit.js";
import { listKindWithGit, type KindListing } from "../git/tree-listing.js";

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
}

function emptyKind<T>(commit: string): KindState<T> {
  return { commit, shards: new Map(), rows: new Map(), bad: new Map(), stray: [], reread: 0 };
}

async function listOrNull(db: ObjectDb, oid: string): Promise<readonly TreeEntry[] | string> {
  try {
    return await listTree(db, oid);
  } catch (e) {
    if (e instanceof TreeTooLargeError) return e.message;
    throw e;
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
): Promise<KindState<SummaryTypes[K]>> {
  const old = (prev ?? emptyKind(commit)) as KindState<unknown>;
  const state = emptyKind<unknown>(commit);
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
  const toRead: Array<{ n: number; path: string; oid: string }> = [];
  for (const shard of shards) {
    const prefix = `${kind}/${shard.name}`;
    if (!isTreeMode(shard.mode)) {
      state.stray.push(prefix);
      continue;
    }
    state.shards.set(shard.name, shard.oid);
    if (old.shards.get(shard.name) === shard.oid) {
      for (const [n, row] of oldByShard.get(Number(shard.name)) ?? []) state.rows.set(n, row);
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
      if (cached?.oid === file.oid) state.rows.set(n, cached);
      else if (old.bad.get(path)?.[0] === file.oid) state.bad.set(path, old.bad.get(path)!);
      else toRead.push({ n, path, oid: file.oid });
    }
  }
  state.reread = toRead.length;
  if (toRead.length > 0) {
    const schemas = await loadSchemas();
    const blobs = await readBlobs(
      db,
      gitDir,
      toRead.map((r) => r.oid),
    );
    for (const r of toRead) {
      try {
        const bytes = blobs.get(r.oid);
        if (!bytes) throw new CorruptRecordError(r.path, commit, "missing blob");
        const record = decodeRecord(schemas[kind] as never, bytes, r.path, commit) as { number: number };
        if (record.number !== r.n)
          throw new CorruptRecordError(r.path, commit, `number is ${record.number}, but the path says ${r.n}`);
        state.rows.set(r.n, { oid: r.oid, value: kind === "tasks" ? toTaskSummary(record as Task) : record });
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
        state.bad.set(r.path, [r.oid, e.message]);
      }
    }
  }
  return state as KindState<SummaryTypes[K]>;
}
