import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_VERSION } from "../../domain/constants.js";
import type { Project } from "../../domain/schemas/project.js";
import type { TaskSummary } from "../../domain/task-summary.js";
import { BlockFile } from "./block-file.js";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";
import type { RecordKind } from "../state/layout.js";
import { CACHE_VERSION } from "./cache-version.js";
import type { KindState, Row, SummaryTypes, Unverified } from "./summary-cache.js";
import { sealKey, sealOf } from "./cache-seal.js";
import { randomBytes } from "../../random-bytes.js";
import { TableRows } from "./table-rows.js";
import { decodeTaskTable, encodeTaskTable, tableHeader, type EncodedTable, type TaskTable } from "./task-table.js";

/**
 * The read cache's files in `<common dir>/pantheon/cache/` (DESIGN §2.5): each kind's saved
 * state, the head, the project memo; written to a temporary name and renamed, read back or
 * ignored (missing, another version, damaged: all mean a rebuild). read-cache.ts decides when
 * a kind is brought up to the ref, summary-cache.ts how.
 */
interface KindFile {
  version: number;
  commit: string;
  shards: Record<string, string>;
  bad: Record<string, [string, string]>;
  stray: string[];
  unverified?: { shards: string[]; rows: number[] };
  save?: string;
  rows: Array<[string, { number: number }]>;
}

/** What the journal gave, as saved; none in a file written before this was kept (it was all read from git). */
function unverifiedOf(u: { shards?: unknown; rows?: unknown } | undefined): Unverified {
  const shards = Array.isArray(u?.shards) ? u.shards.filter((x): x is string => typeof x === "string") : [];
  const rows = Array.isArray(u?.rows) ? u.rows.filter((x): x is number => Number.isInteger(x)) : [];
  return { shards: new Set(shards), rows: new Set(rows) };
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
  writeAtomic(commonDir, headFile(commonDir), JSON.stringify(head));
}

/** The project record as validated from exactly this text, and that text's blob id (project-v<N>.json). */
export interface ProjectMemo {
  load(): { text: string; record: Project; oid?: string } | null;
  save(entry: { text: string; record: Project; oid: string }): void;
}

export function projectMemo(commonDir: string): ProjectMemo {
  const file = join(cacheDir(commonDir), `project-v${CACHE_VERSION}.json`);
  return {
    load() {
      try {
        const m = JSON.parse(readFileSync(file, "utf8")) as {
          text: string;
          record: Project;
          schema: number;
          oid?: string;
        };
        return m.schema === SCHEMA_VERSION && typeof m.text === "string" ? m : null;
      } catch {
        return null;
      }
    },
    save: (entry) => writeAtomic(commonDir, file, JSON.stringify({ ...entry, schema: SCHEMA_VERSION })),
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
  return {
    commit: file.commit,
    shards: new Map(Object.entries(file.shards)),
    rows,
    bad: new Map(Object.entries(file.bad)),
    stray: file.stray,
    reread: 0,
    unverified: unverifiedOf(file.unverified),
  };
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
      if (statSync(text).size !== h.textBytes || statSync(oids).size !== h.oidBytes)
        throw new Error("side files do not match");
      return { text: new BlockFile(text, h.textBytes), oids: new BlockFile(oids, h.oidBytes) };
    });
  } catch {
    return null;
  }
  if (!table) return null;
  // Rows are views into the table: nothing is decoded until a field is read.
  const m = table.meta;
  return {
    commit: m.commit,
    shards: new Map(Object.entries(m.shards)),
    rows: new TableRows(table),
    bad: new Map(Object.entries(m.bad)),
    stray: m.stray,
    reread: 0,
    unverified: unverifiedOf(m.unverified),
  };
}

/**
 * What a save leaves behind is removed once no read can still be using it (a read takes well
 * under this): side files of other commits, every file of another cache version (an upgrade
 * would otherwise leave megabytes at 50,000 tasks) and temporary files of a killed writer.
 */
const STALE_FILE_GRACE_MS = 60_000;

function sweepStaleFiles(commonDir: string, keep: string): void {
  try {
    for (const f of readdirSync(cacheDir(commonDir))) {
      const side = /^tasks-v(\d+)-([0-9a-f]{40})\.(text|oids)$/.exec(f);
      const version = /-v(\d+)[.-]/.exec(f);
      const stale =
        f.endsWith(".tmp") ||
        (side ? side[2] !== keep : false) ||
        (version !== null && Number(version[1]) !== CACHE_VERSION);
      if (!stale) continue;
      const path = join(cacheDir(commonDir), f);
      if (Date.now() - statSync(path).mtimeMs > STALE_FILE_GRACE_MS) rmSync(path, { force: true });
    }
  } catch {
    // a concurrent sweep got there first: harmless
  }
}

