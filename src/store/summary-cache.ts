import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CorruptRecordError } from "../errors.js";
import type { Epic } from "../domain/schemas/epic.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Project } from "../domain/schemas/project.js";
import { SCHEMA_VERSION } from "../domain/constants.js";
import type { Review } from "../domain/schemas/review.js";
import type { Task } from "../domain/schemas/task.js";
import { toTaskSummary, type TaskSummary } from "../domain/task-summary.js";
import { readBlobs } from "./blob-batch.js";
import { parseRecordFile, type RecordKind } from "./layout.js";
import type { ObjectDb } from "./object-db.js";
import { decodeRecord } from "./record-snapshot.js";
import { loadSchemas } from "./schema-loader.js";
import { TableRows } from "./table-rows.js";
import { BlockFile } from "./block-file.js";
import { decodeTaskTable, encodeTaskTable, type EncodedTable, type TaskTable } from "./task-table.js";
import { isTreeMode, type TreeEntry } from "./tree-codec.js";
import { listTree, TreeTooLargeError } from "./tree-edit.js";
import { listKindWithGit, type KindListing } from "./tree-listing.js";

/** Shards of a kind from which a full rebuild asks git to list them (spawning git costs ~5 ms). */
const GIT_LISTING_MIN_SHARDS = 16;

/**
 * The read cache of DESIGN §2.5: one file per kind in `<common dir>/pantheon/cache/`, so asking
 * for the missions never loads 50,000 task summaries. Each file names the commit it reflects,
 * the tree id of every shard and the blob id of every record: an unchanged shard is never
 * opened and a changed one re-reads only its changed blobs. Disposable and versioned.
 */
export const CACHE_VERSION = 5;

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

interface KindFile {
  version: number;
  commit: string;
  shards: Record<string, string>;
  bad: Record<string, [string, string]>;
  stray: string[];
  rows: Array<[string, { number: number }]>;
}

export function cacheDir(commonDir: string): string {
  return join(commonDir, "pantheon", "cache");
}

/** The tasks' cache is a binary table (task-table.ts); the other kinds, being small, are JSON. */
export function kindFile(commonDir: string, kind: RecordKind): string {
  return join(cacheDir(commonDir), kind === "tasks" ? `tasks-v${CACHE_VERSION}.bin` : `${kind}-v${CACHE_VERSION}.json`);
}

