import { closeSync, openSync, readSync } from "node:fs";
import { GROUPS } from "./history-keys.js";
import type { HistoryArrays, SectionName } from "./history-arrays.js";
import {
  CURRENT_FORMAT,
  FORMATS,
  historyFile,
  LITTLE_ENDIAN,
  type HistoryHeader,
  type Place,
  type View,
} from "./history-file.js";

type Ctor = Float64ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

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
  const h = JSON.parse(text.toString("utf8")) as HistoryHeader;
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
    legacy: format !== CURRENT_FORMAT,
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
