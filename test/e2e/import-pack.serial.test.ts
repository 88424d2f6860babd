/**
 * `task import` writes its objects as one pack (DESIGN §2.4a). A process killed at any point of
 * it leaves the ref at a valid commit, `git fsck` clean, no loose object, and nothing that stays
 * for good: its temporary pack and its `.keep` are removed by a later pack an hour on. A pack not
 * yet named by the ref survives `git gc --prune=now` (its `.keep`).
 *
 * `PANTHEON_FAULT_AT=<point>` makes the built bundle announce `pantheon-fault:<point>` on stderr
 * and hang there, so the test can SIGKILL it at exactly that point.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, jsonData, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git, makeRepo, stateRef } from "../helpers/repo.js";

const REF = "refs/coordination/main";

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
});

function pantheon(dir: string, argv: string[]) {
  const r = runBin(argv, { cwd: dir, env: { NO_COLOR: "1" } });
  if (r.exitCode !== 0) throw new Error(`pantheon ${argv.join(" ")} exited ${r.exitCode}: ${r.stderr}`);
  return r;
}

/** A repository with two tasks and an import file of `n` entries. */
function setUp(n: number): { dir: string; file: string } {
  const dir = makeRepo();
  pantheon(dir, ["init", "--yes"]);
  pantheon(dir, ["task", "create", "--title", "before one", "--role", "engineer"]);
  pantheon(dir, ["task", "create", "--title", "before two", "--role", "engineer"]);
  const file = join(dir, "plan.json");
  writeFileSync(
    file,
    JSON.stringify(Array.from({ length: n }, (_, i) => ({ title: `imported ${i}`, role: "tester" }))),
  );
  return { dir, file };
}

/** Spawns the bundle with PANTHEON_FAULT_AT=point, waits for its fault line, SIGKILLs it. */
function killAtFault(dir: string, argv: string[], point: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: dir,
      env: testEnv({ NO_COLOR: "1", PANTHEON_FAULT_AT: point }),
    });
    let stdout = "";
    let stderr = "";
    let reached = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      if (!reached && stderr.includes(`pantheon-fault:${point}\n`)) {
        reached = true;
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      if (reached) resolve({ stdout });
      else reject(new Error(`never reached ${point}\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

const looseCount = (dir: string) => Number(/^count: (\d+)$/m.exec(git(dir, "count-objects", "-v"))![1]);
const packDir = (dir: string) => join(dir, ".git", "objects", "pack");
const keepDir = (dir: string) => join(dir, ".git", "objects", "pantheon");
const files = (d: string, re: RegExp) => (existsSync(d) ? readdirSync(d).filter((f) => re.test(f)) : []);
const titles = (dir: string) =>
  jsonData(pantheon(dir, ["task", "list", "--json"]), "tasks").map((t: { title: string }) => t.title);

function expectFsckClean(dir: string): void {
  const r = spawnSync("git", ["fsck", "--strict", "--no-progress"], { cwd: dir, env: testEnv(), encoding: "utf8" });
  const complaints = `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^dangling (commit|tree|blob|tag) [0-9a-f]{40}$/.test(l));
  expect({ status: r.status, complaints }).toEqual({ status: 0, complaints: [] });
}

/** Makes a file look an hour and a minute old, as a killed writer's leftovers become. */
function ageHour(path: string): void {
  const t = new Date(Date.now() - 61 * 60_000);
  utimesSync(path, t, t);
}

describe("a task import killed while it writes its pack", () => {
  it("before the pack is complete: the ref and every object are as before; the temporary pack goes an hour later", async () => {
    const { dir, file } = setUp(400);
    const before = { tip: stateRef(dir), loose: looseCount(dir) };
    const killed = await killAtFault(dir, ["task", "import", file], "pack-unfinished");
    expect(killed.stdout).toBe("");
    expect(stateRef(dir)).toBe(before.tip);
    expect(looseCount(dir)).toBe(before.loose);
    expect(files(packDir(dir), /\.(pack|idx|keep)$/)).toEqual([]);
    const tmp = files(keepDir(dir), /^tmp_pack_/);
    expect(tmp).toHaveLength(1);
    expectFsckClean(dir);
    expect(titles(dir)).toEqual(["before one", "before two"]);

    // A writer still running is never touched: a fresh temporary file stays through an import.
    pantheon(dir, ["task", "import", file]);
    expect(files(keepDir(dir), /^tmp_pack_/)).toEqual(tmp);
    ageHour(join(keepDir(dir), tmp[0]!));
    pantheon(dir, ["task", "import", file]);
    expect(files(keepDir(dir), /^tmp_pack_/)).toEqual([]);
    expect(titles(dir)).toHaveLength(802);
    expectFsckClean(dir);
  });

  it("after the pack, before the ref moves: the ref is as before, and git gc --prune=now keeps the pack (.keep) until a later import drops its .keep", async () => {
    const { dir, file } = setUp(300);
    const before = { tip: stateRef(dir), loose: looseCount(dir) };
    await killAtFault(dir, ["task", "import", file], "after-objects");
    expect(stateRef(dir)).toBe(before.tip);
    expect(looseCount(dir)).toBe(before.loose);
    const pack = files(packDir(dir), /^pack-[0-9a-f]{40}\.pack$/);
    expect(pack).toHaveLength(1);
    const keep = pack[0]!.replace(/\.pack$/, ".keep");
    expect(files(packDir(dir), /\.keep$/)).toEqual([keep]);
    expectFsckClean(dir);

    // Nothing names its objects yet; without the .keep, this would delete the pack.
    git(dir, "gc", "-q", "--prune=now");
    expect(files(packDir(dir), /\.keep$/)).toEqual([keep]);
    expect(existsSync(join(packDir(dir), pack[0]!))).toBe(true);
    expect(titles(dir)).toEqual(["before one", "before two"]);

    ageHour(join(packDir(dir), keep));
    pantheon(dir, ["task", "import", file]);
    expect(files(packDir(dir), /\.keep$/)).toEqual([]);
    expect(titles(dir)).toHaveLength(302);
    git(dir, "gc", "-q", "--prune=now");
    expectFsckClean(dir);
    expect(titles(dir)).toHaveLength(302);
  });

  it("after the ref moved: the import is there whole, and git fsck is clean", async () => {
    const { dir, file } = setUp(300);
    const before = stateRef(dir);
    await killAtFault(dir, ["task", "import", file], "after-rename");
    const tip = stateRef(dir)!;
    expect(tip).not.toBe(before);
    expect(git(dir, "rev-parse", `${tip}^`).trim()).toBe(before);
    expect(git(dir, "cat-file", "-t", tip).trim()).toBe("commit");
    expectFsckClean(dir);
    const t = titles(dir);
    expect(t).toHaveLength(302);
    expect(t.at(-1)).toBe("imported 299");
    git(dir, "gc", "-q", "--prune=now");
    expectFsckClean(dir);
    expect(git(dir, "log", "-1", "--format=%s", REF).trim()).toMatch(/^task import of 300 tasks/);
  });
});
