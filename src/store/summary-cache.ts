import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CorruptRecordError } from "../errors.js";
import type { Epic } from "../domain/schemas/epic.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Review } from "../domain/schemas/review.js";
import type { Task } from "../domain/schemas/task.js";
import { toTaskSummary, type TaskSummary } from "../domain/task-summary.js";
import { readBlobs } from "./blob-batch.js";
import { parseRecordFile, RECORD_KINDS, type RecordKind } from "./layout.js";
import type { ObjectDb } from "./object-db.js";
import { decodeRecord } from "./record-snapshot.js";
import { loadSchemas } from "./schema-loader.js";
import { decodeColumns, encodeColumns, type TaskColumns } from "./task-columns.js";
import { isTreeMode } from "./tree-codec.js";
import { listTree, TreeTooLargeError } from "./tree-edit.js";

/** Bump when the file's shape or meaning changes: an older cache is then rebuilt, never misread. */
export const CACHE_VERSION = 2;

export interface SummaryTypes {
  tasks: TaskSummary;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

interface Row<T> {
  oid: string;
  value: T;
}

/** One kind as cached: shard tree ids, a row per record (with its blob id), and what was wrong. */
export interface KindState<T> {
  shards: Map<string, string>;
  rows: Map<number, Row<T>>;
  /** Unreadable records, by path: [blob id, message]; reported again on every list without re-reading. */
  bad: Map<string, [string, string]>;
  stray: string[];
}

export type CacheState = { commit: string; schemaVersion: number | null } & { [K in RecordKind]: KindState<SummaryTypes[K]> };

interface KindFile {
  shards: Record<string, string>;
  bad: Record<string, [string, string]>;
  stray: string[];
}

interface CacheFile {
  version: number;
  commit: string;
  schemaVersion: number | null;
  tasks: KindFile & { columns: TaskColumns };
  epics: KindFile & { rows: Array<[string, Epic]> };
  missions: KindFile & { rows: Array<[string, Mission]> };
  reviews: KindFile & { rows: Array<[string, Review]> };
}

export function cacheFile(commonDir: string): string {
  return join(commonDir, "pantheon", "cache", `state-v${CACHE_VERSION}.json`);
}

/** A few bytes naming the commit the cache holds: a command that needs no list reads only this. */
export function headFile(commonDir: string): string {
  return join(commonDir, "pantheon", "cache", `head-v${CACHE_VERSION}.json`);
}

export interface CacheHead {
  commit: string;
  schemaVersion: number | null;
}

export function loadHead(commonDir: string): CacheHead | null {
  try {
    const h = JSON.parse(readFileSync(headFile(commonDir), "utf8")) as CacheHead;
    return typeof h?.commit === "string" ? h : null;
  } catch {
    return null;
  }
}

function emptyKind<T>(): KindState<T> {
  return { shards: new Map(), rows: new Map(), bad: new Map(), stray: [] };
}

/** The cache as it is on disk, or null (missing, another version, unreadable: all mean rebuild). */
export function loadCache(commonDir: string): CacheState | null {
  let file: CacheFile;
  try {
    file = JSON.parse(readFileSync(cacheFile(commonDir), "utf8")) as CacheFile;
  } catch {
    return null;
  }
  if (file?.version !== CACHE_VERSION || typeof file.commit !== "string") return null;
  const base = <T>(k: KindFile, rows: Map<number, Row<T>>): KindState<T> => ({ shards: new Map(Object.entries(k.shards)), rows, bad: new Map(Object.entries(k.bad)), stray: k.stray });
  const recordRows = <T extends { number: number }>(rows: Array<[string, T]>) => new Map(rows.map(([oid, value]) => [value.number, { oid, value }]));
  return {
    commit: file.commit,
    schemaVersion: file.schemaVersion,
    tasks: base(file.tasks, new Map(decodeColumns(file.tasks.columns).map((r) => [r.summary.number, { oid: r.oid, value: r.summary }]))),
    epics: base(file.epics, recordRows(file.epics.rows)),
    missions: base(file.missions, recordRows(file.missions.rows)),
    reviews: base(file.reviews, recordRows(file.reviews.rows)),
  };
}

/** Written to a temporary file and renamed: a reader never sees half a cache; a failure is harmless. */
export function saveCache(commonDir: string, s: CacheState): void {
  const kind = <T>(k: KindState<T>): KindFile => ({ shards: Object.fromEntries(k.shards), bad: Object.fromEntries(k.bad), stray: k.stray });
  const sorted = <T>(k: KindState<T>) => [...k.rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  const file: CacheFile = {
    version: CACHE_VERSION,
    commit: s.commit,
    schemaVersion: s.schemaVersion,
    tasks: { ...kind(s.tasks), columns: encodeColumns(sorted(s.tasks).map((r) => ({ summary: r.value, oid: r.oid }))) },
    epics: { ...kind(s.epics), rows: sorted(s.epics).map((r) => [r.oid, r.value]) },
    missions: { ...kind(s.missions), rows: sorted(s.missions).map((r) => [r.oid, r.value]) },
    reviews: { ...kind(s.reviews), rows: sorted(s.reviews).map((r) => [r.oid, r.value]) },
  };
  const path = cacheFile(commonDir);
  try {
    mkdirSync(join(commonDir, "pantheon", "cache"), { recursive: true });
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, JSON.stringify(file));
    renameSync(tmp, path);
    // The head follows the full file, so it never names a commit the full file does not hold.
    const head = `${headFile(commonDir)}.${process.pid}.tmp`;
    writeFileSync(head, JSON.stringify({ commit: s.commit, schemaVersion: s.schemaVersion } satisfies CacheHead));
    renameSync(head, headFile(commonDir));
  } catch {
    // A read-only repository still answers correctly, just without a cache.
  }
}

/**
 * Brings the cache to the state of `rootTree` (commit `commit`): an unchanged shard (same tree
 * id) is kept without opening it; a changed one is listed and only its changed blobs are read.
 */
export async function refreshCache(db: ObjectDb, gitDir: string, commit: string, rootTree: string, prev: CacheState | null, schemaVersion: number | null): Promise<CacheState> {
  const root = new Map((await listTree(db, rootTree)).map((e) => [e.name, e]));
  const next = { commit, schemaVersion } as CacheState;
  const toRead: Array<{ kind: RecordKind; n: number; path: string; oid: string }> = [];
  for (const kind of RECORD_KINDS) {
    const old = (prev?.[kind] ?? emptyKind()) as KindState<unknown>;
    const state = emptyKind<unknown>();
    const entry = root.get(kind);
    let shards: Awaited<ReturnType<typeof listTree>> = [];
    if (entry && isTreeMode(entry.mode)) {
      try {
        shards = await listTree(db, entry.oid);
      } catch (e) {
        if (!(e instanceof TreeTooLargeError)) throw e;
        state.stray.push(`${kind} (${e.message})`);
      }
    }
    if (entry && !isTreeMode(entry.mode)) state.stray.push(kind);
    for (const shard of shards) {
      if (!isTreeMode(shard.mode)) {
        state.stray.push(`${kind}/${shard.name}`);
        continue;
      }
      state.shards.set(shard.name, shard.oid);
      const same = old.shards.get(shard.name) === shard.oid;
      if (same) {
        for (const [n, row] of old.rows) if (shardName(n) === shard.name) state.rows.set(n, row);
        for (const [p, b] of old.bad) if (p.startsWith(`${kind}/${shard.name}/`)) state.bad.set(p, b);
        for (const p of old.stray) if (p.startsWith(`${kind}/${shard.name}/`) || p.startsWith(`${kind}/${shard.name} (`)) state.stray.push(p);
        continue;
      }
      let files: Awaited<ReturnType<typeof listTree>>;
      try {
        files = await listTree(db, shard.oid);
      } catch (e) {
        if (!(e instanceof TreeTooLargeError)) throw e;
        state.stray.push(`${kind}/${shard.name} (${e.message})`);
        continue;
      }
      for (const file of files) {
        const path = `${kind}/${shard.name}/${file.name}`;
        const n = parseRecordFile(shard.name, file.name);
        if (n === null || isTreeMode(file.mode)) {
          state.stray.push(path);
          continue;
        }
        const cached = old.rows.get(n);
        if (cached?.oid === file.oid) state.rows.set(n, cached);
        else if (old.bad.get(path)?.[0] === file.oid) state.bad.set(path, old.bad.get(path)!);
        else toRead.push({ kind, n, path, oid: file.oid });
      }
    }
    (next as Record<RecordKind, KindState<unknown>>)[kind] = state;
  }
  if (toRead.length > 0) {
    const schemas = await loadSchemas();
    const blobs = await readBlobs(db, gitDir, toRead.map((r) => r.oid));
    for (const r of toRead) {
      const state = next[r.kind] as KindState<unknown>;
      try {
        const bytes = blobs.get(r.oid);
        if (!bytes) throw new CorruptRecordError(r.path, commit, "missing blob");
        const record = decodeRecord(schemas[r.kind] as never, bytes, r.path, commit) as { number: number };
        if (record.number !== r.n) throw new CorruptRecordError(r.path, commit, `number is ${record.number}, but the path says ${r.n}`);
        state.rows.set(r.n, { oid: r.oid, value: r.kind === "tasks" ? toTaskSummary(record as Task) : record });
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
        state.bad.set(r.path, [r.oid, e.message]);
      }
    }
  }
  return next;
}

function shardName(n: number): string {
  return String(n % 100).padStart(2, "0");
}
