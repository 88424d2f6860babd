import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GitError } from "../../../src/errors.js";
import { catFileBatch } from "../../../src/store/git/cat-file-batch.js";
import { CatFileProcess } from "../../../src/store/git/cat-file-process.js";
import { MAX_OBJECT_BYTES, ObjectDb } from "../../../src/store/git/object-db.js";
import { runGit } from "../../../src/store/repo/run-git.js";
import { OBJECT_READ_BOUNDS, runBoundedGit, runBoundedGitSync } from "../../../src/store/git/git-bounds.js";
import { deltaData, gitPeakRss, type Hostility, plantHostileObject, writePack } from "../../helpers/hostile-pack.js";
import { git, gitEnv, makeRepo, type TempRepo } from "./plumbing-fixture.js";

const MIB = 1024 * 1024;
/**
 * "In seconds", on a loaded 2-core machine: git reaches its allocation limit in 1-4 s here;
 * unbounded it runs until the kernel refuses it memory, and a stall would end at the 30 s limit.
 */
const SECONDS = 15_000;

/** A repository with a few blobs, one of which (returned) is then made hostile. */
function hostileRepo(kind: Hostility): { repo: TempRepo; oid: string; good: string } {
  const repo = makeRepo();
  for (const n of [1, 2, 3]) writeFileSync(join(repo.dir, `f${n}`), `content ${n}\n`);
  git(repo.dir, ["add", "-A"]);
  git(repo.dir, ["commit", "-q", "-m", "three files"]);
  const oid = git(repo.dir, ["rev-parse", "HEAD:f2"]).trim();
  const good = git(repo.dir, ["rev-parse", "HEAD:f1"]).trim();
  plantHostileObject(repo.gitDir, oid, kind);
  return { repo, oid, good };
}

/**
 * Processes this test process started through the bounded runners that are still alive (polled:
 * a SIGKILLed process lingers in /proc for the moment the kernel takes to tear it down).
 */
function runsLeft(): string[] {
  const mark = Buffer.from(`\0PANTHEON_GIT_RUN=${process.pid}.`);
  return readdirSync("/proc").filter((pid) => {
    try {
      return (
        /^\d+$/.test(pid) && Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]).includes(mark)
      );
    } catch {
      return false;
    }
  });
}

/** The error a promise rejects with, and how long it took. */
async function failure(p: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const t0 = performance.now();
  try {
    await p();
  } catch (error) {
    return { error, ms: performance.now() - t0 };
  }
  throw new Error("expected a failure");
}