/**
 * Written to a temporary file and renamed: a reader never sees half a cache; a failure is
 * harmless. Then sealed (cache-seal.ts): the seal file names the commit and the keyed hash of
 * what was written, so doctor can tell this save from a file changed by anything else.
 */
export function saveKind<K extends RecordKind>(commonDir: string, kind: K, s: KindState<SummaryTypes[K]>): void {
  const sorted = [...s.rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  const meta = {
    commit: s.commit,
    shards: Object.fromEntries(s.shards),
    bad: Object.fromEntries(s.bad),
    stray: s.stray,
    unverified: { shards: [...s.unverified.shards], rows: [...s.unverified.rows] },
    // Two saves at one commit racing (a read's and doctor's) may leave one's file under the
    // other's seal: the id tells that from an edit.
    save: randomBytes(8).toString("hex"),
  };
  if (kind !== "tasks") {
    const body = JSON.stringify({ version: CACHE_VERSION, ...meta, rows: sorted.map((r) => [r.oid, r.value]) });
    if (writeAtomic(commonDir, kindFile(commonDir, kind), body)) seal(commonDir, kind, s.commit, meta.save, [body]);
    return;
  }
  let table: EncodedTable;
  try {
    table = encodeTaskTable(
      sorted.map((r) => ({ summary: r.value as TaskSummary, oid: r.oid })),
      meta,
    );
  } catch {
    return; // state a table cannot hold (a newer writer's values): reads refresh from git instead
  }
  // The side files first: a columns file never names a commit whose side files are not there.
  const written =
    writeAtomic(commonDir, sideFile(commonDir, s.commit, "text"), table.text) &&
    writeAtomic(commonDir, sideFile(commonDir, s.commit, "oids"), table.oids) &&
    writeAtomic(commonDir, kindFile(commonDir, kind), table.columns);
  if (written) seal(commonDir, kind, s.commit, meta.save, [table.columns, table.text, table.oids]);
  sweepStaleFiles(commonDir, s.commit);
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
}

function sealFile(commonDir: string, kind: RecordKind): string {
  return join(cacheDir(commonDir), `${kind}-v${CACHE_VERSION}.seal`);
}

function seal(commonDir: string, kind: RecordKind, commit: string, save: string, parts: Uint8Array[] | string[]): void {
  const key = sealKey(commonDir, cacheDir(commonDir), true);
  if (key)
    writeAtomic(
      commonDir,
      sealFile(commonDir, kind),
      `${commit} ${save} ${sealOf(key, [kind, commit, save, ...parts])}\n`,
    );
}

/**
 * A kind's cache as saved, and whether its seal vouches for it: "sealed" (Pantheon wrote exactly
 * this), "unsealed" (no seal for it: none yet, an older version's, a save cut short), "broken"
 * (a seal for this commit that the files do not match: edited or damaged), or "none" (no file).
 * Reads every byte (doctor's check, not a read's).
 */
export function loadSealed<K extends RecordKind>(
  commonDir: string,
  kind: K,
): { state: KindState<SummaryTypes[K]> | null; seal: "sealed" | "unsealed" | "broken" | "none"; path: string } {
  const path = kindFile(commonDir, kind);
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return { state: null, seal: "none", path };
  }
  const state = loadKind(commonDir, kind);
  let said: string[] = [];
  try {
    said = readFileSync(sealFile(commonDir, kind), "utf8").trim().split(" ");
  } catch {
    // no seal
  }
  const key = sealKey(commonDir, cacheDir(commonDir), false);
  // The commit and save the bytes read first name: another save racing this read, or one
  // racing another save, makes the file "unsealed", never "broken".
  const head = (kind === "tasks" ? tableHeader(file) : parseJson(file)) as { commit?: unknown; save?: unknown } | null;
  if (!state || !key) return { state, seal: "unsealed", path };
  const fresh = said.length === 3 && said[0] === state.commit && head?.commit === state.commit && said[1] === head.save;
  if (!fresh) return { state, seal: "unsealed", path };
  let parts: Buffer[] = [file];
  if (kind === "tasks") {
    try {
      parts = [
        file,
        readFileSync(sideFile(commonDir, state.commit, "text")),
        readFileSync(sideFile(commonDir, state.commit, "oids")),
      ];
    } catch {
      return { state, seal: "broken", path };
    }
  }
  const ok = sealOf(key, [kind, state.commit, said[1]!, ...parts]) === said[2];
  return { state, seal: ok ? "sealed" : "broken", path };
}

/** Written to a temporary file and renamed (every cache file is); false when it failed (harmless). */
export function writeAtomic(commonDir: string, path: string, text: string | Uint8Array): boolean {
  try {
    ensureParentDir(commonDir, path);
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, text);
    // core.sharedRepository: another member of the group must be able to replace it.
    adjustSharedPerm(tmp, sharedPermOf(commonDir));
    renameSync(tmp, path);
    return true;
  } catch {
    // A read-only repository still answers correctly, just without a cache.
    return false;
  }
}