/** A few bytes naming the commit last cached and its schema version: the version check of every command. */
export function headFile(commonDir: string): string {
  return join(cacheDir(commonDir), `head-v${CACHE_VERSION}.json`);
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

export function saveHead(commonDir: string, head: CacheHead): void {
  writeAtomic(headFile(commonDir), JSON.stringify(head));
}

/** The project record as validated from exactly this text (project-v<N>.json). */
export interface ProjectMemo {
  load(): { text: string; record: Project } | null;
  save(entry: { text: string; record: Project }): void;
}

export function projectMemo(commonDir: string): ProjectMemo {
  const file = join(cacheDir(commonDir), `project-v${CACHE_VERSION}.json`);
  return {
    load() {
      try {
        const m = JSON.parse(readFileSync(file, "utf8")) as { text: string; record: Project; schema: number };
        return m.schema === SCHEMA_VERSION && typeof m.text === "string" ? m : null;
      } catch {
        return null;
      }
    },
    save: (entry) => writeAtomic(file, JSON.stringify({ ...entry, schema: SCHEMA_VERSION })),
  };
}

/** Deletes every cache file (doctor --fix; the cache is disposable). */
export function dropCacheFiles(commonDir: string): void {
  rmSync(cacheDir(commonDir), { recursive: true, force: true });
}

/** A kind's cache as saved, or null (missing, another version, unreadable: all mean rebuild). */
export function loadKind<K extends RecordKind>(commonDir: string, kind: K): KindState<SummaryTypes[K]> | null {
  if (kind === "tasks") return loadTaskTable(commonDir) as KindState<SummaryTypes[K]> | null;
  let file: KindFile;
  try {
    file = JSON.parse(readFileSync(kindFile(commonDir, kind), "utf8")) as KindFile;
  } catch {
    return null;
  }
  if (file?.version !== CACHE_VERSION || typeof file.commit !== "string" || !Array.isArray(file.rows)) return null;
  const rows = new Map<number, Row<SummaryTypes[K]>>();
  for (const [oid, value] of file.rows) rows.set(value.number, { oid, value: value as SummaryTypes[K] });
  return { commit: file.commit, shards: new Map(Object.entries(file.shards)), rows, bad: new Map(Object.entries(file.bad)), stray: file.stray, reread: 0 };
}

/** The tasks' titles and timestamps, and their blob ids, at `commit`: immutable, named by it. */
function sideFile(commonDir: string, commit: string, what: "text" | "oids"): string {
  return join(cacheDir(commonDir), `tasks-v${CACHE_VERSION}-${commit}.${what}`);
}

function loadTaskTable(commonDir: string): KindState<TaskSummary> | null {
  let table: TaskTable | null;
  try {
    table = decodeTaskTable(readFileSync(kindFile(commonDir, "tasks")), (h) => {
      // Checked now, read later block by block: a missing or short file means no cache at all.
      const text = sideFile(commonDir, h.commit, "text");
      const oids = sideFile(commonDir, h.commit, "oids");
      if (statSync(text).size !== h.textBytes || statSync(oids).size !== h.oidBytes) throw new Error("side files do not match");
      return { text: new BlockFile(text, h.textBytes), oids: new BlockFile(oids, h.oidBytes) };
    });
  } catch {
    return null;
  }
  if (!table) return null;
  // Rows are views into the table: nothing is decoded until a field is read.
  const m = table.meta;
  return { commit: m.commit, shards: new Map(Object.entries(m.shards)), rows: new TableRows(table), bad: new Map(Object.entries(m.bad)), stray: m.stray, reread: 0 };
}

/** Side files of other commits, once no read can still be using them (a read takes well under this). */
const SIDE_FILE_GRACE_MS = 60_000;

function sweepSideFiles(commonDir: string, keep: string): void {
  try {
    for (const f of readdirSync(cacheDir(commonDir))) {
      const m = /^tasks-v\d+-([0-9a-f]{40})\.(text|oids)$/.exec(f);
      if (!m || m[1] === keep) continue;
      const path = join(cacheDir(commonDir), f);
      if (Date.now() - statSync(path).mtimeMs > SIDE_FILE_GRACE_MS) rmSync(path, { force: true });
    }
  } catch {
    // a concurrent sweep got there first: harmless
  }
}

/** Written to a temporary file and renamed: a reader never sees half a cache; a failure is harmless. */
export function saveKind<K extends RecordKind>(commonDir: string, kind: K, s: KindState<SummaryTypes[K]>): void {
  const sorted = [...s.rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  const meta = { commit: s.commit, shards: Object.fromEntries(s.shards), bad: Object.fromEntries(s.bad), stray: s.stray };
  if (kind !== "tasks") {
    writeAtomic(kindFile(commonDir, kind), JSON.stringify({ version: CACHE_VERSION, ...meta, rows: sorted.map((r) => [r.oid, r.value]) }));
    return;
  }
  let table: EncodedTable;
  try {
    table = encodeTaskTable(sorted.map((r) => ({ summary: r.value as TaskSummary, oid: r.oid })), meta);
  } catch {
    return; // state a table cannot hold (a newer writer's values): reads refresh from git instead
  }
  // The side files first: a columns file never names a commit whose side files are not there.
  writeAtomic(sideFile(commonDir, s.commit, "text"), table.text);
  writeAtomic(sideFile(commonDir, s.commit, "oids"), table.oids);
  writeAtomic(kindFile(commonDir, kind), table.columns);
  sweepSideFiles(commonDir, s.commit);
}

function writeAtomic(path: string, text: string | Uint8Array): void {
  try {
    mkdirSync(join(path, ".."), { recursive: true });
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch {
    // A read-only repository still answers correctly, just without a cache.
  }
}

function emptyKind<T>(commit: string): KindState<T> {
  return { commit, shards: new Map(), rows: new Map(), bad: new Map(), stray: [], reread: 0 };
}

async function listOrNull(db: ObjectDb, oid: string): Promise<TreeEntry[] | string> {
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
export async function refreshKind<K extends RecordKind>(db: ObjectDb, gitDir: string, commit: string, rootTree: string, kind: K, prev: KindState<SummaryTypes[K]> | null): Promise<KindState<SummaryTypes[K]>> {
  const old = (prev ?? emptyKind(commit)) as KindState<unknown>;
  const state = emptyKind<unknown>(commit);
  const entry = (await listTree(db, rootTree)).find((e) => e.name === kind);
  let shards: TreeEntry[] = [];
  // A full rebuild of a large kind lists it with one `git ls-tree -r`, when git is there.
  let viaGit: KindListing | null = null;
  if (entry && !isTreeMode(entry.mode)) state.stray.push(kind);
  else if (entry) {
    const listed = await listOrNull(db, entry.oid);
    if (typeof listed === "string") state.stray.push(`${kind} (${listed})`);
    else shards = listed;
    if (old.rows.size === 0 && shards.length >= GIT_LISTING_MIN_SHARDS) viaGit = listKindWithGit(gitDir, entry.oid);
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
    const blobs = await readBlobs(db, gitDir, toRead.map((r) => r.oid));
    for (const r of toRead) {
      try {
        const bytes = blobs.get(r.oid);
        if (!bytes) throw new CorruptRecordError(r.path, commit, "missing blob");
        const record = decodeRecord(schemas[kind] as never, bytes, r.path, commit) as { number: number };
        if (record.number !== r.n) throw new CorruptRecordError(r.path, commit, `number is ${record.number}, but the path says ${r.n}`);
        state.rows.set(r.n, { oid: r.oid, value: kind === "tasks" ? toTaskSummary(record as Task) : record });
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
        state.bad.set(r.path, [r.oid, e.message]);
      }
    }
  }
  return state as KindState<SummaryTypes[K]>;
}

