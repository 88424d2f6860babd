import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LoosePacker } from "../../../src/store/git/loose-packer.js";
import { ObjectDb } from "../../../src/store/git/object-db.js";
import { GitStore } from "../../../src/store/git-store.js";
import { loadGitConfig } from "../../../src/store/repo/git-config.js";
import { discoverRepo } from "../../../src/store/repo/repo.js";
import { runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { diskUsage, passKeepTime } from "../../helpers/keep-clock.js";
import { git, makeRepo, stateRef } from "../../helpers/repo.js";

/**
 * DESIGN §2.4a: Pantheon packs its own loose objects, so git's auto gc never warns because of
 * Pantheon and a busy clone's .git stays near what `git gc` makes of it; packing keeps the
 * protection of DESIGN §2.3 against a concurrent `git gc --prune=now`.
 */

const HOUR = 3600_000;
const REF = "refs/coordination/main";

/** git as a user runs it, with auto gc on (gc.auto 256: it runs past one loose object in objects/17) and in the foreground, so its words are the command's. */
function gitAutoGc(dir: string, ...args: string[]) {
  const r = spawnSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: testEnv({
      GIT_CONFIG_VALUE_0: "256",
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_KEY_2: "gc.autoDetach",
      GIT_CONFIG_VALUE_2: "false",
    }),
  });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

function userCommit(dir: string, n: number) {
  writeFileSync(join(dir, `file-${n}.txt`), `change ${n}\n`);
  git(dir, "add", ".");
  return gitAutoGc(dir, "commit", "-q", "-m", `user commit ${n}`);
}

const looseInMain = (dir: string) => Number(/^count: (\d+)$/m.exec(git(dir, "count-objects", "-v"))![1]);
const keptPacks = (dir: string) =>
  readdirSync(join(dir, ".git", "objects", "pack")).filter(
    (n) =>
      n.endsWith(".keep") && readFileSync(join(dir, ".git", "objects", "pack", n), "utf8").startsWith("pantheon: "),
  );
const looseInKeep = (dir: string) => {
  const keep = join(dir, ".git", "objects", "pantheon");
  return readdirSync(keep)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => readdirSync(join(keep, d)).filter((n) => /^[0-9a-f]{38}$/.test(n)));
};

