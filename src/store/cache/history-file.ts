import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, writeAtomic } from "./cache-files.js";
import { CACHE_VERSION } from "./cache-version.js";
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
 * A command reads only the blocks it asks for (`need`): `task history` one task's touches and
 * the ids of its rows (~15 blocks, 60 KB), the charts the facts, never the whole file (11 MB at
 * 100,000 commits).
 * Local and disposable: native byte order; a header that fails a check, or a block whose
 * checksum does not match, marks the file bad (`bad`), and the index is rebuilt, never trusted.
 */
const MAGIC = "PHI5";
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
export const GROUPS = 5;

/** How a file's blocks are checked: their size, and each one's checksum as the header keeps it. */
interface Format {
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
const CURRENT: Format = {
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
const FORMATS = new Map<string, Format>([
  [MAGIC, CURRENT],
  ["PHI4", LEGACY],
]);

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

type View = Float64Array | Uint32Array | Int32Array | Uint8Array;
type Ctor = Float64ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

export function historyFile(commonDir: string): string {
  return join(cacheDir(commonDir), `history-v${CACHE_VERSION}.bin`);
}

function sections(a: HistoryArrays): Array<[SectionName, View]> {
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

interface Place {
  /** Byte offset from the end of the header (a multiple of 8), byte length, each block's checksum (see Format). */
  at: number;
  bytes: number;
  sums: unknown;
}

/** The file's bytes; null when a block of the file `a` was read from failed its check (nothing to write). */
export function encodeHistory(a: HistoryArrays): Buffer | null {
  for (const [name] of sections(a)) a.need(name);
  if (a.bad) return null;
  const list = sections(a);
  const places: Record<string, Place> = {};
  let at = 0;
  for (const [name, v] of list) {
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    let sums = "";
    for (let b = 0; b < v.byteLength; b += CURRENT.block) sums += CURRENT.sum(bytes.subarray(b, b + CURRENT.block));
    places[name] = { at, bytes: v.byteLength, sums };
    at += Math.ceil(v.byteLength / 8) * 8;
  }
  const header = Buffer.from(
    JSON.stringify({
      le: LITTLE_ENDIAN,
      tip: a.tip,
      count: a.count,
      ops: a.ops,
      other: a.other,
      days: a.days,
      sections: places,
    }),
  );
  const start = Math.ceil((8 + header.length) / 8) * 8;
  const out = Buffer.alloc(start + at);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  for (const [name, v] of list) out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), start + places[name]!.at);
  return out;
}

export function saveHistory(commonDir: string, a: HistoryArrays): void {
  const bytes = encodeHistory(a);
  if (bytes) writeAtomic(commonDir, historyFile(commonDir), bytes);
}

interface Header {
  le: boolean;
  tip: string;
  count: number;
  ops: string[];
  other: string[];
  days: Array<[string, number]>;
  sections: Record<string, Place>;
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const strings = (xs: unknown): xs is string[] => Array.isArray(xs) && xs.every((x) => typeof x === "string");

function readAt(fd: number, buf: Uint8Array, pos: number): boolean {
  for (let got = 0; got < buf.length; ) {
    const n = readSync(fd, buf, got, buf.length - got, pos + got);
    if (n <= 0) return false;
    got += n;
  }
  return true;
}

/**
 * The index as saved, its sections read on demand; null when it is missing, of another
 * version, or its header fails a check. The file stays open while the table uses it (a newer
 * save renames over it; this descriptor keeps reading the file it opened).
 */
export function loadHistory(commonDir: string): (HistoryArrays & { close(): void }) | null {
  let fd: number;
  try {
    fd = openSync(historyFile(commonDir), "r");
  } catch {
    return null;
  }
  try {
    const a = openHistory(fd);
    if (a) return a;
  } catch {
    // unreadable header: as if there were no file
  }
  closeSync(fd);
  return null;
}

function openHistory(fd: number): (HistoryArrays & { close(): void }) | null {
  const head = Buffer.alloc(8);
  if (!readAt(fd, head, 0)) return null;
  const format = FORMATS.get(head.toString("latin1", 0, 4));
  if (!format) return null;
  const blockBytes = format.block;
  const hlen = head.readUInt32LE(4);
  const text = Buffer.alloc(hlen);
  if (hlen > 64 << 20 || !readAt(fd, text, 8)) return null;
  const h = JSON.parse(text.toString("utf8")) as Header;
  const start = Math.ceil((8 + hlen) / 8) * 8;
  if (
    h?.le !== LITTLE_ENDIAN ||
    typeof h.tip !== "string" ||
    !/^[0-9a-f]{40}$/.test(h.tip) ||
    !isCount(h.count) ||
    h.count === 0 ||
    !strings(h.ops) ||
    !strings(h.other) ||
    !Array.isArray(h.days) ||
    !h.days.every((d) => Array.isArray(d) && typeof d[0] === "string" && isCount(d[1])) ||
    typeof h.sections !== "object" ||
    h.sections === null
  )
    return null;
  const C = h.count;
  // Each section's memory is taken when it is first read: a history reads four of thirty-seven.
  interface Lazy {
    place: Place;
    Type: Ctor;
    bytes: Uint8Array | null;
    loaded: Uint8Array;
    all: boolean;
    view: View | null;
  }
  const lazy = new Map<string, Lazy>();
  let bad = false;
  let open = true;
  const section = (name: SectionName, Type: Ctor, length?: number): Lazy => {
    const place = h.sections[name];
    if (
      !place ||
      !isCount(place.at) ||
      !isCount(place.bytes) ||
      place.at % 8 !== 0 ||
      place.bytes % Type.BYTES_PER_ELEMENT !== 0 ||
      (length !== undefined && place.bytes !== length * Type.BYTES_PER_ELEMENT) ||
      !format.fits(place.sums, Math.ceil(place.bytes / blockBytes))
    )
      throw new RangeError(`history index: section ${name}`);
    const s: Lazy = {
      place,
      Type,
      bytes: null,
      loaded: new Uint8Array(Math.ceil(place.bytes / blockBytes)),
      all: false,
      view: null,
    };
    lazy.set(name, s);
    return s;
  };
  const memory = (s: Lazy): Uint8Array => (s.bytes ??= new Uint8Array(s.place.bytes));
  const viewOf = <T extends View>(s: Lazy): T => (s.view ??= new s.Type(memory(s).buffer as ArrayBuffer)) as T;
  const elements = (s: Lazy) => s.place.bytes / s.Type.BYTES_PER_ELEMENT;
  const need = (name: SectionName, from = 0, to?: number) => {
    const s = lazy.get(name);
    if (!s || bad || s.all) return;
    const size = s.Type.BYTES_PER_ELEMENT;
    const first = Math.floor((from * size) / blockBytes);
    const end = Math.min(s.loaded.length, Math.ceil(((to ?? elements(s)) * size) / blockBytes));
    for (let b = first; b < end; b++) {
      if (s.loaded[b]) continue;
      const block = memory(s).subarray(b * blockBytes, (b + 1) * blockBytes);
      if (
        !open ||
        !readAt(fd, block, start + s.place.at + b * blockBytes) ||
        format.sum(block) !== format.saved(s.place.sums, b)
      ) {
        bad = true;
        return;
      }
      s.loaded[b] = 1;
    }
    if (from === 0 && to === undefined) s.all = true;
  };
  const touch = Array.from({ length: GROUPS }, (_, g) => {
    const keys = section(`k${g}`, Float64Array);
    const rows = section(`r${g}`, Int32Array);
    const off = section(`o${g}`, Uint32Array, elements(keys) + 1);
    const blobs = section(`b${g}`, Uint8Array, elements(rows) * 40);
    const known = section(`v${g}`, Uint8Array, elements(rows));
    return {
      get keys() {
        return viewOf<Float64Array>(keys);
      },
      get off() {
        return viewOf<Uint32Array>(off);
      },
      get rows() {
        return viewOf<Int32Array>(rows);
      },
      get blobs() {
        return viewOf<Uint8Array>(blobs);
      },
      get known() {
        return viewOf<Uint8Array>(known);
      },
    };
  });
  if (elements(lazy.get(`k${GROUPS - 1}`)!) !== h.other.length) return null;
  const fk = section("fk", Float64Array);
  const fc = section("fc", Float64Array, elements(fk));
  const fo = section("fo", Uint32Array, elements(fk) + 1);
  const fh = section("fh", Float64Array);
  const rows = {
    oid: section("oid", Uint8Array, C * 20),
    ct: section("ct", Float64Array, C),
    at: section("at", Float64Array, C),
    op: section("op", Uint32Array, C),
    po: section("po", Uint32Array, C + 1),
    pr: section("pr", Int32Array),
  };
  const a = {
    tip: h.tip,
    count: C,
    ops: h.ops,
    other: h.other,
    days: h.days,
    get oid() {
      return viewOf<Uint8Array>(rows.oid);
    },
    get ct() {
      return viewOf<Float64Array>(rows.ct);
    },
    get at() {
      return viewOf<Float64Array>(rows.at);
    },
    get op() {
      return viewOf<Uint32Array>(rows.op);
    },
    get po() {
      return viewOf<Uint32Array>(rows.po);
    },
    get pr() {
      return viewOf<Int32Array>(rows.pr);
    },
    touch,
    facts: {
      get keys() {
        return viewOf<Float64Array>(fk);
      },
      get closedAt() {
        return viewOf<Float64Array>(fc);
      },
      get off() {
        return viewOf<Uint32Array>(fo);
      },
      get hours() {
        return viewOf<Float64Array>(fh);
      },
    },
    need,
    get bad() {
      return bad;
    },
    legacy: format !== CURRENT,
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
  // The last row must be the commit the header names (a cheap check that the file is whole).
  need("oid", (C - 1) * 20, C * 20);
  if (bad || Buffer.from(a.oid.buffer, (C - 1) * 20, 20).toString("hex") !== h.tip) return null;
  return a;
}

/** Arrays made in memory: everything is there already. */
export const IN_MEMORY = { need: () => {}, bad: false } as const;
