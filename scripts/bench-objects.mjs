// npm run bench:objects [-- --mutations N] [-- --hours H] [-- --api path/to/api.cjs] [-- --keep]
// A busy clone's .git (DESIGN §2.4a): N mutations (default 100,000; half task creates, half
// notes) through pantheon/api in one process, as fast as this machine runs them, with the keep
// dir's clock moved so that they span H hours (default 1): every file under objects/pantheon/
// and every .keep of Pantheon's is dated back as the run goes, which is how the keep dir tells
// time (its hour and its ten-minute sweeps are file ages), so an hour passes for it without
// waiting. Then, as a user would: `git commit` in the worktree with auto gc on (git's defaults,
// in the foreground so that what it says is the commit's), whether a gc.log is left, and .git's
// size before and after `git gc --prune=now`.
// Prints the latency a mutation pays (all, and those that packed), the packs made, and sizes.
// --api runs another build (e.g. the main branch's dist/api.cjs) for a before/after.
// Not part of npm test: 100,000 mutations take about half an hour here.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cleanEnv } from "./soak-common.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const MUTATIONS = Number(arg("mutations", "100000"));
const HOURS = Number(arg("hours", "1"));
const API = resolve(arg("api", join(ROOT, "dist", "api.cjs")));
const keep = process.argv.includes("--keep");
/** The keep dir's clock is moved this often (walking it costs a few ms). */
const CLOCK_EVERY = 100;

// Auto gc as git ships it: no gc.auto of our own.
const env = cleanEnv({ GIT_CONFIG_COUNT: "0" });
delete env.GIT_CONFIG_KEY_0;
delete env.GIT_CONFIG_VALUE_0;
const git = (cwd, ...args) => execFileSync("git", args, { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });

/** Disk used (blocks), each inode once: a loose object and its second name are one file. */
function diskUsage(dir) {
  const seen = new Set();
  let bytes = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const st = statSync(p);
      if (e.isDirectory()) walk(p);
      if (seen.has(st.ino)) continue;
      seen.add(st.ino);
      bytes += st.blocks * 512;
    }
  };
  walk(dir);
  return bytes;
}

/** Time passes for the keep dir: its files, and Pantheon's .keep files, dated back by `ms`. */
function passKeepTime(gitDir, ms) {
  const back = (p) => {
    const t = new Date(statSync(p).mtimeMs - ms);
    utimesSync(p, t, t);
  };
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      try {
        if (e.isDirectory()) walk(p);
        else back(p);
      } catch {
        // removed meanwhile (a sweep, a packer)
      }
    }
  };
  try {
    walk(join(gitDir, "objects", "pantheon"));
  } catch {
    // no keep dir yet
  }
  const packs = join(gitDir, "objects", "pack");
  for (const n of readdirSync(packs))
    if (n.endsWith(".keep") && readFileSync(join(packs, n), "utf8").startsWith("pantheon: ")) back(join(packs, n));
}

