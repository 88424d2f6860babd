import type { TaskFacts } from "../../domain/history-charts.js";
import { GROUPS, keyGroup, type Versions } from "./history-keys.js";

/**
 * The history index as typed arrays: what its file holds (history-file.ts lays them out) and
 * what its table answers from (history-table.ts), made empty, packed from per-key lists of
 * touches and per-number facts, or read from the file section by section (history-reader.ts).
 */
export type SectionName =
  | "oid"
  | "ct"
  | "at"
  | "op"
  | "po"
  | "pr"
  | `k${number}`
  | `o${number}`
  | `r${number}`
  | `b${number}`
  | `v${number}`
  | "fk"
  | "fc"
  | "fo"
  | "fh";

export interface HistoryArrays {
  tip: string;
  count: number;
  ops: string[];
  other: string[];
  days: Array<[string, number]>;
  oid: Uint8Array;
  ct: Float64Array;
  at: Float64Array;
  op: Uint32Array;
  po: Uint32Array;
  pr: Int32Array;
  /** Per group: keys (numbers; for `other`, 0..K-1), offsets (K + 1), rows, blobs and whether known. */
  touch: Array<{ keys: Float64Array; off: Uint32Array; rows: Int32Array; blobs: Uint8Array; known: Uint8Array }>;
  facts: { keys: Float64Array; closedAt: Float64Array; off: Uint32Array; hours: Float64Array };
  /** Makes elements [from, to) of a section readable (all of it without a range; `oid`'s elements are bytes); a no-op in memory. */
  need(name: SectionName, from?: number, to?: number): void;
  /** Whether a block read so far failed its checksum: every answer from this file is then void. */
  readonly bad: boolean;
  /** Read from a file in an earlier format: saved again in the current one. */
  readonly legacy?: boolean;
}

/** Arrays made in memory: everything is there already. */
export const IN_MEMORY = { need: () => {}, bad: false } as const;

const emptyTouch = () => ({
  keys: new Float64Array(0),
  off: new Uint32Array(1),
  rows: new Int32Array(0),
  blobs: new Uint8Array(0),
  known: new Uint8Array(0),
});

/** A table with no rows (nothing indexed yet). */
export function emptyHistory(): HistoryArrays {
  return {
    tip: "",
    count: 0,
    ops: [],
    other: [],
    days: [],
    oid: new Uint8Array(0),
    ct: new Float64Array(0),
    at: new Float64Array(0),
    op: new Uint32Array(0),
    po: new Uint32Array(1),
    pr: new Int32Array(0),
    touch: Array.from({ length: GROUPS }, emptyTouch),
    facts: {
      keys: new Float64Array(0),
      closedAt: new Float64Array(0),
      off: new Uint32Array(1),
      hours: new Float64Array(0),
    },
    ...IN_MEMORY,
  };
}

/** A key's touches: the rows touching it, oldest first, with the record's versions. */
export type TouchList = Array<[number, Versions]>;

/** Per group, the keys in order with their rows and versions (offsets + values); other keys by name. */
export function packTouch(lists: Map<string, TouchList>): Pick<HistoryArrays, "touch" | "other"> {
  const groups: Array<Array<[number, TouchList]>> = Array.from({ length: GROUPS - 1 }, () => []);
  const other: Array<[string, TouchList]> = [];
  for (const [key, rows] of lists) {
    const g = keyGroup(key);
    if (g) groups[g[0]]!.push([g[1], rows]);
    else other.push([key, rows]);
  }
  other.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const pack = (entries: Array<[number, TouchList]>) => {
    entries.sort((a, b) => a[0] - b[0]);
    const off = new Uint32Array(entries.length + 1);
    let total = 0;
    entries.forEach(([, rows], i) => {
      off[i + 1] = total += rows.length;
    });
    const rows = new Int32Array(total);
    const blobs = new Uint8Array(total * 40);
    const known = new Uint8Array(total);
    let j = 0;
    for (const [, list] of entries)
      for (const [row, v] of list) {
        rows[j] = row;
        if (v) {
          known[j] = 1;
          if (v[0]) blobs.set(Buffer.from(v[0], "hex"), j * 40);
          if (v[1]) blobs.set(Buffer.from(v[1], "hex"), j * 40 + 20);
        }
        j++;
      }
    return { keys: Float64Array.from(entries, (e) => e[0]), off, rows, blobs, known };
  };
  return {
    touch: [...groups.map(pack), pack(other.map(([, rows], i) => [i, rows]))],
    other: other.map(([k]) => k),
  };
}

/** Per task number with a close or a cycle, in ascending order: last close and cycle hours (offsets + values). */
export function packFacts(facts: Map<number, TaskFacts>): HistoryArrays["facts"] {
  const list = [...facts].filter(([, f]) => f.closedAt !== null || f.cycles.length > 0).sort((a, b) => a[0] - b[0]);
  const off = new Uint32Array(list.length + 1);
  let total = 0;
  list.forEach(([, f], i) => {
    off[i + 1] = total += f.cycles.length;
  });
  const hours = new Float64Array(total);
  list.forEach(([, f], i) => {
    hours.set(f.cycles, off[i]!);
  });
  return {
    keys: Float64Array.from(list, ([n]) => n),
    closedAt: Float64Array.from(list, ([, f]) => f.closedAt ?? NaN),
    off,
    hours,
  };
}
