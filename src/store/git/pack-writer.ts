/**
 * Writing many objects as one pack (DESIGN §2.4a: a bulk import is written as a pack): 100,000
 * loose files cost an import ~10 s of opens, renames and links, a hundred megabytes of disk
 * blocks, and git's auto gc a warning on every later command. The pack and its version 2 index
 * (gitformat-pack(5)) are written here, without git, one entry at a time: only the ids, offsets
 * and CRCs are held, never the objects.
 *
 * Beside a concurrent `git gc`: the pack is written under a temporary name in Pantheon's keep
 * dir (`objects/pantheon/`, where no prune sweeps temporary files), then moved into
 * `objects/pack/` with a `.keep` file made first, as `git index-pack --keep` does for a fetch:
 * `git repack -a -d` neither deletes a kept pack nor drops its (still unreachable) objects. Once
 * the compare-and-swap has landed (or failed) `settle` removes the `.keep` (or the pack). A
 * killed writer's temporary files and `.keep` files are removed by the next pack written an hour
 * later (`sweepStalePacks`).
 */
import * as fs from "node:fs";
import { join } from "node:path";
import { GitError } from "../../errors.js";
import { lazyRequire, nodeCrypto } from "../../lazy-require.js";
import { randomBytes } from "../../random-bytes.js";
import { KEEP_DIR } from "./loose-writer.js";
import type { ObjectDb, ObjectType } from "./object-db.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "./shared-perm.js";

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
/** Entries are gathered into writes of about this size. */
const FLUSH_BYTES = 1 << 20;
/** What a `.keep` file of ours starts with: a sweep removes only these. */
const KEEP_MARK = "pantheon";
/** A temporary file or `.keep` this old was left by a killed writer (an import takes seconds). */
const STALE_MS = 60 * 60_000;

export interface WrittenPack {
  /** objects/pack/pack-<sha>.pack */
  pack: string;
  idx: string;
  keep: string;
  count: number;
}

export class PackWriter {
  /**
   * Each object's id, offset and CRC, by position. Ids stay strings: a 20-byte Buffer each
   * would pin an 8 KB slab of Node's buffer pool apiece (~50 MB at 100,000 objects).
   */
  private readonly seen = new Set<string>();
  private readonly ids: string[] = [];
  private offsets = new Float64Array(1024);
  private crcs = new Uint32Array(1024);
  private readonly tmpPack: string;
  private readonly fd: number;
  private offset = 12;
  /**
   * Entries are copied here and written a megabyte at a time. Never kept as they come: zlib's
   * output is a slice of a 16 KB buffer, so holding a megabyte of them pinned ~50 MB.
   */
  private readonly staging = Buffer.allocUnsafeSlow(FLUSH_BYTES);
  private staged = 0;
  private written: WrittenPack | null = null;
  private readonly zlib = lazyRequire("node:zlib") as typeof import("node:zlib");

  constructor(
    readonly objectsDir: string,
    private readonly commonDir: string,
    private readonly hash: (type: ObjectType, content: Buffer) => string,
  ) {
    const keepDir = join(objectsDir, KEEP_DIR);
    mkdirShared(keepDir, sharedPermOf(commonDir));
    sweepStalePacks(objectsDir);
    this.tmpPack = join(keepDir, `tmp_pack_${process.pid}_${randomBytes(6).toString("hex")}`);
    this.fd = fs.openSync(this.tmpPack, "wx+", 0o444);
    // The object count is known only at the end: written then, before the checksum is taken.
    fs.writeSync(this.fd, Buffer.from([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 0]));
  }

  /** Objects added so far. */
  get count(): number {
    return this.ids.length;
  }

  /** Adds an object (once: a second add of the same id is a no-op) and returns its id. */
  add(type: ObjectType, content: Buffer): string {
    if (this.written) throw new Error("pack already finished");
    const oid = this.hash(type, content);
    if (this.seen.has(oid)) return oid;
    const header = entryHeader(TYPE_CODE[type], content.length);
    const data = this.zlib.deflateSync(content);
    const i = this.ids.length;
    if (i === this.crcs.length) {
      const [offsets, crcs] = [new Float64Array(2 * i), new Uint32Array(2 * i)];
      offsets.set(this.offsets);
      crcs.set(this.crcs);
      [this.offsets, this.crcs] = [offsets, crcs];
    }
    this.seen.add(oid);
    this.ids.push(oid);
    this.offsets[i] = this.offset;
    this.crcs[i] = this.zlib.crc32(data, this.zlib.crc32(header));
    this.push(header);
    this.push(data);
    return oid;
  }