function objectsReport(dir) {
  const count = Object.fromEntries(
    git(dir, "count-objects", "-v")
      .trim()
      .split("\n")
      .map((l) => l.split(": ")),
  );
  const packDir = join(dir, ".git", "objects", "pack");
  const names = readdirSync(packDir);
  let keepLoose = 0;
  const keepDir = join(dir, ".git", "objects", "pantheon");
  try {
    for (const d of readdirSync(keepDir).filter((n) => /^[0-9a-f]{2}$/.test(n)))
      keepLoose += readdirSync(join(keepDir, d)).length;
  } catch {
    // none
  }
  return {
    looseInMain: Number(count.count),
    looseInKeepDir: keepLoose,
    packs: names.filter((n) => n.endsWith(".pack")).length,
    keptByPantheon: names.filter(
      (n) => n.endsWith(".keep") && readFileSync(join(packDir, n), "utf8").startsWith("pantheon: "),
    ).length,
  };
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;

const dir = mkdtempSync(join(tmpdir(), "pantheon-bench-objects-"));
git(dir, "init", "-q", "-b", "main");
git(dir, "commit", "-q", "--allow-empty", "-m", "root");
// init is the CLI's (the same build's).
execFileSync(process.execPath, [join(API, "..", "pantheon.js"), "init", "--yes"], { cwd: dir, env, stdio: "ignore" });
const { openPantheon } = createRequire(import.meta.url)(API);
const p = await openPantheon({ cwd: dir, env });

const gitDir = join(dir, ".git");
const stepMs = (HOURS * 3600_000) / MUTATIONS;
const all = [];
const packing = [];
let created = 0;
let packNames = new Set(readdirSync(join(gitDir, "objects", "pack")).filter((n) => n.endsWith(".keep")));
const t0 = Date.now();
for (let i = 0; i < MUTATIONS; i++) {
  const s = performance.now();
  if (created < 10 || i % 2 === 0) {
    await p.tasks.create({ title: `Busy task ${i}`, role: "engineer", priority: "medium" });
    created++;
  } else {
    await p.tasks.note(String(created - (i % 10)), `note ${i} on a busy afternoon`);
  }
  const ms = performance.now() - s;
  all.push(ms);
  const now = new Set(readdirSync(join(gitDir, "objects", "pack")).filter((n) => n.endsWith(".keep")));
  if ([...now].some((n) => !packNames.has(n))) packing.push(ms);
  packNames = now;
  if ((i + 1) % CLOCK_EVERY === 0) passKeepTime(gitDir, CLOCK_EVERY * stepMs);
  if ((i + 1) % 10_000 === 0)
    process.stderr.write(
      `${i + 1} mutations, ${((Date.now() - t0) / 1000).toFixed(0)} s, .git ${mb(diskUsage(gitDir))}, ${JSON.stringify(objectsReport(dir))}\n`,
    );
}
const wall = (Date.now() - t0) / 1000;

const before = diskUsage(gitDir);
const objects = objectsReport(dir);
// The user's commit, with auto gc on and in the foreground: what it says is what they would see.
writeFileSync(join(dir, "work.txt"), "a change of the user's\n");
git(dir, "add", "work.txt");
const commit = spawnSync("git", ["-c", "gc.autoDetach=false", "commit", "-q", "-m", "user work"], {
  cwd: dir,
  env,
  encoding: "utf8",
});
const gcLog = (() => {
  try {
    return readFileSync(join(gitDir, "gc.log"), "utf8");
  } catch {
    return null;
  }
})();
const afterCommit = diskUsage(gitDir);
git(dir, "gc", "-q", "--prune=now");
const afterGc = diskUsage(gitDir);
git(dir, "fsck", "--connectivity-only", "--no-dangling");

all.sort((a, b) => a - b);
packing.sort((a, b) => a - b);
const f = (x) => (x === undefined ? "-" : `${x.toFixed(1)} ms`);
console.log(`## ${MUTATIONS} mutations over ${HOURS} h of the keep dir's clock (${API})\n`);
console.log(`wall ${wall.toFixed(0)} s, ${(MUTATIONS / wall).toFixed(0)} mutations/s`);
console.log(
  `| latency | p50 | p90 | p99 | max |\n|---|---|---|---|---|\n| every mutation | ${f(pct(all, 50))} | ${f(pct(all, 90))} | ${f(pct(all, 99))} | ${f(all.at(-1))} |`,
);
console.log(
  `| the ${packing.length} that packed | ${f(pct(packing, 50))} | ${f(pct(packing, 90))} | ${f(pct(packing, 99))} | ${f(packing.at(-1))} |`,
);
console.log(`\nobjects at the end: ${JSON.stringify(objects)}`);
console.log(
  `.git: ${mb(before)} after the run, ${mb(afterCommit)} after the user's commit, ${mb(afterGc)} after git gc --prune=now (${(before / afterGc).toFixed(2)}×)`,
);
console.log(`git commit (auto gc on) said: ${JSON.stringify(commit.stderr.trim())}, exit ${commit.status}`);
console.log(`gc.log: ${gcLog === null ? "none" : JSON.stringify(gcLog.trim())}`);
if (keep) console.log(`kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
