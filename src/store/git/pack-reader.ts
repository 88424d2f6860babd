/**
 * Reading objects out of git's packs (objects/pack/pack-*.idx and .pack, gitformat-pack(5)),
 * synchronously and without a library: after `git gc` or a fetch every record lives in a pack,
 * and loading isomorphic-git to read four objects cost a `task show` ~50 ms of its ~65.
 *
 * An index (version 2) is a fan-out table, the sorted object ids, their CRCs and their offsets
 * in the pack; an entry in the pack is a type and size header, then zlib data: the object, or a
 * delta against a base named by offset (OFS_DELTA) or by id (REF_DELTA). Anything this reader
 * does not know (index version 1, a SHA-256 pack, a corrupt entry) is a PackReadError: the
 * object db then looks again with a fresh listing (a concurrent repack) and finally asks git.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { PackReadError } from "../../errors.js";
import { lazyRequire } from "../../lazy-require.js";
import type { GitObject, ObjectType } from "./object-db.js";

const TYPES: Record<number, ObjectType> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** git's own default depth is 50; a longer chain is a corrupt or hostile pack. */
const MAX_CHAIN = 10_000;
const IDX_NAME = /^pack-[0-9a-f]{40}\.idx$/;

/** Blocks of the index read at a time: a lookup's binary search touches four or five. */
const IDX_BLOCK = 4096;

/**
 * A version 2 pack index (SHA-1 ids), read a block at a time: at 500,000 objects it is 14 MB,
 * and a command looks up a few dozen ids (reading it whole cost a `task show` ~10 ms in a
 * 100,000-commit history). The descriptor is kept open, so a repack that deletes the file
 * leaves this one readable; throws PackReadError on anything but version 2.
 */
class PackIndex {
  readonly count: number;
  private readonly fanout = new Uint32Array(256);
  private readonly blocks = new Map<number, Buffer>();
  private readonly offsetsAt: number;
  private readonly largeAt: number;
  private readonly largeEnd: number;

  constructor(private readonly fd: number) {
    const size = fstatSync(fd).size;
    const head = this.read(0, Math.min(size, 8 + 1024));
    if (size < 8 + 1024 + 40 || head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2)
      throw new PackReadError();
    for (let i = 0; i < 256; i++) this.fanout[i] = head.readUInt32BE(8 + i * 4);
    this.count = this.fanout[255]!;
    this.offsetsAt = 8 + 1024 + this.count * 24;
    this.largeAt = this.offsetsAt + this.count * 4;
    this.largeEnd = size - 40;
    if (this.largeAt > this.largeEnd) throw new PackReadError();
  }

  close(): void {
    closeSync(this.fd);
  }

  /** `len` bytes at `pos`, through the block cache. */
  private read(pos: number, len: number): Buffer {
    const first = Math.floor(pos / IDX_BLOCK);
    const last = Math.floor((pos + len - 1) / IDX_BLOCK);
    const parts: Buffer[] = [];
    for (let b = first; b <= last; b++) {
      let block = this.blocks.get(b);
      if (!block) {
        block = Buffer.allocUnsafe(IDX_BLOCK);
        let got = 0;
        while (got < IDX_BLOCK) {
          const n = readSync(this.fd, block, got, IDX_BLOCK - got, b * IDX_BLOCK + got);
          if (n <= 0) break;
          got += n;
        }
        block = block.subarray(0, got);
        this.blocks.set(b, block);
      }
      parts.push(block);
    }
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const from = pos - first * IDX_BLOCK;
    if (from + len > all.length) throw new PackReadError();
    return all.subarray(from, from + len);
  }

  /** The pack offset of `id` (20 bytes), or -1. */
  find(id: Buffer): number {
    let lo = id[0]! === 0 ? 0 : this.fanout[id[0]! - 1]!;
    let hi = this.fanout[id[0]!]!;
    if (lo > hi || hi > this.count) throw new PackReadError();
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // Compares the index's id at `mid` with the one sought.
      const c = this.read(8 + 1024 + mid * 20, 20).compare(id, 0, 20);
      if (c === 0) {
        const off = this.read(this.offsetsAt + mid * 4, 4).readUInt32BE(0);
        if (!(off & 0x80000000)) return off;
        const at = this.largeAt + (off & 0x7fffffff) * 8;
        if (at + 8 > this.largeEnd) throw new PackReadError();
        return Number(this.read(at, 8).readBigUInt64BE(0));
      }
      if (c > 0) hi = mid;
      else lo = mid + 1;
    }
    return -1;
  }
}