  private push(b: Buffer): void {
    if (this.staged + b.length > this.staging.length) this.flush();
    if (b.length > this.staging.length) fs.writeSync(this.fd, b, 0, b.length, this.offset);
    else this.staged += b.copy(this.staging, this.staged);
    this.offset += b.length;
  }

  private flush(): void {
    if (this.staged === 0) return;
    fs.writeSync(this.fd, this.staging, 0, this.staged, this.offset - this.staged);
    this.staged = 0;
  }

  /**
   * Completes the pack (count, checksum, index) and moves it into objects/pack/ with a `.keep`
   * file, so git reads its objects from now on and no repack drops them before the ref names
   * them. Returns where it lies.
   */
  finish(): WrittenPack {
    if (this.written) return this.written;
    try {
      this.flush();
      const count = Buffer.alloc(4);
      count.writeUInt32BE(this.ids.length);
      fs.writeSync(this.fd, count, 0, 4, 8);
      const sum = this.checksum();
      fs.writeSync(this.fd, sum, 0, 20, this.offset);
      fs.closeSync(this.fd);
      const idx = this.index(sum);
      const name = sum.toString("hex");
      const perm = sharedPermOf(this.commonDir);
      const packDir = join(this.objectsDir, "pack");
      mkdirShared(packDir, perm);
      const tmpIdx = `${this.tmpPack}.idx`;
      fs.writeFileSync(tmpIdx, idx, { flag: "wx", mode: 0o444 });
      adjustSharedPerm(tmpIdx, perm);
      adjustSharedPerm(this.tmpPack, perm);
      const base = join(packDir, `pack-${name}`);
      const written = { pack: `${base}.pack`, idx: `${base}.idx`, keep: `${base}.keep`, count: this.ids.length };
      // The .keep first and the index last: git sees a pack once its index is there.
      fs.writeFileSync(written.keep, `${KEEP_MARK} ${process.pid}: not yet named by the state ref\n`, { mode: 0o644 });
      adjustSharedPerm(written.keep, perm);
      fs.renameSync(this.tmpPack, written.pack);
      fs.renameSync(tmpIdx, written.idx);
      this.written = written;
      return written;
    } catch (err) {
      this.abandon();
      throw new GitError(
        "E_GIT_WRITE_OBJECT",
        `Cannot write a pack of ${this.ids.length} objects: ${(err as Error).message}`,
        "check permissions and free space in .git/objects",
      );
    }
  }

  /** The SHA-1 of everything written, read back (the count was written last, into the header). */
  private checksum(): Buffer {
    const sha = nodeCrypto().createHash("sha1");
    const buf = Buffer.allocUnsafe(FLUSH_BYTES);
    for (let at = 0; at < this.offset; ) {
      const n = fs.readSync(this.fd, buf, 0, Math.min(buf.length, this.offset - at), at);
      if (n <= 0) throw new Error("pack file shorter than written");
      sha.update(buf.subarray(0, n));
      at += n;
    }
    return sha.digest();
  }

  /** The version 2 index: fan-out, sorted ids, CRCs, offsets (large ones in a table of their own). */
  private index(packSum: Buffer): Buffer {
    // Lower-case hex orders as the bytes it spells.
    const order = Array.from(this.ids.keys()).sort((a, b) => (this.ids[a]! < this.ids[b]! ? -1 : 1));
    const n = order.length;
    const large = order.filter((i) => this.offsets[i]! >= 0x80000000);
    const out = Buffer.alloc(8 + 1024 + n * 28 + large.length * 8 + 40);
    out.writeUInt32BE(0xff744f63, 0);
    out.writeUInt32BE(2, 4);
    const fanout = new Uint32Array(256);
    for (const i of order) fanout[Number.parseInt(this.ids[i]!.slice(0, 2), 16)]!++;
    for (let b = 0, sum = 0; b < 256; b++) out.writeUInt32BE((sum += fanout[b]!), 8 + b * 4);
    let at = 8 + 1024;
    for (const i of order) at += out.write(this.ids[i]!, at, 20, "hex");
    for (const i of order) at = out.writeUInt32BE(this.crcs[i]!, at);
    let li = 0;
    for (const i of order)
      at = out.writeUInt32BE(this.offsets[i]! >= 0x80000000 ? (0x80000000 | li++) >>> 0 : this.offsets[i]!, at);
    for (const i of large) at = out.writeBigUInt64BE(BigInt(this.offsets[i]!), at);
    at += packSum.copy(out, at);
    nodeCrypto().createHash("sha1").update(out.subarray(0, at)).digest().copy(out, at);
    return out;
  }