describe("git cat-file --batch is bounded: a hostile pack is E_GIT_CORRUPT_OBJECT naming the object, in seconds", () => {
  it.each(["self", "cycle", "huge"] as const)("%s", async (kind) => {
    const { repo, oid, good } = hostileRepo(kind);
    const { result, peakBytes } = await gitPeakRss(repo.dir, () =>
      failure(() => catFileBatch(repo.gitDir, [good, oid, good], {})),
    );
    const { error, ms } = result;
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).code).toBe("E_GIT_CORRUPT_OBJECT");
    expect((error as Error).message).toContain(`Cannot read git object ${oid}: git cat-file `);
    expect((error as Error).message).toMatch(
      kind === "huge"
        ? /declared it as 4294967296 bytes, over the 67108864-byte limit/
        : /tried to allocate \d+ MiB, over its 128 MiB limit/,
    );
    expect(ms).toBeLessThan(SECONDS);
    // Unbounded, git grew ~300 MB a second on these (16.7 GB before the kernel refused more).
    expect(peakBytes).toBeLessThan(OBJECT_READ_BOUNDS.allocBytes * 2);
    console.log(
      `cat-file --batch, ${kind}: refused after ${Math.round(ms)} ms, git's peak RSS ${Math.round(peakBytes / MIB)} MiB`,
    );
  });

  it("the object db: one error naming the object, and honest objects around it still read", async () => {
    const { repo, oid, good } = hostileRepo("cycle");
    const db = new ObjectDb(repo.gitDir);
    expect((await db.read(good)).content.toString()).toBe("content 1\n");
    const { error, ms } = await failure(() => db.read(oid));
    expect((error as GitError).code).toBe("E_GIT_CORRUPT_OBJECT");
    expect((error as Error).message).toMatch(
      new RegExp(`^Cannot read git object ${oid}: git cat-file tried to allocate \\d+ MiB, over its 128 MiB limit`),
    );
    expect(ms).toBeLessThan(SECONDS);
    // The git that died is replaced by a new one for the next read.
    expect((await db.read(git(repo.dir, ["rev-parse", "HEAD:f3"]).trim())).content.toString()).toBe("content 3\n");
    // Parsed reads go the same way: the commit and its tree are read, the hostile blob is refused.
    const head = git(repo.dir, ["rev-parse", "HEAD"]).trim();
    expect((await db.readTree((await db.readCommit(head)).tree))?.map((e) => e.name)).toEqual(["f1", "f2", "f3"]);
  });

  it("an offset delta naming itself or a place before the pack, a delta declaring gigabytes: errors, never an answer", async () => {
    const repo = makeRepo({ bare: true });
    const packDir = join(repo.gitDir, "objects", "pack");
    const small = deltaData(5, 5, Buffer.from("hello"));
    const huge = deltaData(5, 4 * 2 ** 30, Buffer.from("hello"));
    const ids = ["a".repeat(40), "b".repeat(40), "c".repeat(40), "d".repeat(40)];
    writePack(packDir, [
      { oid: ids[0]!, type: 6, size: small.length, data: small, back: 0 },
      { oid: ids[1]!, type: 6, size: small.length, data: small, back: 4096 },
      { oid: ids[2]!, type: 3, size: 5, data: Buffer.from("hello") },
      { oid: ids[3]!, type: 7, size: huge.length, data: huge, base: ids[2]! },
    ]);
    const db = new ObjectDb(repo.gitDir);
    expect((await db.read(ids[2]!)).content.toString()).toBe("hello");
    for (const id of [ids[0]!, ids[1]!, ids[3]!]) {
      const { error, ms } = await failure(() => db.read(id));
      expect(error, id).toBeInstanceOf(GitError);
      expect((error as Error).message, id).toContain(id);
      expect(ms, id).toBeLessThan(SECONDS);
    }
  });

  it("one git for the whole command, bounded as a one-shot run: memory sampled, time, and nothing of it left", async () => {
    const { repo, oid, good } = hostileRepo("self");
    const sampled = new CatFileProcess(repo.gitDir, {}, MAX_OBJECT_BYTES, {
      timeoutMs: 30_000,
      allocBytes: Number.POSITIVE_INFINITY,
      rssBytes: 96 * MIB,
    });
    expect((await sampled.read(good))?.content.toString()).toBe("content 1\n");
    await expect(sampled.read(oid)).rejects.toThrow(
      new RegExp(`^Cannot read git object ${oid}: git cat-file used over 96 MiB of memory reading it`),
    );
    expect((await sampled.read(good))?.content.toString()).toBe("content 1\n");
    sampled.close();
    const timed = new CatFileProcess(repo.gitDir, {}, MAX_OBJECT_BYTES, {
      timeoutMs: 400,
      allocBytes: Number.POSITIVE_INFINITY,
      rssBytes: Number.POSITIVE_INFINITY,
    });
    const t0 = performance.now();
    await expect(timed.read(oid)).rejects.toThrow(/git cat-file ran past 0\.4 s reading it/);
    expect(performance.now() - t0).toBeLessThan(5000);
    await expect.poll(runsLeft, { timeout: 2000 }).toEqual([]);
  });
});