/**
 * Applies a git delta (gitformat-pack(5), "Deltified representation") to `base`; the result's
 * declared size is checked against `maxBytes` before anything is allocated for it.
 */
export function applyDelta(base: Buffer, delta: Buffer, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  let pos = 0;
  const varint = (): number => {
    let n = 0;
    let shift = 0;
    for (;;) {
      if (pos >= delta.length || shift > 49) throw new PackReadError();
      const b = delta[pos++]!;
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return n;
    }
  };
  if (varint() !== base.length) throw new PackReadError();
  const size = varint();
  if (size > maxBytes)
    throw new PackReadError(`a delta declares a result of ${size} bytes, over the ${maxBytes}-byte limit`);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  while (pos < delta.length) {
    const op = delta[pos++]!;
    if (op & 0x80) {
      // Copy from the base: offset and size bytes are present only where op's bits say so.
      let offset = 0;
      let length = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[pos++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) length += delta[pos++]! * 2 ** (8 * i);
      if (length === 0) length = 0x10000;
      if (pos > delta.length || offset + length > base.length || at + length > size) throw new PackReadError();
      base.copy(out, at, offset, offset + length);
      at += length;
    } else if (op > 0) {
      // Insert the next `op` bytes of the delta itself.
      if (pos + op > delta.length || at + op > size) throw new PackReadError();
      delta.copy(out, at, pos, pos + op);
      at += op;
      pos += op;
    } else {
      throw new PackReadError(); // opcode 0 is reserved
    }
  }
  if (at !== size) throw new PackReadError();
  return out;
}

class Pack {
  private fd: number | null = null;
  private size = 0;
  /** Objects already rebuilt, by offset: a chain's bases are shared by its neighbours. */
  private readonly made = new Map<number, GitObject>();

  constructor(
    readonly path: string,
    readonly index: PackIndex,
    private readonly maxBytes: number,
  ) {}

  private open(): number {
    if (this.fd === null) {
      this.fd = openSync(this.path, "r");
      this.size = fstatSync(this.fd).size;
    }
    return this.fd;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.index.close();
  }

  private bytes(at: number, length: number): Buffer {
    const fd = this.open();
    const n = Math.max(0, Math.min(length, this.size - 20 - at));
    const buf = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const r = readSync(fd, buf, got, n - got, at + got);
      if (r <= 0) break;
      got += r;
    }
    return buf.subarray(0, got);
  }

  /**
   * The object at `offset`; `byId` resolves a REF_DELTA's base (in this pack or any other).
   * Delta chains are followed iteratively: a hostile pack cannot exhaust the stack.
   */
  read(offset: number, byId: (id: Buffer) => GitObject | null): GitObject {
    const chain: Buffer[] = [];
    let at = offset;
    let base: GitObject | null = null;
    for (let depth = 0; base === null; depth++) {
      if (depth > MAX_CHAIN) throw new PackReadError();
      const known = this.made.get(at);
      if (known) {
        base = known;
        break;
      }
      const head = this.bytes(at, 32);
      let pos = 0;
      let c = head[pos++];
      if (c === undefined) throw new PackReadError();
      const type = (c >> 4) & 7;
      let size = c & 15;
      let shift = 4;
      while (c! & 0x80) {
        c = head[pos++];
        if (c === undefined || shift > 49) throw new PackReadError();
        size += (c & 0x7f) * 2 ** shift;
        shift += 7;
      }
      // Refused before anything is read or allocated for it: a header may claim gigabytes.
      if (size > this.maxBytes)
        throw new PackReadError(`an entry declares ${size} bytes, over the ${this.maxBytes}-byte limit`);
      let next = -1;
      let baseId: Buffer | null = null;
      if (type === OFS_DELTA) {
        c = head[pos++];
        if (c === undefined) throw new PackReadError();
        let back = c & 0x7f;
        while (c! & 0x80) {
          c = head[pos++];
          if (c === undefined) throw new PackReadError();
          back = (back + 1) * 128 + (c & 0x7f);
        }
        next = at - back;
        // A base is always earlier in the pack: one at or after the delta is a loop, not a chain.
        if (next < 12 || next >= at)
          throw new PackReadError("an offset delta names itself or a later entry as its base");
      } else if (type === REF_DELTA) {
        baseId = this.bytes(at + pos, 20);
        if (baseId.length !== 20) throw new PackReadError();
        pos += 20;
      } else if (!TYPES[type]) {
        throw new PackReadError();
      }
      const data = this.inflate(at + pos, size);
      if (type === OFS_DELTA || type === REF_DELTA) {
        chain.push(data);
        if (baseId) {
          base = byId(baseId);
          if (!base) throw new PackReadError();
        } else at = next;
      } else {
        base = { type: TYPES[type]!, content: data };
        if (chain.length === 0) return this.remember(offset, base);
      }
    }
    let content = base.content;
    for (let i = chain.length - 1; i >= 0; i--) content = applyDelta(content, chain[i]!, this.maxBytes);
    if (content.length > this.maxBytes) throw new PackReadError();
    return this.remember(offset, { type: base.type, content });
  }

  private remember(offset: number, obj: GitObject): GitObject {
    // Bases are kept for the command's life, within reason (a state's objects are small).
    if (this.made.size < 4096) this.made.set(offset, obj);
    return obj;
  }

  /** Inflates the zlib stream at `at` whose output is `size` bytes. */
  private inflate(at: number, size: number): Buffer {
    // Deflate never grows data by more than 5 bytes per 16 KB block plus its header and
    // trailer: that much input holds the whole stream (what follows it is ignored).
    const raw = this.bytes(at, size + 5 * Math.ceil(size / 16_000) + 64);
    const zlib = lazyRequire("node:zlib") as typeof import("node:zlib");
    let out: Buffer;
    try {
      out = zlib.inflateSync(raw, { maxOutputLength: Math.max(size, 1) });
    } catch {
      throw new PackReadError();
    }
    if (out.length !== size) throw new PackReadError();
    return out;
  }
}