function importFile(dir: string, count: number): string {
  const file = join(dir, "..", `import-${count}.json`);
  const entries = Array.from({ length: count }, (_, i) => ({
    key: `k${i}`,
    title: `Imported ${i}`,
    role: "engineer",
    priority: "high",
  }));
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

describe("a bulk write", () => {
  it("is packed by the command that wrote it, so git's auto gc finds nothing to warn about after it", async () => {
    const dir = makeRepo();
    const env = { PANTHEON_PACK_LOOSE: "100" };
    expect((await runCli(["init", "--yes"], { cwd: dir, env })).exitCode).toBe(0);
    const r = await runCli(["task", "import", importFile(dir, 300)], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);

    // The import writes its records, trees and commit as one pack (store/git/pack-writer.ts);
    // what is left loose is the few objects written before it (under the packing threshold).
    expect(looseInKeep(dir).length).toBeLessThan(10);
    expect(looseInMain(dir)).toBeLessThan(10);
    expect(readdirSync(join(dir, ".git", "objects", "pack")).filter((f) => f.endsWith(".pack")).length).toBeGreaterThan(
      0,
    );
    // The user's next commit: no auto gc to run, nothing said, no gc.log.
    const commit = userCommit(dir, 1);
    expect(commit.stderr).toBe("");
    expect(existsSync(join(dir, ".git", "gc.log"))).toBe(false);
    git(dir, "fsck", "--strict", "--no-dangling");
    expect((await runCli(["task", "show", "ENG-H-0300"], { cwd: dir })).stdout).toMatch(/Imported 299/);
  });

  it("is packed once objects/pantheon/17 holds more than half of what git's gc.auto tolerates in objects/17", async () => {
    const dir = makeRepo();
    const gitDir = join(dir, ".git");
    // gc.auto 512: git's auto gc runs past 2 loose objects in objects/17; Pantheon packs past 1.
    const env = testEnv({ GIT_CONFIG_VALUE_0: "512" });
    const db = new ObjectDb(gitDir, { env, gcAuto: () => loadGitConfig(gitDir, env).get("gc.auto") });
    const sample = join(gitDir, "objects", "pantheon", "17");
    const inSample = () => (existsSync(sample) ? readdirSync(sample).length : 0);
    let written = 0;
    // Blobs of fixed content: the same ids, so the same objects/17, every run.
    while (inSample() < 1) {
      await db.write("blob", Buffer.from(`blob ${written++}\n`));
      db.verifyWritten();
      expect(keptPacks(dir)).toEqual([]);
    }
    while (inSample() === 1) await db.write("blob", Buffer.from(`blob ${written++}\n`));
    expect(inSample()).toBe(2);
    db.verifyWritten();
    expect(looseInKeep(dir)).toEqual([]);
    expect(keptPacks(dir)).toHaveLength(1);
    expect(git(dir, "cat-file", "-p", db.hash("blob", Buffer.from("blob 0\n")))).toBe("blob 0\n");
  });
});

describe("three busy hours", () => {
  it("packs as it goes, rolls small packs up, hands them to git after their hour: .git within 3× of git gc's, git silent", async () => {
    const dir = makeRepo();
    const env = { PANTHEON_PACK_LOOSE: "20" };
    expect((await runCli(["init", "--yes"], { cwd: dir, env })).exitCode).toBe(0);
    const MUTATIONS = 60;
    let mostKept = 0;
    let handed = 0;
    for (let i = 0; i < MUTATIONS; i++) {
      const argv =
        i % 3 === 2
          ? ["task", "note", String(Math.floor(i / 3) + 1), `note ${i}`]
          : ["task", "create", "--title", `Busy ${i}`, "--role", "engineer"];
      const r = await runCli(argv, { cwd: dir, env });
      expect(r.exitCode, r.stderr).toBe(0);
      // Three hours of the keep dir's clock over the run: three minutes a mutation.
      passKeepTime(join(dir, ".git"), (3 * HOUR) / MUTATIONS);
      mostKept = Math.max(mostKept, keptPacks(dir).length);
      const packs = readdirSync(join(dir, ".git", "objects", "pack")).filter((n) => n.endsWith(".pack"));
      handed = Math.max(handed, packs.length - keptPacks(dir).length);
      expect(looseInKeep(dir).length).toBeLessThanOrEqual(20 + 8);
    }
    // ~330 objects in packs of ~25: rolled up, never more than a handful kept at once.
    expect(mostKept).toBeGreaterThan(0);
    expect(mostKept).toBeLessThanOrEqual(6);
    // Packs past their hour were handed to git (their .keep gone) by the ten-minute sweeps.
    expect(handed).toBeGreaterThan(0);

    const before = diskUsage(join(dir, ".git"));
    expect(userCommit(dir, 1).stderr).toBe("");
    expect(existsSync(join(dir, ".git", "gc.log"))).toBe(false);
    git(dir, "fsck", "--strict", "--no-dangling");
    git(dir, "gc", "-q", "--prune=now");
    const after = diskUsage(join(dir, ".git"));
    expect(before, `${before} bytes before git gc, ${after} after`).toBeLessThan(3 * after);
    git(dir, "fsck", "--strict", "--no-dangling");
    expect((await runCli(["task", "list", "--limit", "200"], { cwd: dir })).stdout).toMatch(/Busy 58/);
  });
});

describe("packs that are not Pantheon's", () => {
  it("a .keep of git's or the user's is never removed, and its pack never rolled up", async () => {
    const dir = makeRepo();
    const env = { PANTHEON_PACK_LOOSE: "0" };
    expect((await runCli(["init", "--yes"], { cwd: dir, env })).exitCode).toBe(0);
    // A pack kept by someone else (a fetch's index-pack --keep, a user's `touch pack-….keep`).
    git(dir, "repack", "-q");
    const packDir = join(dir, ".git", "objects", "pack");
    const theirs = readdirSync(packDir)
      .find((n) => n.endsWith(".pack"))!
      .replace(/\.pack$/, "");
    writeFileSync(join(packDir, `${theirs}.keep`), "fetch-pack 4242 on host\n");
    for (let i = 0; i < 4; i++) {
      expect(
        (await runCli(["task", "create", "--title", `T${i}`, "--role", "engineer"], { cwd: dir, env })).exitCode,
      ).toBe(0);
      passKeepTime(join(dir, ".git"), HOUR);
    }
    expect(keptPacks(dir).length).toBeLessThanOrEqual(1);
    for (const ext of ["keep", "pack", "idx"]) expect(existsSync(join(packDir, `${theirs}.${ext}`)), ext).toBe(true);
    git(dir, "fsck", "--strict", "--no-dangling");
  });
});

describe("packing beside git gc --prune=now (DESIGN §2.3)", () => {
  async function setUp() {
    const dir = makeRepo();
    expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
    const store = new GitStore(discoverRepo(dir), { env: testEnv(), now: () => new Date(), warn: () => undefined });
    const tip = stateRef(dir)!;
    const tree = git(dir, "rev-parse", `${tip}^{tree}`).trim();
    // A mutation's objects, written and not yet named by the ref.
    const next = await store.writeCommit([tip], tree, new Map([["notes-x.json", Buffer.from('{"n":"x"}\n')]]), {
      summary: "test pending",
      op: "test",
      actor: "Director",
      authorName: null,
      mission: null,
    });
    const written = git(dir, "rev-list", "--objects", "--no-walk", next)
      .split("\n")
      .map((l) => l.split(" ")[0]!)
      .filter((o) => o && !git(dir, "rev-list", "--objects", "--no-walk", tip).includes(o));
    expect(written).toHaveLength(3);
    return { dir, store, tip, next, written };
  }

  /** Another process's packer, run now (it packs whatever the keep dir holds loose). */
  function packNow(dir: string) {
    const objects = join(dir, ".git", "objects");
    new LoosePacker(objects, join(dir, ".git"), join(objects, "pantheon"), {
      env: testEnv({ PANTHEON_PACK_LOOSE: "0" }),
      gcAuto: () => undefined,
    }).afterSwap(false);
  }

  it("an object packed between its write and its swap survives the prune, and its writer's check leaves it packed", async () => {
    const { dir, store, tip, next, written } = await setUp();
    packNow(dir);
    expect(looseInKeep(dir)).toEqual([]);
    for (const o of written) expect(existsSync(join(dir, ".git", "objects", o.slice(0, 2), o.slice(2)))).toBe(false);
    expect(keptPacks(dir)).toHaveLength(1);

    git(dir, "gc", "-q", "--prune=now"); // nothing names them yet: a prune's to take, were they not kept
    for (const o of written) git(dir, "cat-file", "-e", o);
    expect((await store.moveRef(tip, next, "test pending")).ok).toBe(true);
    // The check after the swap found them in the kept pack: nothing written again.
    expect(looseInKeep(dir)).toEqual([]);
    git(dir, "fsck", "--strict", "--no-dangling");

    // An hour on, the pack is git's: gc repacks what the ref names.
    passKeepTime(join(dir, ".git"), 2 * HOUR);
    expect((await runCli(["task", "create", "--title", "Later", "--role", "engineer"], { cwd: dir })).exitCode).toBe(0);
    expect(keptPacks(dir)).toEqual([]);
    git(dir, "gc", "-q", "--prune=now");
    git(dir, "fsck", "--strict", "--no-dangling");
    expect(git(dir, "cat-file", "-p", `${REF}:notes-x.json`)).toBe('{"n":"x"}\n');
  });

  it("a packer killed midway leaves only extra copies, which the next sweep removes", async () => {
    const { dir, store, tip, next, written } = await setUp();
    const objects = join(dir, ".git", "objects");
    // What a packer killed after staging its pack leaves, and one killed between the .keep and
    // the index: the loose names are all still there.
    mkdirSync(join(objects, "pantheon", "packing"));
    const staged = spawnSync("git", ["pack-objects", "-q", join(objects, "pantheon", "packing", "pack")], {
      cwd: dir,
      env: testEnv(),
      input: `${written.join("\n")}\n`,
      encoding: "utf8",
    });
    expect(staged.status, staged.stderr).toBe(0);
    const hash = staged.stdout.trim();
    const half = join(objects, "pack", `pack-${hash}`);
    copyFileSync(join(objects, "pantheon", "packing", `pack-${hash}.pack`), `${half}.pack`);
    writeFileSync(`${half}.keep`, "pantheon: loose objects packed (killed before its index)\n");
    for (const o of written) expect(existsSync(join(objects, "pantheon", o.slice(0, 2), o.slice(2)))).toBe(true);
    expect((await store.moveRef(tip, next, "test pending")).ok).toBe(true);
    git(dir, "fsck", "--strict", "--no-dangling");

    passKeepTime(join(dir, ".git"), 2 * HOUR);
    expect((await runCli(["task", "create", "--title", "Later", "--role", "engineer"], { cwd: dir })).exitCode).toBe(0);
    expect(readdirSync(join(objects, "pantheon", "packing"))).toEqual([]);
    expect(existsSync(`${half}.pack`) || existsSync(`${half}.keep`)).toBe(false);
    git(dir, "fsck", "--strict", "--no-dangling");
    expect(git(dir, "cat-file", "-p", `${REF}:notes-x.json`)).toBe('{"n":"x"}\n');
  });
});
