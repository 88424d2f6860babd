#!/usr/bin/env node
/**
 * One racer of a barrier race (used by test/e2e/races.serial.test.ts).
 *
 *   node barrier-worker.mjs <dir> <index> '<job JSON>'      (or the job in env BARRIER_JOB)
 *
 * job = { bin: "/abs/dist/pantheon.js", cwd: "/repo", env?: {...}, steps: [{ argv: [...], cwd?, env? }] }
 *
 * The worker writes `<dir>/ready-<index>`, waits until `<dir>/go` exists (fs.watch on the dir,
 * plus a short poll in case a watch event is lost), then runs each step as a real process
 * (`node <bin> ...argv`, synchronously, one after the other) and writes every exit code, stdout
 * and stderr to `<dir>/result-<index>.json` (temp file + rename, so the test never reads half a
 * file).
 *
 * An argv element may contain `{{id:N}}`: the `data.id` of step N's `--json` stdout (a worker can
 * create a task and then claim it). When step N did not print one, the step is skipped and
 * recorded with `exitCode: null` and `skipped: <why>`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";

const BARRIER_TIMEOUT_MS = 60_000;
const POLL_MS = 10;

const [dir, indexText, jobText] = process.argv.slice(2);
if (!dir || indexText === undefined) {
  process.stderr.write("usage: barrier-worker.mjs <dir> <index> [job JSON]\n");
  process.exit(2);
}
const index = Number(indexText);
const job = JSON.parse(jobText ?? process.env.BARRIER_JOB ?? "null");
if (!job || typeof job.bin !== "string" || !Array.isArray(job.steps)) {
  process.stderr.write("barrier-worker: job must be {bin, cwd, steps: [{argv}]}\n");
  process.exit(2);
}

const goPath = join(dir, "go");

function waitForGo() {
  return new Promise((resolve, reject) => {
    let done = false;
    let watcher;
    const finish = (err) => {
      if (done) return;
      if (!err && !existsSync(goPath)) return;
      done = true;
      clearInterval(poll);
      clearTimeout(timer);
      watcher?.close();
      if (err) reject(err);
      else resolve();
    };
    // Watch before announcing readiness, so the go file cannot appear unseen in between.
    try {
      watcher = watch(dir, () => finish());
      watcher.on("error", () => undefined);
    } catch {
      watcher = undefined; // the poll below still sees it
    }
    const poll = setInterval(() => finish(), POLL_MS);
    const timer = setTimeout(
      () => finish(new Error(`barrier: no ${goPath} after ${BARRIER_TIMEOUT_MS} ms`)),
      BARRIER_TIMEOUT_MS,
    );
    writeFileSync(join(dir, `ready-${index}`), `${process.pid}\n`);
    finish();
  });
}

/** `{{id:N}}` → data.id of step N's JSON stdout. */
function substitute(argv, results) {
  return argv.map((arg) =>
    String(arg).replace(/\{\{id:(\d+)\}\}/g, (_, n) => {
      const prior = results[Number(n)];
      if (!prior) throw new Error(`step ${n} has not run`);
      let id;
      try {
        id = JSON.parse(prior.stdout).data.id;
      } catch {
        id = undefined;
      }
      if (typeof id !== "string") throw new Error(`step ${n} printed no data.id (exit ${prior.exitCode})`);
      return id;
    }),
  );
}

await waitForGo();
const released = Date.now();
const results = [];
for (const step of job.steps) {
  let argv;
  try {
    argv = substitute(step.argv, results);
  } catch (err) {
    results.push({
      argv: step.argv,
      exitCode: null,
      signal: null,
      stdout: "",
      stderr: "",
      skipped: err.message,
      ms: 0,
    });
    continue;
  }
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [job.bin, ...argv], {
    cwd: step.cwd ?? job.cwd,
    env: { ...process.env, ...job.env, ...step.env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  results.push({
    argv,
    exitCode: r.status,
    signal: r.signal,
    stdout: r.stdout ?? "",
    stderr: r.stderr ?? (r.error ? String(r.error) : ""),
    ms: Date.now() - t0,
  });
}

const out = join(dir, `result-${index}.json`);
writeFileSync(
  `${out}.tmp`,
  JSON.stringify({ index, pid: process.pid, released, finished: Date.now(), results }, null, 1),
);
renameSync(`${out}.tmp`, out);
