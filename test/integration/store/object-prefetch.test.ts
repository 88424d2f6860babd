import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ObjectDb } from "../../../src/store/git/object-db.js";
import { prefetchDiffs } from "../../../src/store/git/object-prefetch.js";
import { git, gitEnv, makeRepo } from "./plumbing-fixture.js";

/** Commits a tree of `files` (path → content) on top of `parent` with git itself; returns the commit. */
function commitFiles(dir: string, files: Record<string, string>, parent?: string): string {
  const index = join(dir, ".git", "prefetch-index");
  const env = { GIT_INDEX_FILE: index };
  const run = (args: string[], input?: string) => git(dir, args, { env, input }).trim();
  if (parent) run(["read-tree", parent]);
  else run(["read-tree", "--empty"]);
  for (const [path, content] of Object.entries(files)) {
    const blob = run(["hash-object", "-w", "--stdin"], content);
    run(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
  }
  const tree = run(["write-tree"]);
  rmSync(index, { force: true });
  return run(parent ? ["commit-tree", tree, "-p", parent, "-m", "c"] : ["commit-tree", tree, "-m", "c"]);
}

/** Deletes every pack: from then on, only what a memo holds (or a loose file) can be read. */
function losePacks(gitDir: string): void {
  const packDir = join(gitDir, "objects", "pack");
  for (const f of readdirSync(packDir)) rmSync(join(packDir, f));
}

/** Every object into one pack, then the pack deleted. */
function packThenLosePacks(dir: string, gitDir: string): void {
  git(dir, ["repack", "-adq"]);
  git(dir, ["prune-packed"]);
  losePacks(gitDir);
}

const oidAt = (dir: string, spec: string) => git(dir, ["rev-parse", spec]).trim();

describe("prefetchDiffs: what a sync is about to read, from git in one go", () => {
  it("never invents an object: with the pack gone, nothing is remembered and nothing throws", async () => {
    const repo = makeRepo();
    const base = commitFiles(repo.dir, { "tasks/01/1.json": "one\n" });
    const remote = commitFiles(repo.dir, { "tasks/01/1.json": "one, changed\n" }, base);
    git(repo.dir, ["update-ref", "refs/keep", remote]);
    packThenLosePacks(repo.dir, repo.gitDir);
    const db = new ObjectDb(repo.gitDir);
    expect(await prefetchDiffs(db, repo.gitDir, gitEnv(), [{ from: base, to: remote, oldBlobs: true }])).toBe(0);
    await expect(db.read(remote)).rejects.toThrow(/Missing git object/);
  });

  it("a fast-forward's objects are then read without git or a pack", async () => {
    const repo = makeRepo();
    const base = commitFiles(repo.dir, {
      "project.json": "{}\n",
      "counters.json": '{"tasks":2}\n',
      "tasks/01/1.json": "one\n",
      "tasks/02/2.json": "two\n",
    });
    const remote = commitFiles(repo.dir, { "tasks/01/1.json": "one, changed\n", "tasks/03/3.json": "three\n" }, base);
    git(repo.dir, ["update-ref", "refs/keep", remote]);
    const at = (spec: string) => oidAt(repo.dir, spec);
    const blobs = {
      changed: at(`${remote}:tasks/01/1.json`),
      added: at(`${remote}:tasks/03/3.json`),
      project: at(`${remote}:project.json`),
      counters: at(`${remote}:counters.json`),
      older: at(`${base}:tasks/01/1.json`),
      untouched: at(`${remote}:tasks/02/2.json`),
    };
    const trees = [`${remote}^{tree}`, `${base}^{tree}`, `${remote}:tasks`, `${base}:tasks`, `${remote}:tasks/01`].map(
      at,
    );
    git(repo.dir, ["repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    const db = new ObjectDb(repo.gitDir);
    const stored = await prefetchDiffs(db, repo.gitDir, gitEnv(), [{ from: base, to: remote, oldBlobs: false }]);
    // Only now is the pack taken away: whatever is read below comes from the memo.
    losePacks(repo.gitDir);
    expect(stored).toBeGreaterThan(0);
    const read = async (oid: string) => (await db.read(oid)).content.toString("utf8");
    expect((await db.read(remote)).type).toBe("commit");
    expect((await db.read(base)).type).toBe("commit");
    expect(await read(blobs.changed)).toBe("one, changed\n");
    expect(await read(blobs.added)).toBe("three\n");
    expect(await read(blobs.project)).toBe("{}\n");
    expect(await read(blobs.counters)).toBe('{"tasks":2}\n');
    for (const tree of trees) expect((await db.read(tree)).type).toBe("tree");
    // The older side's blob was not asked for (oldBlobs: false), nor a record neither side changed.
    await expect(db.read(blobs.older)).rejects.toThrow(/Missing git object/);
    await expect(db.read(blobs.untouched)).rejects.toThrow(/Missing git object/);
  });

  it("a merge base's blobs come along when asked; loose objects are left to the usual read", async () => {
    const repo = makeRepo();
    const base = commitFiles(repo.dir, { "tasks/01/1.json": "one\n" });
    git(repo.dir, ["update-ref", "refs/keep", base]);
    const older = oidAt(repo.dir, `${base}:tasks/01/1.json`);
    git(repo.dir, ["repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    // A local command's commit after the last gc: its objects are loose.
    const local = commitFiles(repo.dir, { "tasks/01/1.json": "one, here\n" }, base);
    const loose = oidAt(repo.dir, `${local}:tasks/01/1.json`);
    const db = new ObjectDb(repo.gitDir);
    expect([...db.looseAmong([loose, older])]).toEqual([loose]);
    await prefetchDiffs(db, repo.gitDir, gitEnv(), [{ from: base, to: local, oldBlobs: true }]);
    losePacks(repo.gitDir);
    expect((await db.read(older)).content.toString()).toBe("one\n");
    expect((await db.read(loose)).content.toString()).toBe("one, here\n"); // from its loose file
  });

  it("paths with newlines, spaces and colons are never sent to git as requests", async () => {
    const repo = makeRepo();
    const base = commitFiles(repo.dir, { "tasks/01/1.json": "one\n" });
    const hostile = commitFiles(repo.dir, { "a\nHEAD": "x\n", ":0 0 0": "y\n", "b c:d": "z\n" }, base);
    git(repo.dir, ["update-ref", "refs/keep", hostile]);
    git(repo.dir, ["repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    const db = new ObjectDb(repo.gitDir);
    const stored = await prefetchDiffs(db, repo.gitDir, gitEnv(), [{ from: base, to: hostile, oldBlobs: true }]);
    // Two commits, two root trees, three new blobs: nothing else was asked for or stored.
    expect(stored).toBe(7);
    expect((await db.read(oidAt(repo.dir, `${hostile}:b c:d`))).content.toString()).toBe("z\n");
  });

  it("a commit git does not have: nothing is remembered and nothing throws", async () => {
    const repo = makeRepo();
    const base = commitFiles(repo.dir, { "tasks/01/1.json": "one\n" });
    const db = new ObjectDb(repo.gitDir);
    const absent = "0123456789abcdef0123456789abcdef01234567";
    expect(await prefetchDiffs(db, repo.gitDir, gitEnv(), [{ from: base, to: absent, oldBlobs: true }])).toBe(0);
  });
});
