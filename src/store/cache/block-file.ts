import { closeSync, openSync, readSync } from "node:fs";
import { ContentionError } from "../../errors.js";

const BLOCK = 64 * 1024;

/**
 * A file read block by block, on demand: a page of 50 titles out of 50,000 reads one 64 KB block
 * of the titles file, not all 4 MB of it. The file is immutable (named by the commit it
 * describes), so blocks read at different times always agree.
 */
export class BlockFile {
  private data: Buffer | undefined;
  private loaded: Uint8Array | undefined;

  constructor(
    private readonly path: string,
    readonly size: number,
  ) {}

  /** `len` bytes at `pos` (a view into the block cache: copy it to keep it). */
  bytes(pos: number, len: number): Buffer {
    return this.ensure(pos, len).subarray(pos, pos + len);
  }

  /** Read without a view: a page of 50 rows reads 300 offsets, and each view is an allocation. */
  u32(pos: number): number {
    return this.ensure(pos, 4).readUInt32LE(pos);
  }

  /** The block cache, with the blocks holding `len` bytes at `pos` loaded. */
  private ensure(pos: number, len: number): Buffer {
    if (pos < 0 || pos + len > this.size) throw new RangeError(`${pos}+${len} is past the end of ${this.path}`);
    // Never pooled: offset 0, so views of it can be typed arrays.
    this.data ??= Buffer.allocUnsafeSlow(this.size);
    this.loaded ??= new Uint8Array(Math.ceil(this.size / BLOCK));
    const first = Math.floor(pos / BLOCK);
    const last = Math.floor((pos + Math.max(len, 1) - 1) / BLOCK);
    for (let b = first; b <= last; b++) {
      if (this.loaded[b]) continue;
      let end = b; // a run of missing blocks is read in one call
      while (end + 1 <= last && !this.loaded[end + 1]) end++;
      this.load(b, end);
      b = end;
    }
    return this.data;
  }

  private load(first: number, last: number): void {
    const start = first * BLOCK;
    const end = Math.min(this.size, (last + 1) * BLOCK);
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch {
      // Only a hand-deleted cache gets here: a rewrite keeps the old files for a minute.
      throw new ContentionError(
        `The read cache was removed while this command read it (${this.path})`,
        "run the command again",
      );
    }
    try {
      for (let at = start; at < end; ) {
        const got = readSync(fd, this.data!, at, end - at, at);
        if (got <= 0)
          throw new ContentionError(
            `The read cache file ${this.path} is shorter than it says`,
            "run the command again, or pantheon doctor --fix",
          );
        at += got;
      }
    } finally {
      closeSync(fd);
    }
    this.loaded!.fill(1, first, last + 1);
  }
}
