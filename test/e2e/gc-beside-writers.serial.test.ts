import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { race, type Job } from "../helpers/barrier.js";
import { jsonData, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git, makeRepo, stateRef } from "../helpers/repo.js";

/**
 * Issue 12 point 8 and its acceptance, the short version of `npm run soak -- --gc` / `--gc-prune`:
 * pantheon processes writing from a barrier while a loop runs git gc and git repack -ad (and
 * git gc --prune=now) back to back on the same repository. Zero failed commands, zero lost
 * records, the ref never names a missing object, and a deleted ref is restored by doctor --recover.
 */

const REF = "refs/coordination/main";
const WORKERS = 4;
const TASKS_EACH = 6;

function gitAsync(cwd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd, env: testEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** git's maintenance, back to back until stopped; after every run, the ref must name a commit that is there. */
function gcLoop(dir: string, steps: string[][]) {
  const seen = { runs: 0, failures: [] as string[], missing: [] as string[] };
  let stopping = false;
  const done = (async () => {
    for (let i = 0; !stopping; i++) {
      const step = steps[i % steps.length]!;
      const r = await gitAsync(dir, step);
      seen.runs++;
      if (r.code !== 0) seen.failures.push(`git ${step.join(" ")}: ${r.out.trim()}`);
      if ((await gitAsync(dir, ["cat-file", "-e", `${REF}^{commit}`])).code !== 0)
        seen.missing.push(`after git ${step.join(" ")}`);
    }
  })();
  return async () => {
    stopping = true;
    await done;
    return seen;
  };
}

const list = (dir: string) =>
  jsonData(runBin(["task", "list", "--json"], { cwd: dir, env: { NO_COLOR: "1" } }), "tasks").map(
    (t: { id: string; title: string }) => `${t.id} ${t.title}`,
  );

describe.each([
  [
    "git gc and git repack -ad",
    [
      ["gc", "-q"],
      ["repack", "-adq"],
    ],
  ],
  [
    "git gc --prune=now, git repack -ad and git gc",
    [
      ["gc", "-q", "--prune=now"],
      ["repack", "-adq"],
      ["gc", "-q"],
    ],
  ],
])("writers beside %s", (_name, steps) => {
  it("fail no command, lose no record, never leave the ref on a missing object; a deleted ref is recovered", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    const jobs: Job[] = Array.from({ length: WORKERS }, (_, w) => ({
      cwd: dir,
      // Past 8 loose objects, a mutation packs them (loose-packer.ts): packing, roll-ups and
      // loose writes all run beside the gc loop (a few dozen packs in all).
      env: { NO_COLOR: "1", PANTHEON_PACK_LOOSE: "8" },
      steps: Array.from({ length: TASKS_EACH }, (_, i) => [
        { argv: ["task", "create", "--title", `w${w} t${i}`, "--role", "engineer", "--json"] },
        // Task 1 exists once this worker's own first create has run.
        { argv: i % 2 === 0 ? ["task", "list", "--json"] : ["task", "note", "1", `note ${w}.${i}`] },
      ]).flat(),
    }));
    const stop = gcLoop(dir, steps);
    const runs = await race(jobs);
    const gc = await stop();

    const failed = runs.flatMap((r, w) =>
      r.results
        .filter((s) => s.exitCode !== 0)
        .map((s) => `worker ${w}: ${s.argv.join(" ")} → ${s.exitCode}: ${s.stderr.trim()}`),
    );
    expect(failed).toEqual([]);
    expect(gc.failures).toEqual([]);
    expect(gc.missing).toEqual([]);
    expect(gc.runs).toBeGreaterThan(0);
    const titles = list(dir)
      .map((l: string) => l.replace(/^\S+ /, ""))
      .sort();
    expect(titles).toEqual(
      Array.from({ length: WORKERS }, (_, w) => Array.from({ length: TASKS_EACH }, (_, i) => `w${w} t${i}`))
        .flat()
        .sort(),
    );
    git(dir, "fsck", "--connectivity-only", "--no-dangling");
    // The writers packed as they went: few loose objects are left for git.
    expect(Number(/^count: (\d+)$/m.exec(git(dir, "count-objects", "-v"))![1])).toBeLessThan(40);
    git(dir, "gc", "-q", "--prune=now");
    git(dir, "fsck", "--strict", "--no-dangling");

    // The accident, and the recovery: the newest candidate is the deleted tip.
    const before = list(dir);
    const tip = stateRef(dir)!;
    git(dir, "update-ref", "-d", REF);
    const plan = runBin(["doctor", "--recover", "--json"], { cwd: dir });
    expect(plan.exitCode).toBe(1);
    expect(jsonData(plan, "recovery").candidates[0].commit).toBe(tip);
    expect(runBin(["doctor", "--recover", tip], { cwd: dir }).exitCode).toBe(0);
    expect(list(dir)).toEqual(before);
    expect(runBin(["doctor"], { cwd: dir }).exitCode).toBe(0);
  });
});
