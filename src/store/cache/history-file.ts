import { join } from "node:path";
import { cacheDir } from "./cache-files.js";
import { CACHE_VERSION } from "./cache-version.js";
import type { HistoryArrays, SectionName } from "./history-arrays.js";
import { historyChecksum } from "./history-checksum.js";
import { nodeCrypto } from "../../lazy-require.js";

/**
 * The history index as one binary file, `<common dir>/pantheon/cache/history-v<N>.bin`: a JSON
 * header (the commit it describes, the op and key tables, closings per day, where each section
 * lies and a checksum of each 4 KB block, history-checksum.ts), then typed-array sections:
 *
 *   oid  20 bytes a commit; rows are in history order, oldest first (the order `git log`
 *        lists them, reversed), so a row's number is its place
 *   ct, at  committer and author time (seconds, Float64)     op  index into `ops` (Uint32)
 *   po, pr  parents: offsets (Uint32, rows + 1) and rows (Int32, -1: not in the index)
 *   k0..k4, o0..o4, r0..r4  per group (tasks, epics, missions, reviews, other keys), the keys
 *       (numbers, Float64; the other keys are `other` in the header), offsets and the rows
 *       touching each key, oldest first
 *   b0..b4, v0..v4  per touch, the record's blob at the first parent and at the commit (40
 *       bytes, zeros: absent) and whether they are known (Uint8): `task history` reads blobs,
 *       not trees
 *   fk, fc, fo, fh  per task number: last close (ms, NaN: none), cycle offsets and hours
 *
 * A command reads only the blocks it asks for (`need`, history-reader.ts): `task history` one
 * task's touches and the ids of its rows (~15 blocks, 60 KB), the charts the facts, never the
 * whole file (11 MB at 100,000 commits). Written whole (history-writer.ts).
 * Local and disposable: native byte order; a header that fails a check, or a block whose
 * checksum does not match, marks the file bad (`bad`), and the index is rebuilt, never trusted.
 */
export const MAGIC = "PHI5";
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** How a file's blocks are checked: their size, and each one's checksum as the header keeps it. */
export interface Format {
  block: number;
  sum(bytes: Uint8Array): string;
  /** Block `b`'s checksum in the header's `sums` (null: the header's list is malformed). */
  saved(sums: unknown, b: number): string | null;
  /** Whether `sums` has one checksum per block of `blocks`. */
  fits(sums: unknown, blocks: number): boolean;
}

/** Hex digits of a block's checksum (history-checksum.ts). */
const SUM_HEX = 8;

/**
 * A `task history` reads about fifteen blocks of its task's rows and their commits' ids: at
 * 4 KB they are ~60 KB to read and check. The checksums are one string, 8 hex digits a block.
 */
export const CURRENT_FORMAT: Format = {
  block: 4 * 1024,
  sum: historyChecksum,
  saved: (sums, b) => (typeof sums === "string" ? sums.slice(b * SUM_HEX, (b + 1) * SUM_HEX) : null),
  fits: (sums, blocks) => typeof sums === "string" && sums.length === blocks * SUM_HEX,
};

/**
 * The file as written before (magic PHI4): 16 KB blocks, each the first 64 bits of its SHA-1.
 * Still read, and written again in the current format once (history-index.ts), so a clone that
 * upgrades keeps its index instead of walking its whole history again (~25 s at 100,000 commits).
 */
const LEGACY: Format = {
  block: 16 * 1024,
  sum: (bytes) => nodeCrypto().createHash("sha1").update(bytes).digest("hex").slice(0, 16),
  saved: (sums, b) => (Array.isArray(sums) && typeof sums[b] === "string" ? sums[b] : null),
  fits: (sums, blocks) => Array.isArray(sums) && sums.length === blocks,
};
export const FORMATS = new Map<string, Format>([
  [MAGIC, CURRENT_FORMAT],
  ["PHI4", LEGACY],
]);

/** The file's path in the cache directory; its name carries the cache's version. */
export function historyFile(commonDir: string): string {
  return join(cacheDir(commonDir), `history-v${CACHE_VERSION}.bin`);
}

/** A section's elements, as the arrays hold them. */
export type View = Float64Array | Uint32Array | Int32Array | Uint8Array;

/** The sections in file order, each with its array. */
export function sections(a: HistoryArrays): Array<[SectionName, View]> {
  const out: Array<[SectionName, View]> = [
    ["oid", a.oid],
    ["ct", a.ct],
    ["at", a.at],
    ["op", a.op],
    ["po", a.po],
    ["pr", a.pr],
  ];
  a.touch.forEach((t, g) => {
    out.push([`k${g}`, t.keys], [`o${g}`, t.off], [`r${g}`, t.rows], [`b${g}`, t.blobs], [`v${g}`, t.known]);
  });
  out.push(["fk", a.facts.keys], ["fc", a.facts.closedAt], ["fo", a.facts.off], ["fh", a.facts.hours]);
  return out;
}

/** Where a section lies in the file, as the header keeps it. */
export interface Place {
  /** Byte offset from the end of the header (a multiple of 8), byte length, each block's checksum (see Format). */
  at: number;
  bytes: number;
  sums: unknown;
}

/** The JSON header after the magic and its length. */
export interface HistoryHeader {
  le: boolean;
  tip: string;
  count: number;
  ops: string[];
  other: string[];
  days: Array<[string, number]>;
  sections: Record<string, Place>;
}
