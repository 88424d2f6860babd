import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GitError } from "../../../src/errors.js";
import { ObjectDb } from "../../../src/store/git/object-db.js";
import { git, gitEnv, makeRepo, type TempRepo } from "./plumbing-fixture.js";

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

/** Every object read through the object db, compared with git's own bytes; trees and commits also parsed. */
async function readsAsGit(repo: TempRepo): Promise<number> {
  const db = new ObjectDb(repo.gitDir);
  const objects = allObjects(repo);
  for (const { oid, type } of objects) {
    const got = await db.read(oid);
    expect(got.type, oid).toBe(type);
    expect(got.content.equals(rawObject(repo, type, oid)), `${type} ${oid}`).toBe(true);
    if (type === "tree")
      expect(new Set((await db.readTree(oid))?.map((e) => `${e.oid} ${e.name}`)), oid).toEqual(
        new Set(
          git(repo.dir, ["ls-tree", oid])
            .trim()
            .split("\n")
            .map((l) => `${l.split(" ")[2]!.split("\t")[0]} ${l.split("\t")[1]}`),
        ),
      );
    if (type === "commit")
      expect((await db.readCommit(oid)).tree, oid).toBe(git(repo.dir, ["rev-parse", `${oid}^{tree}`]).trim());
  }
  return objects.length;
}

describe("packed objects: read by git (one cat-file --batch), parsed by the object engine", () => {
  it("reads every object of an aggressively repacked history (delta chains by offset) exactly as git does", async () => {
    const repo = makeRepo();
    history(repo);
    git(repo.dir, ["repack", "-adq", "-f", "--depth=50", "--window=50"]);
    git(repo.dir, ["prune-packed"]);
    const deltas = git(repo.dir, [
      "verify-pack",
      "-v",
      ...readdirSync(join(repo.gitDir, "objects", "pack"))
        .filter((f) => f.endsWith(".idx"))
        .map((f) => join(repo.gitDir, "objects", "pack", f)),
    ]);
    // Lines of deltified objects carry a depth and a base: the test must cover chains.
    expect(deltas.split("\n").filter((l) => / \d+ [0-9a-f]{40}$/.test(l)).length).toBeGreaterThan(20);
    expect(await readsAsGit(repo)).toBeGreaterThan(100);
  });

  it("reads deltas whose base is named by id (REF_DELTA), objects spread over several packs, and a version 1 index", async () => {
    const repo = makeRepo();
    history(repo, 12);
    git(repo.dir, ["-c", "repack.useDeltaBaseOffset=false", "repack", "-adq", "-f"]);
    history(repo, 6); // a second pack on top of the first
    git(repo.dir, ["-c", "pack.indexVersion=1", "repack", "-dq"]);
    git(repo.dir, ["prune-packed"]);
    expect(readdirSync(join(repo.gitDir, "objects", "pack")).filter((f) => f.endsWith(".idx")).length).toBe(2);
    await readsAsGit(repo);
  });

  it("an object in no pack is E_GIT_READ_OBJECT; a truncated pack is an error, never a wrong answer", async () => {
    const repo = makeRepo();
    history(repo, 5);
    git(repo.dir, ["repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    const missing = "0123456789abcdef0123456789abcdef01234567";
    await expect(new ObjectDb(repo.gitDir).read(missing)).rejects.toMatchObject({
      code: "E_GIT_READ_OBJECT",
      message: `Missing git object ${missing}`,
    });
    const big = allObjects(repo).find((o) => o.type === "blob" && rawObject(repo, "blob", o.oid).length > 100_000)!;
    const packDir = join(repo.gitDir, "objects", "pack");
    const pack = join(packDir, readdirSync(packDir).find((f) => f.endsWith(".pack"))!);
    const bytes = readFileSync(pack);
    writeFileSync(pack, bytes.subarray(0, Math.floor(bytes.length / 3)));
    await expect(new ObjectDb(repo.gitDir).read(big.oid)).rejects.toBeInstanceOf(GitError);
  });
});
