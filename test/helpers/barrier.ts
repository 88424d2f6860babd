import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BIN } from "./cli.js";
import { testEnv } from "./env.js";
import { tempDir } from "./repo.js";

/**
 * Racing real `pantheon` processes from a file barrier (test/e2e/barrier-worker.mjs): never
 * staggered by sleeps. Each job is one worker running its steps in order.
 */
const WORKER = fileURLToPath(new URL("../e2e/barrier-worker.mjs", import.meta.url));

export interface Step {
  argv: string[];
  cwd?: string;
  env?: Record<string, string>;
}
export interface Job {
  cwd: string;
  env?: Record<string, string>;
  steps: Step[];
}
export interface StepResult {
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  skipped?: string;
  ms: number;
}
export interface WorkerRun {
  /** Wall-clock ms when the worker saw `go`, and when its last step ended. */
  released: number;
  finished: number;
  results: StepResult[];
}

/**
 * Spawns one barrier worker per job, waits until every one has written its ready file, creates
 * `go`, and returns each worker's run (in job order).
 */
export async function race(jobs: Job[]): Promise<WorkerRun[]> {
  const dir = tempDir("pantheon-barrier-");
  const children: ChildProcess[] = [];
  const exits = jobs.map((job, i) => {
    const child = spawn(process.execPath, [WORKER, dir, String(i), JSON.stringify({ bin: BIN, ...job })], {
      env: testEnv({ NO_COLOR: "1" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    return new Promise<{ code: number | null; output: string }>((resolve) =>
      child.on("close", (code) => resolve({ code, output })),
    );
  });
  let early: string | null = null;
  exits.forEach(
    (p, i) =>
      void p.then((e) => (early ??= `worker ${i} exited before the barrier opened (code ${e.code}): ${e.output}`)),
  );

  const deadline = Date.now() + 30_000;
  try {
    while (!jobs.every((_, i) => existsSync(join(dir, `ready-${i}`)))) {
      if (early) throw new Error(early);
      if (Date.now() > deadline) throw new Error("barrier: workers did not all become ready within 30 s");
      await new Promise((r) => setTimeout(r, 5));
    }
  } catch (err) {
    // Do not leave the others waiting at the barrier.
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await Promise.all(exits);
    throw err;
  }
  writeFileSync(join(dir, "go"), "go\n");

  const done = await Promise.all(exits);
  return done.map((e, i) => {
    if (e.code !== 0) throw new Error(`worker ${i} failed (code ${e.code}): ${e.output}`);
    return JSON.parse(readFileSync(join(dir, `result-${i}.json`), "utf8")) as WorkerRun;
  });
}
