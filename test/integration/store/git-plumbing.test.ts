import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { RepositoryError } from "../../../src/errors.js";
import { parseTrailers, type Signature } from "../../../src/store/git/commit-data.js";
import { EMPTY_TREE_OID, ObjectDb } from "../../../src/store/git/object-db.js";
import { casRef } from "../../../src/store/git/ref-cas.js";
import type { TreeEntry } from "../../../src/store/git/tree-entry.js";
import { listTree, readTreePath, writeTreeChanges } from "../../../src/store/git/tree-edit.js";
import { git, makeRepo } from "./plumbing-fixture.js";

const REF = "refs/coordination/main";
const sig = (name: string, timestamp: number, tz = 0): Signature => ({
  name,
  email: `${name.toLowerCase()}@example.com`,
  timestamp,
  tzOffsetMinutes: tz,
});

/** `git fsck --strict` over everything reachable from REF (pointed at `commit`); returns its output. */
async function fsckWith(repo: { dir: string; gitDir: string }, commit: string): Promise<string> {
  git(repo.dir, ["update-ref", REF, commit]);
  return git(repo.dir, ["fsck", "--strict", "--no-dangling", "--no-progress"]);
}

async function commitTree(db: ObjectDb, tree: string, parents: string[] = [], message = "test\n"): Promise<string> {
  return db.writeCommit({
    tree,
    parents,
    author: sig("Ada", 1_700_000_000, 60),
    committer: sig("Ada", 1_700_000_000, 60),
    message,
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(join(dir, f)).isFile());
}

describe("ObjectDb", () => {
  it("writes blobs, trees and commits that git reads, hashes and fscks identically", async () => {
    const repo = makeRepo();
    const db = new ObjectDb(repo.gitDir);
    const blob = await db.write("blob", Buffer.from("hello\n"));
    expect(blob).toBe(git(repo.dir, ["hash-object", "--stdin"], { input: "hello\n" }).trim());
    expect(db.hash("blob", Buffer.from("hello\n"))).toBe(blob);
    expect(git(repo.dir, ["cat-file", "-t", blob]).trim()).toBe("blob");
    expect(git(repo.dir, ["cat-file", "-p", blob])).toBe("hello\n");

    const tree = await db.writeTree([{ mode: "100644", name: "hello.txt", oid: blob }]);
    expect(tree).toBe(git(repo.dir, ["mktree"], { input: `100644 blob ${blob}\thello.txt\n` }).trim());
    expect(git(repo.dir, ["cat-file", "-p", tree])).toBe(`100644 blob ${blob}\thello.txt\n`);

    const commit = await commitTree(db, tree, [], "First\n\nBody.\n");
    expect(git(repo.dir, ["cat-file", "-t", commit]).trim()).toBe("commit");
    expect(git(repo.dir, ["log", "-1", "--format=%T|%an|%ae|%at|%ai|%B", commit])).toBe(
      `${tree}|Ada|ada@example.com|1700000000|2023-11-14 23:13:20 +0100|First\n\nBody.\n\n`,
    );
    expect(await fsckWith(repo, commit)).toBe("");

    // Objects are written whole (temp + rename), read-only like git's, and no temp file remains.
    const objects = filesUnder(join(repo.gitDir, "objects"));
    expect(objects.filter((f) => f.includes("tmp_obj_"))).toEqual([]);
    expect(statSync(join(repo.gitDir, "objects", blob.slice(0, 2), blob.slice(2))).mode & 0o777).toBe(0o444);
    // A second write of an existing object is a no-op that returns the same id, even from a new instance.
    expect(await new ObjectDb(repo.gitDir).write("blob", Buffer.from("hello\n"))).toBe(blob);
  });

  it("reads loose objects written by git and reports missing ones as E_GIT_READ_OBJECT", async () => {
    const repo = makeRepo();
    const oid = git(repo.dir, ["hash-object", "-w", "--stdin"], { input: "from git\n" }).trim();
    const db = new ObjectDb(repo.gitDir);
    expect(await db.read(oid)).toEqual({ type: "blob", content: Buffer.from("from git\n") });
    expect(await db.read(EMPTY_TREE_OID)).toEqual({ type: "tree", content: Buffer.alloc(0) });
    const missing = "0123456789abcdef0123456789abcdef01234567";
    const err = await db.read(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryError);
    expect(err).toMatchObject({ code: "E_GIT_READ_OBJECT", message: `Missing git object ${missing}` });
    expect((err as RepositoryError).hint).toMatch(/git fsck.*pantheon doctor --recover/);
  });

  it("reads a loose object through the engine, a packed one through git, and refuses one declaring over 64 MiB", async () => {
    const repo = makeRepo();
    const oid = await new ObjectDb(repo.gitDir).write("blob", Buffer.from("loose\n"));
    expect((await new ObjectDb(repo.gitDir).read(oid)).content.toString()).toBe("loose\n");
    git(repo.dir, ["update-ref", "refs/keep", oid]);
    git(repo.dir, ["repack", "-adq"]);
    git(repo.dir, ["prune-packed"]);
    rmSync(join(repo.gitDir, "objects", "pantheon"), { recursive: true }); // its second name (loose-writer.ts)
    expect(existsSync(join(repo.gitDir, "objects", oid.slice(0, 2), oid.slice(2)))).toBe(false);
    expect(await new ObjectDb(repo.gitDir).read(oid)).toEqual({ type: "blob", content: Buffer.from("loose\n") });
    // A zlib bomb fetched loose (a collaborator's 1 GiB record compresses to ~1 MiB): refused
    // from its header, before the library would inflate it whole.
    const bomb = "d".repeat(40);
    mkdirSync(join(repo.gitDir, "objects", "dd"), { recursive: true });
    writeFileSync(
      join(repo.gitDir, "objects", "dd", bomb.slice(2)),
      deflateSync(Buffer.concat([Buffer.from(`blob ${1 << 30}\0`), Buffer.alloc(1 << 20)])),
    );
    await expect(new ObjectDb(repo.gitDir).read(bomb)).rejects.toMatchObject({
      code: "E_GIT_CORRUPT_OBJECT",
      message: expect.stringContaining(`declares ${1 << 30} bytes, over the 67108864-byte limit`),
    });
  });

  for (const packer of [
    ["repack", "-adfq", "--depth=50", "--window=50"],
    ["gc", "-q", "--prune=now", "--aggressive"],
  ]) {
    it(`reads packed and deltified objects after git ${packer[0]}`, async () => {
      const repo = makeRepo();
      const base = Array.from({ length: 80 }, (_, i) => `line ${i} of a record that is long enough to delta well`).join(
        "\n",
      );
      mkdirSync(join(repo.dir, "files"));
      const content = (i: number, v: number): string => `${base}\nfile ${i} version ${v}\n`;
      for (let v = 0; v < 2; v++) {
        for (let i = 0; i < 60; i++) writeFileSync(join(repo.dir, "files", `f${i}.txt`), content(i, v));
        git(repo.dir, ["add", "-A"]);
        git(repo.dir, ["commit", "-qm", `version ${v}`]);
      }
      git(repo.dir, packer);
      git(repo.dir, ["prune-packed"]);
      expect(git(repo.dir, ["count-objects", "-v"])).toMatch(/^count: 0$/m);
      const idx = readdirSync(join(repo.gitDir, "objects", "pack")).find((f) => f.endsWith(".idx"));
      const verify = git(repo.dir, ["verify-pack", "-v", join(repo.gitDir, "objects", "pack", idx ?? "")]);
      expect(verify).toMatch(/^[0-9a-f]{40} blob +\d+ \d+ \d+ \d+ [0-9a-f]{40}$/m); // at least one delta

      const db = new ObjectDb(repo.gitDir);
      const head = git(repo.dir, ["rev-parse", "HEAD"]).trim();
      const commit = await db.readCommit(head);
      expect(commit.message).toBe("version 1\n");
      expect(commit.parents).toEqual([git(repo.dir, ["rev-parse", "HEAD~1"]).trim()]);
      const old = await db.readCommit(commit.parents[0] ?? "");
      for (let i = 0; i < 60; i++) {
        for (const [v, c] of [
          [1, commit],
          [0, old],
        ] as const) {
          const entry = await readTreePath(db, c.tree, `files/f${i}.txt`);
          const obj = await db.read(entry?.oid ?? "");
          expect(obj.type).toBe("blob");
          expect(obj.content.toString()).toBe(content(i, v));
        }
      }
    });
  }
});

describe("trees through the object engine, against git", () => {
  it("sorts entries as git does: fsck --strict is clean and ls-tree order matches", async () => {
    const repo = makeRepo();
    const db = new ObjectDb(repo.gitDir);
    const blob = await db.write("blob", Buffer.from("x\n"));
    const sub = await db.writeTree([{ mode: "100644", name: "inner.json", oid: blob }]);
    const names: Array<[string, boolean]> = [
      ["a", true],
      ["a.json", false],
      ["a-b", false],
      ["a0", false],
      ["ab", true],
      ["a b", false],
      ["Z", false],
      ["é.json", false],
      ["a.b", true],
      ["a_", false],
    ];
    const entries: TreeEntry[] = names.map(([name, isTree]) => ({
      mode: isTree ? "40000" : "100644",
      name,
      oid: isTree ? sub : blob,
    }));
    const tree = await db.writeTree([...entries].reverse());
    // git mktree sorts its input itself, so equal ids mean equal order.
    const mktreeInput = entries
      .map((e) => `${e.mode === "40000" ? "040000 tree" : "100644 blob"} ${e.oid}\t${e.name}`)
      .join("\n");
    expect(tree).toBe(git(repo.dir, ["mktree"], { input: `${mktreeInput}\n` }).trim());
    const lsNames = git(repo.dir, ["-c", "core.quotePath=false", "ls-tree", "--name-only", tree]).trim().split("\n");
    expect(new Set((await db.readTree(tree))?.map((e) => e.name))).toEqual(new Set(lsNames));
    expect(lsNames.slice(0, 7)).toEqual(["Z", "a b", "a-b", "a.b", "a.json", "a", "a0"]);
    expect(await fsckWith(repo, await commitTree(db, tree))).toBe("");
  });
});

describe("writeTreeChanges", () => {
  function seed() {
    const repo = makeRepo();
    const w = (p: string, c: string) => {
      mkdirSync(join(repo.dir, p, ".."), { recursive: true });
      writeFileSync(join(repo.dir, p), c);
    };
    w("project.json", "{}\n");
    w("tasks/07/107.json", '{"n":107}\n');
    w("tasks/07/7.json", '{"n":7}\n');
    w("tasks/08/8.json", '{"n":8}\n');
    w("personas/hermes.json", '{"name":"hermes"}\n');
    w("README.unknown", "not ours\n");
    w("odd/run.sh", "#!/bin/sh\n");
    chmodSync(join(repo.dir, "odd/run.sh"), 0o755);
    symlinkSync("run.sh", join(repo.dir, "odd/link"));
    git(repo.dir, ["add", "-A"]);
    // A submodule entry (gitlink, mode 160000) pointing at a commit this repo does not have.
    git(repo.dir, ["update-index", "--add", "--cacheinfo", `160000,${"ab".repeat(20)},odd/vendor`]);
    git(repo.dir, ["commit", "-qm", "seed"]);
    return { repo, db: new ObjectDb(repo.gitDir), base: git(repo.dir, ["rev-parse", "HEAD^{tree}"]).trim() };
  }
  const lsTree = (dir: string, tree: string) => git(dir, ["ls-tree", "-r", "--full-tree", tree]).trim().split("\n");

  it("adds, modifies and deletes nested paths and carries every other entry unchanged", async () => {
    const { repo, db, base } = seed();
    const before = lsTree(repo.dir, base);
    const tree = await writeTreeChanges(
      db,
      base,
      new Map<string, Buffer | null>([
        ["tasks/07/107.json", Buffer.from('{"n":107,"v":2}\n')],
        ["tasks/07/7.json", null],
        ["tasks/08/8.json", null], // last file of tasks/08: the directory goes too
        ["tasks/09/9.json", Buffer.from('{"n":9}\n')],
        ["missions/01/1.json", Buffer.from('{"m":1}\n')],
        ["nowhere/gone.json", null], // deleting what is absent changes nothing
        ["README.unknown/child", null], // nor does deleting "under" a file
      ]),
    );
    const after = lsTree(repo.dir, tree);
    const blobOf = (s: string) => git(repo.dir, ["hash-object", "--stdin"], { input: s }).trim();
    const unchanged = before.filter((l) => !/tasks\//.test(l));
    expect(after).toEqual(
      [
        ...unchanged,
        `100644 blob ${blobOf('{"m":1}\n')}\tmissions/01/1.json`,
        `100644 blob ${blobOf('{"n":107,"v":2}\n')}\ttasks/07/107.json`,
        `100644 blob ${blobOf('{"n":9}\n')}\ttasks/09/9.json`,
      ].sort((a, b) => Buffer.compare(Buffer.from(a.split("\t")[1] ?? ""), Buffer.from(b.split("\t")[1] ?? ""))),
    );
    expect(after).toContain(`160000 commit ${"ab".repeat(20)}\todd/vendor`);
    expect(after.some((l) => l.startsWith("100755 blob ") && l.endsWith("\todd/run.sh"))).toBe(true);
    expect(after.some((l) => l.startsWith("120000 blob ") && l.endsWith("\todd/link"))).toBe(true);
    // Untouched subtrees keep their ids: they were not rewritten at all.
    for (const p of ["odd", "personas", "README.unknown"]) {
      expect(git(repo.dir, ["rev-parse", `${tree}:${p}`])).toBe(git(repo.dir, ["rev-parse", `${base}:${p}`]));
    }
    expect(await readTreePath(db, tree, "tasks/08")).toBeNull();
    expect((await listTree(db, tree)).map((e) => e.name)).toEqual([
      "README.unknown",
      "missions",
      "odd",
      "personas",
      "project.json",
      "tasks",
    ]);
    expect(await fsckWith(repo, await commitTree(db, tree, [git(repo.dir, ["rev-parse", "HEAD"]).trim()]))).toBe("");
  });

  it("carries a blob named by id (a merge's local record) into the tree as git would, without storing it again", async () => {
    const { repo, db, base } = seed();
    const known = git(repo.dir, ["rev-parse", `${base}:tasks/08/8.json`]).trim();
    // Storing a blob gives it a second name in the keep dir (loose-writer.ts): by id, none is made.
    const keepName = join(repo.gitDir, "objects", "pantheon", known.slice(0, 2), known.slice(2));
    const byId = await writeTreeChanges(db, base, new Map([["tasks/09/9.json", { blob: known }]]));
    expect(existsSync(keepName)).toBe(false);
    const byBytes = await writeTreeChanges(
      new ObjectDb(repo.gitDir),
      base,
      new Map([["tasks/09/9.json", Buffer.from('{"n":8}\n')]]),
    );
    expect(existsSync(keepName)).toBe(true);
    expect(byId).toBe(byBytes);
    expect(git(repo.dir, ["rev-parse", `${byId}:tasks/09/9.json`]).trim()).toBe(known);
    await expect(
      writeTreeChanges(db, base, new Map([["tasks/09/9.json", { blob: "HEAD; rm -rf /" }]])),
    ).rejects.toThrow(/Invalid blob id/);
  });

  it("returns the base id for a no-op, the empty tree when everything is deleted, and builds from nothing", async () => {
    const { repo, db, base } = seed();
    expect(await writeTreeChanges(db, base, new Map())).toBe(base);
    expect(await writeTreeChanges(db, base, new Map([["tasks/07/7.json", Buffer.from('{"n":7}\n')]]))).toBe(base);
    const all = lsTree(repo.dir, base).map((l) => [l.split("\t")[1] ?? "", null] as [string, null]);
    expect(await writeTreeChanges(db, base, new Map(all))).toBe(EMPTY_TREE_OID);
    expect(git(repo.dir, ["cat-file", "-t", EMPTY_TREE_OID]).trim()).toBe("tree");

    const fresh = await writeTreeChanges(
      db,
      null,
      new Map([
        ["project.json", Buffer.from("{}\n")],
        ["tasks/01/1.json", Buffer.from("1\n")],
      ]),
    );
    git(repo.dir, ["read-tree", "--empty"]);
    const idx = git(repo.dir, ["hash-object", "-w", "--stdin"], { input: "1\n" }).trim();
    git(repo.dir, [
      "update-index",
      "--add",
      "--cacheinfo",
      `100644,${git(repo.dir, ["hash-object", "-w", "--stdin"], { input: "{}\n" }).trim()},project.json`,
    ]);
    git(repo.dir, ["update-index", "--add", "--cacheinfo", `100644,${idx},tasks/01/1.json`]);
    expect(fresh).toBe(git(repo.dir, ["write-tree"]).trim());
  });

  it("reads single paths and refuses invalid ones", async () => {
    const { db, base } = seed();
    expect(await readTreePath(db, base, "tasks/07/107.json")).toMatchObject({ mode: "100644" });
    expect(await readTreePath(db, base, "tasks/07")).toMatchObject({ mode: "040000" });
    expect(await readTreePath(db, base, "tasks/07/999.json")).toBeNull();
    expect(await readTreePath(db, base, "project.json/below")).toBeNull();
    await expect(writeTreeChanges(db, base, new Map([["tasks//x.json", Buffer.from("")]]))).rejects.toMatchObject({
      code: "E_GIT_WRITE_OBJECT",
    });
    await expect(
      writeTreeChanges(
        db,
        base,
        new Map([
          ["a", Buffer.from("")],
          ["a/b", Buffer.from("")],
        ]),
      ),
    ).rejects.toMatchObject({ code: "E_GIT_WRITE_OBJECT" });
  });
});

describe("commits through the object engine, against git", () => {
  it("round-trips a commit made by git with a multi-line message and trailers", async () => {
    const repo = makeRepo();
    writeFileSync(join(repo.dir, "f"), "f\n");
    git(repo.dir, ["add", "f"]);
    const env = { GIT_AUTHOR_DATE: "1700000000 +0530", GIT_COMMITTER_DATE: "1700000100 -0100" };
    git(
      repo.dir,
      [
        "commit",
        "-q",
        "-m",
        "task ENG-H-0007 claim by Hephaestus",
        "-m",
        "First body line.\nSecond: not a trailer block",
        "--trailer",
        "Pantheon-Op: task.claim",
        "--trailer",
        "Pantheon-Actor: Hephaestus",
      ],
      { env },
    );
    const head = git(repo.dir, ["rev-parse", "HEAD"]).trim();
    const raw = (await new ObjectDb(repo.gitDir).read(head)).content;
    expect(raw).toEqual(Buffer.from(git(repo.dir, ["cat-file", "commit", head]), "utf8"));
    const c = await new ObjectDb(repo.gitDir).readCommit(head);
    expect(c.tree).toBe(git(repo.dir, ["rev-parse", "HEAD^{tree}"]).trim());
    expect(c.parents).toEqual([]);
    expect(c.author).toEqual({
      name: "Test Author",
      email: "author@example.com",
      timestamp: 1_700_000_000,
      tzOffsetMinutes: 330,
    });
    expect(c.committer).toEqual({
      name: "Test Committer",
      email: "committer@example.com",
      timestamp: 1_700_000_100,
      tzOffsetMinutes: -60,
    });
    expect(c.message).toBe(git(repo.dir, ["log", "-1", "--format=%B", head]).replace(/\n$/, ""));
    // Written back, the same bytes: the same id.
    expect(await new ObjectDb(repo.gitDir).writeCommit(c)).toBe(head);
    expect(parseTrailers(c.message)).toEqual({ "Pantheon-Op": ["task.claim"], "Pantheon-Actor": ["Hephaestus"] });
    expect(git(repo.dir, ["interpret-trailers", "--parse"], { input: c.message })).toBe(
      "Pantheon-Op: task.claim\nPantheon-Actor: Hephaestus\n",
    );
  });

  it("reads a signed commit with an encoding header, and refuses a tree no git checks out, naming it", async () => {
    const repo = makeRepo();
    const raw =
      `tree ${EMPTY_TREE_OID}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 -0000\nencoding UTF-8\n` +
      "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nSigned\n\nbody\n";
    const signed = git(repo.dir, ["hash-object", "-t", "commit", "-w", "--stdin"], { input: raw }).trim();
    const c = await new ObjectDb(repo.gitDir).readCommit(signed);
    expect(c).toMatchObject({ tree: EMPTY_TREE_OID, parents: [], message: "Signed\n\nbody\n" });
    expect(c.committer).toEqual({ name: "C", email: "c@x", timestamp: 2, tzOffsetMinutes: 0 });
    // A collaborator's tree with an entry named .git (git refuses to check one out) or a mode git
    // never writes: the engine will not read it, and the error names the tree.
    const blob = git(repo.dir, ["hash-object", "-w", "--stdin"], { input: "x\n" }).trim();
    for (const entry of ["100644 .git", "100600 odd"]) {
      const bytes = Buffer.concat([Buffer.from(`${entry}\0`), Buffer.from(blob, "hex")]);
      const tree = git(repo.dir, ["hash-object", "-t", "tree", "-w", "--literally", "--stdin"], {
        input: bytes,
      }).trim();
      await expect(new ObjectDb(repo.gitDir).readTree(tree)).rejects.toMatchObject({
        code: "E_GIT_CORRUPT_OBJECT",
        message: expect.stringContaining(`Corrupt git object ${tree} (`),
      });
    }
  });

  it("writes merge commits and sanitises identities the way git reads them", async () => {
    const repo = makeRepo();
    const db = new ObjectDb(repo.gitDir);
    const tree = await writeTreeChanges(db, null, new Map([["a", Buffer.from("a\n")]]));
    const p1 = await commitTree(db, tree, [], "one\n");
    const p2 = await commitTree(db, tree, [], "two\n");
    const merge = await db.writeCommit({
      tree,
      parents: [p1, p2],
      author: { name: "Eve <evil>\nX", email: "<e@x>", timestamp: 100_000, tzOffsetMinutes: -330 },
      committer: sig("Bob", 2),
      message: "merge",
    });
    expect(git(repo.dir, ["log", "-1", "--format=%P|%an|%ae|%ai|%B", merge])).toBe(
      `${p1} ${p2}|Eve evilX|e@x|1970-01-01 22:16:40 -0530|merge\n\n`,
    );
    expect(await fsckWith(repo, merge)).toBe("");
  });
});

describe("casRef with objects", () => {
  it("moves the ref to a commit written through ObjectDb, and git agrees", async () => {
    const repo = makeRepo();
    const db = new ObjectDb(repo.gitDir);
    const c1 = await commitTree(db, await writeTreeChanges(db, null, new Map([["project.json", Buffer.from("{}\n")]])));
    expect(await casRef(repo.gitDir, REF, null, c1)).toEqual({ ok: true });
    expect(git(repo.dir, ["rev-parse", REF]).trim()).toBe(c1);
    expect(git(repo.dir, ["show", `${REF}:project.json`])).toBe("{}\n");
  });
});