  /**
   * After the compare-and-swap: landed, the `.keep` goes (the ref names the objects now and gc
   * may repack them); not landed, the pack goes (nothing names its objects).
   */
  settle(landed: boolean): void {
    if (!this.written) return this.abandon();
    const w = this.written;
    const files = landed ? [w.keep] : [w.idx, w.pack, w.keep];
    for (const f of files) fs.rmSync(f, { force: true });
  }

  /** Removes the temporary files of a pack that was never finished. */
  abandon(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // closed already
    }
    for (const f of [this.tmpPack, `${this.tmpPack}.idx`]) fs.rmSync(f, { force: true });
  }
}

/** An entry's header: type and size, 4 bits then 7 per byte (gitformat-pack(5)). */
function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let c = (type << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    bytes.push(c | 0x80);
    c = size & 0x7f;
    size = Math.floor(size / 128);
  }
  bytes.push(c);
  return Buffer.from(bytes);
}

/**
 * Removes what a killed pack writer left: its temporary files in the keep dir, and `.keep` files
 * of ours in objects/pack/ (its pack is then an ordinary pack: gc keeps what the ref names and
 * prunes the rest). Only files older than STALE_MS: a writer still running is never touched.
 */
export function sweepStalePacks(objectsDir: string): string[] {
  const removed: string[] = [];
  const cutoff = Date.now() - STALE_MS;
  const old = (path: string) => {
    try {
      return fs.statSync(path).mtimeMs < cutoff;
    } catch {
      return false;
    }
  };
  const list = (dir: string) => {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  };
  const keepDir = join(objectsDir, KEEP_DIR);
  for (const f of list(keepDir)) if (f.startsWith("tmp_pack_") && old(join(keepDir, f))) removed.push(join(keepDir, f));
  const packDir = join(objectsDir, "pack");
  for (const f of list(packDir)) {
    const path = join(packDir, f);
    if (!/^pack-[0-9a-f]{40}\.keep$/.test(f) || !old(path)) continue;
    try {
      if (fs.readFileSync(path, "utf8").startsWith(`${KEEP_MARK} `)) removed.push(path);
    } catch {
      // gone meanwhile
    }
  }
  for (const f of removed) fs.rmSync(f, { force: true });
  return removed;
}

/**
 * A pack opened on first use, for one attempt of a mutation: its records' blobs go in as they
 * are put once there are many, then its trees and commit (`target`), and `settle` follows the
 * compare-and-swap.
 */
export class LazyPack {
  private writer: PackWriter | null = null;

  constructor(private readonly db: ObjectDb) {}

  /** The pack, opened now if it was not. */
  open(): PackWriter {
    this.writer ??= new PackWriter(this.db.objectsDir, this.db.commonDir, (t, c) => this.db.hash(t, c));
    return this.writer;
  }

  get opened(): PackWriter | null {
    return this.writer;
  }

  /**
   * Where a commit's objects go: into the pack when one is open (trees and the commit, encoded
   * by the object engine and read back by this command, are remembered by the db; blobs are
   * not), else the db's loose files.
   */
  target(): Pick<ObjectDb, "readTree" | "write" | "writeTree" | "writeCommit"> {
    const pack = this.writer;
    if (!pack) return this.db;
    const write = async (type: ObjectType, content: Buffer) => {
      const oid = pack.add(type, content);
      if (type !== "blob") this.db.remember(oid, { type, content });
      return oid;
    };
    return {
      readTree: (oid) => this.db.readTree(oid),
      write,
      writeTree: async (entries) => write("tree", await this.db.encodeTree(entries)),
      writeCommit: async (c) => write("commit", await this.db.encodeCommit(c)),
    };
  }

  settle(landed: boolean): void {
    this.writer?.settle(landed);
  }
}
