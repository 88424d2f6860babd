/**
 * zlib streams made of stored (uncompressed) deflate blocks, as git writes loose objects with
 * `core.looseCompression 0`. Pantheon writes its objects this way and reads them back without
 * node:zlib, whose loading (with node:stream) costs ~3 ms of every command's start-up. Records
 * are small and `git gc` compresses them into packs anyway. A compressed stream (objects written
 * by git or by older versions) is left to node:zlib: `storedInflate` returns null for it.
 */

const MAX_BLOCK = 0xffff;

/** Adler-32 (RFC 1950), the zlib trailer. */
function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5552 bytes is the most that can be summed before b could exceed 2^32 (zlib's NMAX).
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** `data` as a zlib stream of stored blocks. */
export function storedDeflate(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / MAX_BLOCK));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + data.length + 4);
  // CMF 0x78 (deflate, 32K window), FLG 0x01: no dictionary, "fastest" level, and 0x7801 % 31 == 0.
  out[0] = 0x78;
  out[1] = 0x01;
  let o = 2;
  for (let i = 0, k = 0; k < blocks; k++, i += MAX_BLOCK) {
    const n = Math.min(MAX_BLOCK, data.length - i);
    out[o++] = k === blocks - 1 ? 1 : 0; // BFINAL on the last block, BTYPE 00 (stored)
    out.writeUInt16LE(n, o);
    out.writeUInt16LE(~n & 0xffff, o + 2);
    o += 4;
    out.set(data.subarray(i, i + n), o);
    o += n;
  }
  out.writeUInt32BE(adler32(data), o);
  return out;
}

/**
 * The content of a zlib stream made only of stored blocks; null when it has a compressed block
 * (the caller inflates it with node:zlib); throws on a malformed stream, a bad checksum or
 * content over `max` bytes.
 */
export function storedInflate(z: Uint8Array, max: number): Buffer | null {
  if (z.length < 2 || (z[0]! & 0x0f) !== 8 || ((z[0]! << 8) | z[1]!) % 31 !== 0) throw new Error("not a zlib stream");
  if (z[1]! & 0x20) return null; // a preset dictionary: not ours
  const parts: Uint8Array[] = [];
  let size = 0;
  let p = 2;
  for (;;) {
    if (p + 5 > z.length) throw new Error("truncated stream");
    const header = z[p]!;
    // A stored block's header byte is BFINAL plus BTYPE 00 and five padding bits, zero in practice.
    if ((header & 0x06) !== 0) return null;
    const n = z[p + 1]! | (z[p + 2]! << 8);
    if ((n ^ 0xffff) !== (z[p + 3]! | (z[p + 4]! << 8))) throw new Error("bad stored block length");
    p += 5;
    if (p + n > z.length) throw new Error("truncated stream");
    size += n;
    if (size > max) throw new Error(`content over ${max} bytes`);
    parts.push(z.subarray(p, p + n));
    p += n;
    if (header & 1) break;
  }
  const out = parts.length === 1 ? Buffer.from(parts[0]!) : Buffer.concat(parts, size);
  if (p + 4 > z.length || ((z[p]! << 24) | (z[p + 1]! << 16) | (z[p + 2]! << 8) | z[p + 3]!) >>> 0 !== adler32(out))
    throw new Error("bad checksum");
  return out;
}
