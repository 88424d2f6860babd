import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { testEnv } from "./env.js";

/**
 * Packs no git would write, built byte by byte (gitformat-pack(5)): a delta that names itself as
 * its base, two that name each other, an entry that declares gigabytes. `git index-pack` refuses
 * them (it cannot resolve a cycle), so the index (version 2) is written here too, as a shared
 * repository's files would hold it when someone with write access to them put it there.
 */

export interface PackEntry {
  /** The id the index gives the entry (nothing checks it: that is the point). */
  oid: string;
  /** 1 commit, 2 tree, 3 blob, 4 tag, 6 offset delta, 7 delta by id. */
  type: 1 | 2 | 3 | 4 | 6 | 7;
  /** The size the entry's header declares (the inflated data's, for an honest entry). */
  size: number;
  /** The bytes deflated into the entry. */
  data: Buffer;
  /** Type 7: the base's id. */
  base?: string;
  /** Type 6: how many bytes back the base starts (0: the entry itself). */
  back?: number;
}

function header(type: number, size: number): Buffer {
  const out: number[] = [];
  let c = (type << 4) | (size % 16);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out.push(c | 0x80);
    c = rest % 128;
    rest = Math.floor(rest / 128);
  }
  out.push(c);
  return Buffer.from(out);
}

/** The offset encoding of an OFS_DELTA's distance (big-endian, each continuation adds one). */
function offsetBytes(back: number): Buffer {
  const out = [back & 0x7f];
  let rest = Math.floor(back / 128);
  while (rest > 0) {
    rest -= 1;
    out.unshift(0x80 | (rest & 0x7f));
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(out);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

/** A delta from a base of `sourceSize` bytes to `targetSize` bytes that inserts `insert`. */
export function deltaData(sourceSize: number, targetSize: number, insert: Buffer): Buffer {
  return Buffer.concat([varint(sourceSize), varint(targetSize), Buffer.from([insert.length]), insert]);
}

/** Writes `pack-<sum>.pack` and its `.idx` into `packDir`; returns the pack's path. */
export function writePack(packDir: string, entries: PackEntry[]): string {
  const head = Buffer.alloc(12);
  head.write("PACK");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(entries.length, 8);
  const parts = [head];
  let at = 12;
  const rows: Array<{ oid: string; offset: number; crc: number }> = [];
  for (const e of entries) {
    const bytes = Buffer.concat([
      header(e.type, e.size),
      e.type === 7 ? Buffer.from(e.base!, "hex") : Buffer.alloc(0),
      e.type === 6 ? offsetBytes(e.back!) : Buffer.alloc(0),
      deflateSync(e.data),
    ]);
    rows.push({ oid: e.oid, offset: at, crc: crc32(bytes) });
    parts.push(bytes);
    at += bytes.length;
  }
  const body = Buffer.concat(parts);
  const sum = createHash("sha1").update(body).digest();
  rows.sort((a, b) => a.oid.localeCompare(b.oid));
  const fanout = Buffer.alloc(1024);
  for (let i = 0; i < 256; i++)
    fanout.writeUInt32BE(rows.filter((r) => parseInt(r.oid.slice(0, 2), 16) <= i).length, i * 4);
  const crcs = Buffer.alloc(rows.length * 4);
  const offsets = Buffer.alloc(rows.length * 4);
  rows.forEach((r, i) => {
    crcs.writeUInt32BE(r.crc >>> 0, i * 4);
    offsets.writeUInt32BE(r.offset, i * 4);
  });
  const idx = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    fanout,
    ...rows.map((r) => Buffer.from(r.oid, "hex")),
    crcs,
    offsets,
    sum,
  ]);
  const name = join(packDir, `pack-${sum.toString("hex")}`);
  writeFileSync(`${name}.pack`, Buffer.concat([body, sum]));
  writeFileSync(`${name}.idx`, Buffer.concat([idx, createHash("sha1").update(idx).digest()]));
  return `${name}.pack`;
}

const SMALL = deltaData(5, 5, Buffer.from("hello"));
/** An id that no real object has, for the second member of a cycle. */
export const OTHER = "2222222222222222222222222222222222222222";

export type Hostility = "self" | "cycle" | "huge";

/** The entries that make `oid` unreadable the given way. */
export function hostileEntries(oid: string, kind: Hostility): PackEntry[] {
  if (kind === "self") return [{ oid, type: 7, size: SMALL.length, data: SMALL, base: oid }];
  if (kind === "cycle")
    return [
      { oid, type: 7, size: SMALL.length, data: SMALL, base: OTHER },
      { oid: OTHER, type: 7, size: SMALL.length, data: SMALL, base: oid },
    ];
  // A blob whose header declares 4 GiB (its data is five bytes).
  return [{ oid, type: 3, size: 4 * 2 ** 30, data: Buffer.from("hello") }];
}

function gitIn(gitDir: string, args: string[], input?: string): string {
  return execFileSync("git", [`--git-dir=${gitDir}`, ...args], {
    env: testEnv(),
    encoding: "utf8",
    input,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });
}

/**
 * Rewrites `gitDir`'s objects as one honest pack of everything but `oid`, plus a hostile pack
 * holding `oid`: what a reader of that repository (or of a clone borrowing its objects) meets.
 */
export function plantHostileObject(gitDir: string, oid: string, kind: Hostility): void {
  const objects = join(gitDir, "objects");
  const keep = gitIn(gitDir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"])
    .split("\n")
    .filter((l) => /^[0-9a-f]{40}$/.test(l) && l !== oid);
  const packDir = join(objects, "pack");
  const old = readdirSync(packDir).map((f) => join(packDir, f));
  gitIn(gitDir, ["pack-objects", "-q", join(packDir, "pack")], `${keep.join("\n")}\n`);
  for (const f of old) rmSync(f);
  for (const d of readdirSync(objects)) if (/^[0-9a-f]{2}$/.test(d)) rmSync(join(objects, d), { recursive: true });
  writePack(packDir, hostileEntries(oid, kind));
}

/**
 * Samples /proc every few milliseconds while `run` runs: the highest peak resident memory
 * (VmHWM) of any git process working under `root` (by its command line or its directory).
 */
export async function gitPeakRss<T>(root: string, run: () => Promise<T>): Promise<{ result: T; peakBytes: number }> {
  let peak = 0;
  const sample = () => {
    for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1");
        if (!/(^|\/)git(-[a-z-]+)?\0/.test(cmd)) continue;
        let cwd = "";
        try {
          cwd = readlinkSync(`/proc/${pid}/cwd`);
        } catch {
          // gone
        }
        if (!cmd.includes(root) && !cwd.startsWith(root)) continue;
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
      } catch {
        // ended between the listing and the read
      }
    }
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await run();
    return { result, peakBytes: peak };
  } finally {
    clearInterval(timer);
  }
}
