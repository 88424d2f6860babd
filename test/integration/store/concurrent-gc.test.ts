import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ObjectDb } from "../../../src/store/git/object-db.js";
import { GitStore } from "../../../src/store/git-store.js";
import { discoverRepo } from "../../../src/store/repo/repo.js";
import { runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { spawnSync } from "node:child_process";
import { git, makeRepo, stateRef, tempDir } from "../../helpers/repo.js";

/** Issue 12 point 8, DESIGN §2.3: objects checked after the swap; concurrent gc and repack never fail a command. */

const REF = "refs/coordination/main";
const objectsOf = (dir: string, commit: string) =>
  git(dir, "rev-list", "--objects", "--no-walk", commit)
    .split("\n")
    .map((l) => l.split(" ")[0]!)
    .filter(Boolean);
const mainPath = (dir: string, oid: string) => join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
const keepPath = (dir: string, oid: string) => join(dir, ".git", "objects", "pantheon", oid.slice(0, 2), oid.slice(2));

async function initialised(): Promise<{ dir: string; store: GitStore }> {
  const dir = makeRepo();
  expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
  expect((await runCli(["task", "create", "--title", "Before", "--role", "engineer"], { cwd: dir })).exitCode).toBe(0);
  const store = new GitStore(discoverRepo(dir), { env: testEnv(), now: () => new Date(), warn: () => undefined });
  return { dir, store };
}

/** Writes a commit on the tip that adds one stray file (through the store, as a mutation does), without moving the ref. */
async function pendingCommit(store: GitStore, tip: string, name: string): Promise<string> {
  const tree = git(store.paths.workTree!, "rev-parse", `${tip}^{tree}`).trim();
  return store.writeCommit([tip], tree, new Map([[`notes-${name}.json`, Buffer.from(`{"n":"${name}"}\n`)]]), {
    summary: `test ${name}`,
    op: "test",
    actor: "Director",
    authorName: null,
    mission: null,
  });
}

describe("a prune beside a writer (git gc --prune=now)", () => {
  it("that runs between writing and the swap: the objects are rewritten after the swap", async () => {
    const { dir, store } = await initialised();
    const tip = stateRef(dir)!;
    const next = await pendingCommit(store, tip, "between");
    const written = objectsOf(dir, next).filter((o) => !objectsOf(dir, tip).includes(o));
    expect(written.length).toBe(3); // commit, root tree, blob
    // What the prune does to objects nothing reaches yet: both names gone.
    git(dir, "prune", "--expire=now");
    for (const o of written) rmSync(keepPath(dir, o), { force: true });
    for (const o of written) expect(existsSync(mainPath(dir, o))).toBe(false);
    expect((await store.moveRef(tip, next, "test between")).ok).toBe(true);
    for (const o of written) expect(existsSync(mainPath(dir, o)), o).toBe(true);
    git(dir, "fsck", "--strict", "--no-dangling");
  });

  it("that decided reachability before the swap and deletes after it: git still finds every object, and gc keeps them", async () => {
    const { dir, store } = await initialised();
    const tip = stateRef(dir)!;
    const next = await pendingCommit(store, tip, "after");
    expect((await store.moveRef(tip, next, "test after")).ok).toBe(true);
    const written = objectsOf(dir, next).filter((o) => !objectsOf(dir, tip).includes(o));
    // The prune's deletions, landing after the swap and its check: the main store loses them...
    for (const o of written) unlinkSync(mainPath(dir, o));
    // ...and the ref still names a complete history: the second names are in an alternate.
    git(dir, "cat-file", "-e", `${REF}^{commit}`);
    git(dir, "fsck", "--connectivity-only", "--no-dangling");
    expect((await runCli(["task", "list"], { cwd: dir })).stdout).toMatch(/Before/);
    expect(readFileSync(join(dir, ".git", "objects", "info", "alternates"), "utf8")).toBe("pantheon\n");
    // Later gcs neither lose them (prune and a local repack never touch an alternate)...
    git(dir, "gc", "-q", "--prune=now");
    git(dir, "fsck", "--strict", "--no-dangling");
    expect((await runCli(["task", "create", "--title", "Later", "--role", "engineer"], { cwd: dir })).exitCode).toBe(0);
    git(dir, "fsck", "--strict", "--no-dangling");
  });

  it("hands objects back to the main store an hour later and drops their second names", async () => {
    const { dir, store } = await initialised();
    const tip = stateRef(dir)!;
    const next = await pendingCommit(store, tip, "sweep");
    expect((await store.moveRef(tip, next, "test sweep")).ok).toBe(true);
    const gone = objectsOf(dir, next).filter((o) => !objectsOf(dir, tip).includes(o));
    for (const o of gone) unlinkSync(mainPath(dir, o)); // pruned from the main store meanwhile
    // An hour passes (every second name dated back), and the last sweep was long ago.
    const keep = join(dir, ".git", "objects", "pantheon");
    const past = new Date(Date.now() - 2 * 3600_000);
    for (const d of readdirSync(keep).filter((n) => /^[0-9a-f]{2}$/.test(n)))
      for (const f of readdirSync(join(keep, d))) utimesSync(join(keep, d, f), past, past);
    rmSync(join(keep, ".swept"), { force: true });
    expect((await runCli(["task", "create", "--title", "Sweeps", "--role", "engineer"], { cwd: dir })).exitCode).toBe(
      0,
    );
    for (const o of gone) {
      expect(existsSync(mainPath(dir, o)), `${o} back in the main store`).toBe(true);
      expect(existsSync(keepPath(dir, o)), `${o} second name dropped`).toBe(false);
    }
    git(dir, "fsck", "--strict", "--no-dangling");
  });
});

describe("doctor and the keep dir", () => {
  it("says so when objects/info/alternates lost the keep dir, and --fix lists it again", async () => {
    const { dir } = await initialised();
    writeFileSync(join(dir, ".git", "objects", "info", "alternates"), "");
    const r = await runCli(["doctor", "--json"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).data.findings).toEqual([
      expect.objectContaining({ code: "E_KEEP_ALTERNATE", fixable: true }),
    ]);
    expect((await runCli(["doctor", "--fix"], { cwd: dir })).stdout).toMatch(
      /listed objects\/pantheon in objects\/info\/alternates again/,
    );
    expect(readFileSync(join(dir, ".git", "objects", "info", "alternates"), "utf8")).toBe("pantheon\n");
    expect((await runCli(["doctor"], { cwd: dir })).exitCode).toBe(0);
  });
});

describe("a local clone of a repository that has a keep dir", () => {
  it("forgets the source's keep dir on its first write, so git says nothing once the source is gone", async () => {
    const { dir } = await initialised();
    const clone = join(tempDir(), "clone");
    git(dir, "clone", "-q", dir, clone);
    // git clone copied objects/pantheon/ and named the source's, absolutely.
    expect(readFileSync(join(clone, ".git", "objects", "info", "alternates"), "utf8")).toBe(
      `${join(dir, ".git", "objects", "pantheon")}\n`,
    );
    git(clone, "fetch", "-q", "origin", `+${REF}:${REF}`);
    expect(
      (await runCli(["task", "create", "--title", "In the clone", "--role", "engineer"], { cwd: clone })).exitCode,
    ).toBe(0);
    expect(readFileSync(join(clone, ".git", "objects", "info", "alternates"), "utf8")).toBe("pantheon\n");
    rmSync(dir, { recursive: true, force: true });
    const fsck = spawnSync("git", ["fsck", "--strict", "--no-dangling"], {
      cwd: clone,
      env: testEnv(),
      encoding: "utf8",
    });
    expect(fsck.status).toBe(0);
    expect(fsck.stderr).not.toMatch(/alternates|does not exist/);
  });
});

describe("reading while git gc and git repack -ad move objects", () => {
  it("finds an object in the pack that replaced the one it had indexed", async () => {
    const { dir } = await initialised();
    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    const db = new ObjectDb(join(dir, ".git"));
    const tip = stateRef(dir)!;
    await db.read(tip); // the first pack's index is now cached
    expect((await runCli(["task", "create", "--title", "Second", "--role", "engineer"], { cwd: dir })).exitCode).toBe(
      0,
    );
    git(dir, "repack", "-adq"); // a new pack, the old one deleted
    git(dir, "prune-packed");
    const tree = git(dir, "rev-parse", `${REF}^{tree}`).trim();
    expect((await db.read(tree)).type).toBe("tree");
  });

  it("reads through indexes whose packs a repack has just deleted", async () => {
    const { dir } = await initialised();
    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    rmSync(join(dir, ".git", "objects", "pantheon"), { recursive: true, force: true });
    const pack = join(dir, ".git", "objects", "pack");
    const idx = readdirSync(pack).find((f) => f.endsWith(".idx"))!;
    // The moment between `git repack -ad` deleting an old pack and its index, many times over:
    // whichever order the directory lists them in, most come before the good pack.
    for (let i = 0; i < 16; i++)
      writeFileSync(join(pack, `pack-${String(i).padStart(40, "0")}.idx`), readFileSync(join(pack, idx)));
    rmSync(join(dir, ".git", "pantheon"), { recursive: true, force: true }); // no cache: records come from git
    const r = await runCli(["task", "show", "1"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Before/);
  });

  it("ignores the temporary index of a repack still being written", async () => {
    const { dir } = await initialised();
    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    const pack = join(dir, ".git", "objects", "pack");
    // git writes `.tmp-<pid>-pack-<hash>.idx` before renaming it: half-written bytes.
    writeFileSync(
      join(pack, ".tmp-4242-pack-0123456789abcdef0123456789abcdef01234567.idx"),
      Buffer.from("\xfftOc\x00\x00\x00\x02half", "latin1"),
    );
    const r = await runCli(["task", "create", "--title", "During repack", "--role", "engineer"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it("reports a pack that cannot be read with a coded error, never a pack reader's internals", async () => {
    const { dir } = await initialised();
    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    const pack = join(dir, ".git", "objects", "pack");
    const name = readdirSync(pack).find((f) => f.endsWith(".pack"))!;
    renameSync(join(pack, name), join(dir, "moved-away.pack")); // the index stays, its pack is gone
    rmSync(join(dir, ".git", "objects", "pantheon"), { recursive: true, force: true });
    rmSync(join(dir, ".git", "pantheon"), { recursive: true, force: true }); // no cache answers for git
    const r = await runCli(["task", "show", "1", "--json"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    const error = JSON.parse(r.stderr.trim()).error;
    expect(error.code).toBe("E_GIT_READ_OBJECT");
    expect(error.message).not.toMatch(/isomorphic|GitPackIndex|packfile|internal error/i);
    expect(error.hint).toMatch(/git fsck/);
  });
});
