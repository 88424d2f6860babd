import { describe, expect, it } from "vitest";
import { streamObjects } from "../../../src/store/git/object-stream.js";
import { git, makeRepo } from "../../helpers/repo.js";
import { execFileSync } from "node:child_process";
import { testEnv } from "../../helpers/env.js";

/** Writes a blob with real git; returns its id. */
function blob(dir: string, content: Buffer): string {
  return execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: dir, env: testEnv(), input: content })
    .toString()
    .trim();
}

describe("streamObjects (one git cat-file --batch, each object handed on as it arrives)", () => {
  it("gives every object whole and in order across pipe chunks; a missing id is listed; one over the limit is passed on by size, unread", async () => {
    const dir = makeRepo();
    const big = Buffer.alloc(300_000, "x"); // several 64 KB pipe chunks
    const sizes = [0, 1, 100, 65_535, 65_536, 70_000, 5];
    const blobs = sizes.map((n, i) => Buffer.from(Array.from({ length: n }, (_, k) => 97 + ((k + i) % 26))));
    const oids = blobs.map((b) => blob(dir, b));
    const huge = blob(dir, big);
    const missing = "0123456789abcdef0123456789abcdef01234567";
    const seen: Array<{ oid: string; type: string; size: number; content: Buffer | null }> = [];
    const left = await streamObjects(
      `${dir}/.git`,
      [oids[0]!, oids[1]!, missing, huge, ...oids.slice(2)],
      (oid, type, size, content) => seen.push({ oid, type, size, content: content && Buffer.from(content) }),
      { maxObjectBytes: 100_000 },
    );
    expect(left).toEqual([missing]);
    expect(seen.map((s) => s.oid)).toEqual([oids[0], oids[1], huge, ...oids.slice(2)]);
    const byOid = new Map(seen.map((s) => [s.oid, s]));
    oids.forEach((oid, i) => {
      expect(byOid.get(oid)!.type).toBe("blob");
      expect(byOid.get(oid)!.content!.equals(blobs[i]!)).toBe(true);
    });
    expect(byOid.get(huge)).toMatchObject({ size: 300_000, content: null });
    expect(git(dir, "cat-file", "-s", huge).trim()).toBe("300000");
  });

  it("is null when git cannot read the repository (the caller reads another way), and rejects with what the visitor threw", async () => {
    const dir = makeRepo();
    const oid = blob(dir, Buffer.from("hello"));
    expect(await streamObjects(`${dir}/no-such-dir`, [oid], () => undefined, { maxObjectBytes: 10 })).toBeNull();
    await expect(
      streamObjects(
        `${dir}/.git`,
        [oid],
        () => {
          throw new Error("visitor failed");
        },
        { maxObjectBytes: 10 },
      ),
    ).rejects.toThrow("visitor failed");
  });
});
