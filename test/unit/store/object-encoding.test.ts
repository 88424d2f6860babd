import { createHash } from "node:crypto";
import { deflateSync, inflateSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { randomBytes, randomUid } from "../../../src/random-bytes.js";
import { sha1Hex } from "../../../src/store/git/sha1.js";
import { storedDeflate, storedInflate } from "../../../src/store/git/stored-deflate.js";

const sha1 = (b: Uint8Array) => createHash("sha1").update(b).digest("hex");

describe("sha1Hex", () => {
  it("matches node:crypto on every length around the 64-byte block and padding boundaries", () => {
    for (let n = 0; n <= 200; n++) {
      const b = Buffer.alloc(n, n % 251);
      expect(sha1Hex(b)).toBe(sha1(b));
    }
  });

  it("matches node:crypto on arbitrary bytes, including a 100 KB tree", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => sha1Hex(b) === sha1(b)));
    const big = randomBytes(100_000);
    expect(sha1Hex(big)).toBe(sha1(big));
  });

  it("gives git's id for the empty blob", () => {
    expect(sha1Hex(Buffer.from("blob 0\0"))).toBe("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  });
});

describe("storedDeflate / storedInflate", () => {
  it("writes streams node:zlib reads, and reads them back without it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (b) => {
        const z = storedDeflate(b);
        return inflateSync(z).equals(Buffer.from(b)) && storedInflate(z, 1 << 20)!.equals(Buffer.from(b));
      }),
    );
  });

  it("splits content over 65,535 bytes into several stored blocks", () => {
    const b = randomBytes(200_000);
    const z = storedDeflate(b);
    expect(inflateSync(z).equals(b)).toBe(true);
    expect(storedInflate(z, 1 << 20)!.equals(b)).toBe(true);
    expect(storedDeflate(Buffer.alloc(0)).length).toBe(11);
  });

  it("reads node:zlib's own level-0 output, and leaves compressed streams to node:zlib", () => {
    const text = Buffer.from("tree entries ".repeat(500));
    expect(storedInflate(deflateSync(text, { level: 0 }), 1 << 20)!.equals(text)).toBe(true);
    expect(storedInflate(deflateSync(text, { level: 1 }), 1 << 20)).toBeNull();
    expect(storedInflate(deflateSync(text, { level: 9 }), 1 << 20)).toBeNull();
  });

  it("refuses a corrupt stream, a bad checksum, a truncation and content over the limit", () => {
    const z = storedDeflate(Buffer.from("hello object"));
    expect(() => storedInflate(Buffer.from("not zlib"), 100)).toThrow(/not a zlib stream/);
    const badSum = Buffer.from(z);
    badSum[badSum.length - 1]! ^= 1;
    expect(() => storedInflate(badSum, 100)).toThrow(/bad checksum/);
    const badLen = Buffer.from(z);
    badLen[5]! ^= 1;
    expect(() => storedInflate(badLen, 100)).toThrow(/bad stored block length/);
    expect(() => storedInflate(z.subarray(0, z.length - 6), 100)).toThrow(/truncated/);
    expect(() => storedInflate(z, 5)).toThrow(/over 5 bytes/);
  });
});

describe("randomBytes", () => {
  it("gives the length asked for, different every time, and version-4 uids", () => {
    expect(randomBytes(6).length).toBe(6);
    const uids = new Set(Array.from({ length: 1000 }, randomUid));
    expect(uids.size).toBe(1000);
    for (const u of uids) expect(u).toMatch(/^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  });
});
