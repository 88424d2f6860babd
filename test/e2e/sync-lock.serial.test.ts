/**
 * Two `pantheon sync` at once in one clone (issue 12 point 10): they used to race on the tracking
 * ref (git refuses the second fetch's ref update) and one failed with exit 3. Syncs of a clone
 * now take turns under the sync lock (<commondir>/pantheon/sync.lock, git's lock protocol, a wait
 * within a budget). Racers are real processes of the built bundle released from a file barrier,
 * in the main worktree and a linked one, while another clone keeps publishing.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, jsonData, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { makeOriginAndClones, REF, syncUntilEqual, type Clone } from "../helpers/clones.js";
import { race, type Job } from "../helpers/barrier.js";

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
});

const ROUNDS = 4;

describe("syncs of one clone at the same time", () => {
  it("all succeed (they take turns), every task arrives everywhere, and the lock is gone afterwards", async () => {
    const { root, clones, originRef } = await makeOriginAndClones(2, { bin: true });
    const [c0, c1] = clones as [Clone, Clone];
    const linked = join(root, "clone1-side");
    c1.git("worktree", "add", "-q", "-b", "side", linked);
    const sideJob = (cwd: string, who: string): Job => ({
      cwd,
      env: { NO_COLOR: "1" },
      steps: Array.from({ length: ROUNDS }, (_, k) => [
        { argv: ["task", "create", "--title", `${who} ${k}`, "--role", "engineer", "--json"] },
        { argv: ["sync", "--json"] },
      ]).flat(),
    });
    const runs = await race([
      sideJob(c1.dir, "main worktree"),
      sideJob(linked, "linked worktree"),
      sideJob(c1.dir, "main again"),
      sideJob(c0.dir, "other clone"),
    ]);
    expect(Math.max(...runs.map((r) => r.released))).toBeLessThan(Math.min(...runs.map((r) => r.finished)));
    for (const [w, run] of runs.entries()) {
      for (const s of run.results) {
        const what = `worker ${w}: pantheon ${s.argv.join(" ")} → exit ${s.exitCode}\n${s.stderr}`;
        // Within clone 1 nobody may fail; clone 0 races clone 1 through the origin, where a
        // sync may still give up after its bounded retries (exit 3, "kept changing").
        if (w === 3 && s.argv[0] === "sync" && s.exitCode === 3) {
          expect(s.stderr, what).toMatch(/kept changing/);
          continue;
        }
        expect(s.exitCode, what).toBe(0);
      }
    }
    await syncUntilEqual([c1, c0]);
    expect(c1.ref()).toBe(originRef());
    const titles = (await c1.json<any[]>(["task", "list"], "tasks")).map((t) => t.title);
    expect(titles).toHaveLength(4 * ROUNDS);
    expect(existsSync(join(c1.dir, ".git", "pantheon", "sync.lock")), "the lock is released").toBe(false);
    expect(c1.git("rev-parse", REF).trim()).toBe(c0.git("rev-parse", REF).trim());
  });
});

/** Runs the bundle with PANTHEON_FAULT_AT=point, waits for it to announce the point (a barrier, not a sleep), SIGKILLs it. */
function killAt(dir: string, argv: string[], point: string): Promise<{ pid: number; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: dir,
      env: testEnv({ NO_COLOR: "1", PANTHEON_FAULT_AT: point }),
    });
    let stderr = "";
    let reached = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stderr.on("data", (d) => {
      stderr += d;
      if (!reached && stderr.includes(`pantheon-fault:${point}\n`)) {
        reached = true;
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    // "close": the process is gone and reaped, as a killed sync's pid is once its shell waits for it.
    child.on("close", (_code, signal) => {
      clearTimeout(timer);
      if (reached) resolve({ pid: child.pid!, signal });
      else reject(new Error(`never reached ${point}: ${stderr}`));
    });
  });
}

describe("a sync killed while it holds the lock", () => {
  it("does not block the next sync: the lock names a process that is gone, so it is taken over at once; doctor says so meanwhile", async () => {
    const { clones, originRef } = await makeOriginAndClones(1, { bin: true });
    const c = clones[0]!;
    await c.ok(["task", "create", "--title", "Waiting to be published", "--role", "engineer"]);
    const lock = join(c.dir, ".git", "pantheon", "sync.lock");
    const killed = await killAt(c.dir, ["sync"], "holding-sync-lock");
    expect(killed.signal).toBe("SIGKILL");
    expect(existsSync(lock), "the killed sync left its lock").toBe(true);
    expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ pid: killed.pid });

    const doctor = jsonData(runBin(["doctor", "--json"], { cwd: c.dir, env: { NO_COLOR: "1" } }), "doctor");
    expect(doctor.findings).toContainEqual(
      expect.objectContaining({ code: "W_STALE_SYNC_LOCK", severity: "warning", subject: lock }),
    );
    expect(doctor.findings.find((f: any) => f.code === "W_STALE_SYNC_LOCK").message).toContain(
      `names process ${killed.pid}, which no longer runs`,
    );

    // Two minutes younger than the age rule, and a wait far shorter than it: only the dead pid can let it through.
    const r = runBin(["sync", "--json"], { cwd: c.dir, env: { NO_COLOR: "1", PANTHEON_SYNC_WAIT_MS: "3000" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonData(r, "sync").action).toBe("pushed");
    expect(originRef()).toBe(c.ref());
    expect(existsSync(lock), "released").toBe(false);
  });
});