describe("the bounds themselves (git-bounds.ts), each shown alone on a delta cycle", () => {
  const CAT = (repo: TempRepo) => [`--git-dir=${repo.gitDir}`, "cat-file", "--batch"];

  it("resident memory, sampled from /proc: stopped near the bound with git's allocation limit lifted", async () => {
    const { repo, oid } = hostileRepo("self");
    const bounds = { allocBytes: Number.POSITIVE_INFINITY, rssBytes: 96 * MIB };
    const { result: r, peakBytes } = await gitPeakRss(repo.dir, () =>
      runBoundedGit(CAT(repo), { env: {}, input: `${oid}\n`, bounds }),
    );
    expect(r.stopped).toEqual({ bound: "memory", reason: "used over 96 MiB of memory" });
    expect(r.peakRss).toBeGreaterThan(96 * MIB);
    // One sample (20 ms) of growth past the bound, with room for a loaded machine.
    expect(peakBytes).toBeLessThan(96 * MIB + 64 * MIB);
  });

  it("time: the process and what it started are killed, nothing of the run is left", async () => {
    const { repo, oid } = hostileRepo("cycle");
    const bounds = { timeoutMs: 400, allocBytes: Number.POSITIVE_INFINITY, rssBytes: Number.POSITIVE_INFINITY };
    const t0 = performance.now();
    const r = await runBoundedGit(CAT(repo), { env: {}, input: `${oid}\n`, bounds });
    expect(r.stopped).toEqual({ bound: "time", reason: "ran past 0.4 s" });
    expect(performance.now() - t0).toBeLessThan(5000);
    const sync = runBoundedGitSync(CAT(repo), { env: {}, input: `${oid}\n`, bounds });
    expect(sync.stopped?.bound).toBe("time");
    await expect.poll(runsLeft, { timeout: 2000 }).toEqual([]);
  });

  it("a fetch from a local repository: the helpers git starts (upload-pack, pack-objects) are measured and killed with it", async () => {
    const { repo } = hostileRepo("self");
    const dest = makeRepo({ bare: true });
    const fetch = [`--git-dir=${dest.gitDir}`, "fetch", "-q", repo.gitDir, "HEAD:refs/heads/fetched"];
    // pack-objects, two processes below git fetch, is the one that grows.
    const r = await runBoundedGit(fetch, {
      env: gitEnv(),
      bounds: { allocBytes: Number.POSITIVE_INFINITY, rssBytes: 96 * MIB },
    });
    expect(r.stopped).toEqual({ bound: "memory", reason: "used over 96 MiB of memory" });
    await expect.poll(runsLeft, { timeout: 2000 }).toEqual([]);
    // spawnSync kills git fetch alone at its timeout; what it started is found by its environment.
    const bounds = { timeoutMs: 1000, allocBytes: Number.POSITIVE_INFINITY };
    expect(runBoundedGitSync(fetch, { env: gitEnv(), bounds }).stopped?.bound).toBe("time");
    await expect.poll(runsLeft, { timeout: 2000 }).toEqual([]);
  });

  it("runGit (merge-base, rev-list, push...) turns a memory stop into E_GIT_CORRUPT_OBJECT, never an exit status read as an answer", () => {
    const { repo, oid } = hostileRepo("self");
    const paths = { workTree: repo.dir, gitDir: repo.gitDir, commonDir: repo.gitDir };
    expect(() => runGit(paths, ["cat-file", "blob", oid], gitEnv())).toThrow(
      /^git cat-file tried to allocate \d+ MiB, over its 128 MiB limit: a pack of this repository is corrupt or hostile$/,
    );
  });

  it("git's allocation limit stops it without /proc, in the synchronous runner too", () => {
    const { repo, oid } = hostileRepo("cycle");
    const t0 = performance.now();
    const r = runBoundedGitSync(CAT(repo), { env: {}, input: `${oid}\n`, bounds: { timeoutMs: 20_000 } });
    expect(r.stopped).toEqual({
      bound: "memory",
      reason: expect.stringMatching(/^tried to allocate \d+ MiB, over its 128 MiB limit$/),
    });
    expect(performance.now() - t0).toBeLessThan(SECONDS);
  });
});
