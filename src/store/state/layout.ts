import type { RecordKind } from "../store.js";

export type { RecordKind } from "../store.js";

/**
 * The tree layout of DESIGN §2.1, shared by every clone and version:
 * `tasks/<NN>/<number>.json` with NN = number mod 100, so one record is one path read and no
 * tree grows past a few hundred entries at 50,000 records.
 */
export const RECORD_KINDS: readonly RecordKind[] = ["tasks", "epics", "missions", "reviews"];

export const REF = "refs/coordination/main";
export const PROJECT_PATH = "project.json";
export const COUNTERS_PATH = "counters.json";
export const PERSONAS_DIR = "personas";

export function shardOf(n: number): string {
  return String(n % 100).padStart(2, "0");
}

export function recordPath(kind: RecordKind, n: number): string {
  return `${kind}/${shardOf(n)}/${n}.json`;
}

export function personaPath(name: string): string {
  return `${PERSONAS_DIR}/${encodeURIComponent(name.toLowerCase())}.json`;
}

/** The short key used in `Pantheon-Records:` trailers: `tasks/7`, `counters`, `personas/zeus`. */
export function recordKey(path: string): string {
  const rec = /^(tasks|epics|missions|reviews)\/\d\d\/(\d+)\.json$/.exec(path);
  if (rec) return `${rec[1]}/${rec[2]}`;
  return path.replace(/\.json$/, "");
}

/** Parses `<number>.json` inside shard `NN`; anything else in a shard is a stray entry. */
export function parseRecordFile(shard: string, file: string): number | null {
  const m = /^([1-9]\d{0,9})\.json$/.exec(file);
  if (!m || !/^\d\d$/.test(shard)) return null;
  const n = Number(m[1]);
  return shardOf(n) === shard ? n : null;
}
