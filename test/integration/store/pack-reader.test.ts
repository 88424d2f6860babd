import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PackReadError } from "../../../src/errors.js";
import { ObjectDb } from "../../../src/store/git/object-db.js";
import { applyDelta, PackReader } from "../../../src/store/git/pack-reader.js";
import { git, gitEnv, makeRepo, type TempRepo } from "./plumbing-fixture.js";

const MAX = 64 * 1024 * 1024;

/**
 * A history whose files change a little each commit (so repack stores most versions as deltas,
 * in chains), with a binary blob, an empty blob, a large one and an annotated tag.
 */
function history(repo: TempRepo, commits = 30): void {
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i}: ${"x".repeat(i % 40)}`);
  for (let c = 0; c < commits; c++) {
    lines[(c * 7) % lines.length] = `changed in commit ${c}`;
    writeFileSync(join(repo.dir, "notes.txt"), `${lines.join("\n")}\n`);
    writeFileSync(
      join(repo.dir, `task-${c % 5}.json`),
      JSON.stringify({ n: c, title: `Task ${c}`, pad: "y".repeat(300) }),
    );
    if (c === 0) {
      writeFileSync(join(repo.dir, "empty"), "");
      writeFileSync(join(repo.dir, "binary.bin"), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131) % 256)));
      writeFileSync(join(repo.dir, "large.txt"), "0123456789abcdef".repeat(40_000)); // 640 KB, several deflate blocks
    }
    git(repo.dir, ["add", "-A"]);
    git(repo.dir, ["commit", "-q", "-m", `commit ${c}`]);
  }
  git(repo.dir, ["tag", "-f", "-a", "v1", "-m", "a tag"]);
}

/** Every object git has, with its type, as `git cat-file --batch-all-objects` lists it. */
function allObjects(repo: TempRepo): Array<{ oid: string; type: string }> {
  return git(repo.dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"])
    .trim()
    .split("\n")
    .map((l) => {
      const [oid, type] = l.split(" ");
      return { oid: oid!, type: type! };
    });
}

/** git's raw bytes of an object (cat-file through a buffer, not a string). */
function rawObject(repo: TempRepo, type: string, oid: string): Buffer {
  return execFileSync("git", ["cat-file", type, oid], { cwd: repo.dir, env: gitEnv() });
}

describe("PackReader: git's packs read without a library", () => {
  it("reads every object of an aggressively repacked history (delta chains by offset) exactly as git does", () => {
    const repo = makeRepo();
    history(repo);
    git(repo.dir, ["repack", "-adq", "-f", "--depth=50", "--window=50"]);
    git(repo.dir, ["prune-packed"]);
    const reader = new PackReader(join(repo.gitDir, "objects"), MAX);
    const objects = allObjects(repo);
    expect(objects.length).toBeGreaterThan(100);
    const deltas = git(repo.dir, [
      "verify-pack",
      "-v",
      ...readdirSync(join(repo.gitDir, "objects", "pack"))
        .filter((f) => f.endsWith(".idx"))
        .map((f) => join(repo.gitDir, "objects", "pack", f)),
    ]);
    // Lines of deltified objects carry a depth and a base: the test must cover chains.
    expect(deltas.split("\n").filter((l) => / \d+ [0-9a-f]{40}$/.test(l)).length).toBeGreaterThan(20);
    for (const { oid, type } of objects) {
      const got = reader.read(oid);
      expect(got?.type, oid).toBe(type);
      expect(got!.content.equals(rawObject(repo, type, oid)), `${type} ${oid}`).toBe(true);
    }
  });

  it("reads deltas whose base is named by id (REF_DELTA), and objects spread over several packs", () => {
    const repo = makeRepo();
    history(repo, 12);
    git(repo.dir, ["-c", "repack.useDeltaBaseOffset=false", "repack", "-adq", "-f"]);
    history(repo, 6); // a second pack on top of the first
    git(repo.dir, ["repack", "-dq"]);
    git(repo.dir, ["prune-packed"]);
    expect(readdirSync(join(repo.gitDir, "objects", "pack")).filter((f) => f.endsWith(".idx")).length).toBe(2);
    const reader = new PackReader(join(repo.gitDir, "objects"), MAX);
    for (const { oid, type } of allObjects(repo))
      expect(reader.read(oid)?.content.equals(rawObject(repo, type, oid)), oid).toBe(true);
  });

  it("an object in no pack is null; an oversized entry and a truncated pack are a PackReadError, not a wrong answer", () => {
    const repo = makeRepo();
    history(repo, 5);
    git(repo.dir, ["repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    const reader = new PackReader(join(repo.gitDir, "objects"), MAX);
    expect(reader.read("0123456789abcdef0123456789abcdef01234567")).toBeNull();
    const big = allObjects(repo).find((o) => o.type === "blob" && rawObject(repo, "blob", o.oid).length > 100_000)!;
    // An entry larger than the bound (a pack from a hostile remote claiming a huge object) is refused, not inflated.
    expect(() => new PackReader(join(repo.gitDir, "objects"), 100_000).read(big.oid)).toThrow(PackReadError);
    const packDir = join(repo.gitDir, "objects", "pack");
    const pack = join(packDir, readdirSync(packDir).find((f) => f.endsWith(".pack"))!);
    const bytes = readFileSync(pack);
    writeFileSync(pack, bytes.subarray(0, Math.floor(bytes.length / 3)));
    expect(() => new PackReader(join(repo.gitDir, "objects"), MAX).read(big.oid)).toThrow(PackReadError);
  });

  it("a version 1 index is not read here: the object db gets the object from git instead", async () => {
    const repo = makeRepo();
    history(repo, 5);
    git(repo.dir, ["-c", "pack.indexVersion=1", "repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    const head = git(repo.dir, ["rev-parse", "HEAD"]).trim();
    expect(() => new PackReader(join(repo.gitDir, "objects"), MAX).read(head)).toThrow(PackReadError);
    const obj = await new ObjectDb(repo.gitDir).read(head);
    expect(obj.type).toBe("commit");
    expect(obj.content.equals(rawObject(repo, "commit", head))).toBe(true);
  });
});

describe("applyDelta", () => {
  const base = Buffer.from("the quick brown fox jumps over the lazy dog");
  const delta = (...bytes: number[]) => Buffer.from(bytes);

  it("copies and inserts as the opcodes say", () => {
    // 43 (source), 13 (target); copy offset 4 size 9 ("quick bro"); insert 4 bytes "wn!!".
    const out = applyDelta(base, delta(43, 13, 0x80 | 0x01 | 0x10, 4, 9, 4, ...Buffer.from("wn!!")));
    expect(out.toString()).toBe("quick brown!!");
  });

  it("refuses a wrong source size, a copy past the base, a reserved opcode and a short result", () => {
    expect(() => applyDelta(base, delta(42, 1, 1, 0x41))).toThrow(PackReadError);
    expect(() => applyDelta(base, delta(43, 10, 0x80 | 0x01 | 0x10, 40, 10))).toThrow(PackReadError);
    expect(() => applyDelta(base, delta(43, 1, 0))).toThrow(PackReadError);
    expect(() => applyDelta(base, delta(43, 5, 2, 0x41, 0x42))).toThrow(PackReadError);
  });
});
