import type { HistoryArrays } from "./history-arrays.js";
import { writeAtomic } from "./cache-files.js";
import {
  CURRENT_FORMAT,
  historyFile,
  LITTLE_ENDIAN,
  MAGIC,
  sections,
  type HistoryHeader,
  type Place,
} from "./history-file.js";

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
    for (let b = 0; b < v.byteLength; b += CURRENT_FORMAT.block)
      sums += CURRENT_FORMAT.sum(bytes.subarray(b, b + CURRENT_FORMAT.block));
    places[name] = { at, bytes: v.byteLength, sums };
    at += Math.ceil(v.byteLength / 8) * 8;
  }
  const head: HistoryHeader = {
    le: LITTLE_ENDIAN,
    tip: a.tip,
    count: a.count,
    ops: a.ops,
    other: a.other,
    days: a.days,
    sections: places,
  };
  const header = Buffer.from(JSON.stringify(head));
  const start = Math.ceil((8 + header.length) / 8) * 8;
  const out = Buffer.alloc(start + at);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  for (const [name, v] of list) out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), start + places[name]!.at);
  return out;
}

/** Writes the index's file (a temporary name renamed over the old one); nothing when `a` was read from a damaged file. */
export function saveHistory(commonDir: string, a: HistoryArrays): void {
  const bytes = encodeHistory(a);
  if (bytes) writeAtomic(commonDir, historyFile(commonDir), bytes);
}