/** Every pack of one objects dir, listed on first need; `forget` lists them afresh next time. */
export class PackReader {
  private packs: Pack[] | null = null;

  constructor(
    private readonly objectsDir: string,
    private readonly maxBytes: number,
  ) {}

  forget(): void {
    for (const p of this.packs ?? []) p.close();
    this.packs = null;
  }

  private list(): Pack[] {
    if (this.packs) return this.packs;
    const dir = join(this.objectsDir, "pack");
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => IDX_NAME.test(n));
    } catch {
      names = []; // no pack directory: nothing packed
    }
    const packs: Pack[] = [];
    for (const name of names) {
      let fd: number;
      try {
        fd = openSync(join(dir, name), "r");
      } catch (e) {
        // Deleted by a repack between the listing and now: the next listing will not name it.
        if ((e as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw new PackReadError();
      }
      let index: PackIndex;
      try {
        index = new PackIndex(fd);
      } catch {
        closeSync(fd);
        throw new PackReadError();
      }
      packs.push(new Pack(join(dir, name.replace(/\.idx$/, ".pack")), index, this.maxBytes));
    }
    this.packs = packs;
    return packs;
  }

  /** The object, or null when no pack here has it; PackReadError when a pack cannot be read. */
  read(oid: string): GitObject | null {
    return this.readId(Buffer.from(oid, "hex"), []);
  }

  /** `path`: the ids whose delta led here, each naming the next as its base. */
  private readId(id: Buffer, path: string[]): GitObject | null {
    // REF_DELTA bases named by id, each maybe a delta again. One met again on the way is a
    // cycle (a delta naming itself, or two naming each other), which git itself would follow
    // for ever: refused at once, naming it.
    const hex = id.toString("hex");
    if (path.includes(hex))
      throw new PackReadError(
        path.at(-1) === hex
          ? `the delta of ${hex} names itself as its base`
          : `the deltas of ${[...path.slice(path.indexOf(hex)), hex].join(" → ")} form a cycle`,
      );
    if (path.length > 1000) throw new PackReadError("a chain of deltas by id over 1,000 deep");
    for (const pack of this.list()) {
      const offset = pack.index.find(id);
      if (offset < 0) continue;
      try {
        return pack.read(offset, (base) => this.readId(base, [...path, hex]));
      } catch (e) {
        // The pack file went away under a repack (its index was listed first): look again.
        if (e instanceof PackReadError) throw e;
        throw new PackReadError();
      }
    }
    return null;
  }
}
