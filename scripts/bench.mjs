// npm run bench [-- --quick] [-- --sizes=1000,10000,50000] [-- --sync-only] [-- --keep]
//                [-- --history-only] [-- --history-commits=1000,100000] [-- --no-history]
//                [-- --before=<another build's pantheon.js>]
//                [-- --only=doctor,import,first,list] [-- --bin=path/to/pantheon.js]
// Whole-process medians of Pantheon commands at several store sizes, each as a ratio to
// `node -e 0` measured in the same run (commands interleaved round by round, so drifting load
// hits all alike), plus the git plumbing floor, task import, 8-process contention, peak memory
// and taskwarrior on the same data when it can be installed, and sync between clones through a
// bare remote at 10,000 tasks (issue 14), and history-bound reads (`task history`, `log`, the web's
// charts) over synthesised histories of 1,000 and 100,000 commits. Prints Markdown tables.
// Every size is measured twice: in the clone as the commands left it (loose objects) and in a
// copy of it after `git gc --prune=now` (every object packed, as after a fetch or a gc), reads
// and mutations alike, so the cost of each path of the object database is seen.
// PANTHEON_BENCH_BIN=<path to a build's pantheon.js> measures another build; --before=<path>
// measures another build beside this one in the same run, every Pantheon command of the two
// interleaved round by round ("(before)" rows), the sync bench too.
// No test asserts a time: this is the measuring instrument (docs/performance.md).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { cpus, hostname, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
/** --bin (or PANTHEON_BENCH_BIN) measures another build (a copy of dist/ made before a change, for a before/after). */
const BIN = resolve(
  process.argv.find((a) => a.startsWith("--bin="))?.slice(6) ??
    process.env.PANTHEON_BENCH_BIN ??
    join(ROOT, "dist/pantheon.js"),
);
/** --only runs only these cases of bench-scale.mjs (the design's own size), nothing else. */
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const RSS = join(ROOT, "scripts/bench-rss.mjs");
const beforeArg = process.argv.find((a) => a.startsWith("--before="))?.slice(9);
/** Another build measured beside BIN in the same run, interleaved (--before=). */
const BEFORE = beforeArg ? resolve(beforeArg) : null;
const noHistory = process.argv.includes("--no-history");
const quick = process.argv.includes("--quick");
const syncOnly = process.argv.includes("--sync-only");
/** Only the history-bound reads over synthesised histories (issue: history at scale). */
const historyOnly = process.argv.includes("--history-only");
const historyCommits = (process.argv.find((a) => a.startsWith("--history-commits="))?.slice(18) ?? "1000,100000")
  .split(",")
  .map(Number);
/** --keep leaves the sync bench's clones in place (ff-*, merge-*) and prints where, to profile one. */
const keep = process.argv.includes("--keep");
const sizes = (
  process.argv.find((a) => a.startsWith("--sizes="))?.slice(8) ?? (quick ? "1000,10000" : "1000,10000,50000")
)
  .split(",")
  .map(Number);
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
  NO_COLOR: "1",
  GIT_CONFIG_NOSYSTEM: "1",
};
for (const k of Object.keys(env))
  if (/^(GIT_DIR|GIT_INDEX_FILE|GIT_WORK_TREE|PANTHEON_|CLAUDECODE|CODEX_|GEMINI_CLI|OPENCODE)/.test(k)) delete env[k];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function time(argv, cwd, extraEnv = {}, input = undefined) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), {
    cwd,
    env: { ...env, ...extraEnv },
    stdio: [input === undefined ? "ignore" : "pipe", "ignore", "pipe"],
    input,
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}
// Run as a user runs it: the executable itself (its first line passes Node its flags).
const pantheon = (...a) => [BIN, ...a];
/** The same command run by the --before build. */
const beforeOf = (argv) => (argv[0] === BIN && BEFORE ? [BEFORE, ...argv.slice(1)] : argv);

/**
 * A copy of `dir` with every object packed: the keep dir's second names dropped (they are hard
 * links of the main store's files, which an hour later the sweep hands back to git anyway), then
 * `git gc --prune=now`. The read cache is copied with it, as it stands in a clone after a gc.
 */
function packedCopy(dir) {
  const copy = `${dir}-packed`;
  cpSync(dir, copy, { recursive: true });
  const keep = join(copy, ".git", "objects", "pantheon");
  if (existsSync(keep))
    for (const d of readdirSync(keep)) if (/^[0-9a-f]{2}$/.test(d)) rmSync(join(keep, d), { recursive: true });
  execFileSync("git", ["gc", "-q", "--prune=now"], { cwd: copy, env });
  const loose = readdirSync(join(copy, ".git", "objects")).filter((d) => /^[0-9a-f]{2}$/.test(d));
  if (loose.length > 0) throw new Error(`packed copy still has loose objects in ${loose.join(", ")}`);
  return copy;
}

/** Each Pantheon command of `commands` followed by its --before twin (same argv, the other build). */
function withBefore(commands) {
  if (!BEFORE) return commands;
  return commands.flatMap((c) =>
    c.kind === "base" || c.kind === "floor" || c.kind === "tab" || c.kind === "hook"
      ? [c]
      : // A mutation's twin gets its own target (`true`): a claim of the same task would be refused.
        [c, { ...c, name: `${c.name} (before)`, argv: (i) => beforeOf(c.argv(i, true)), before: true }],
  );
}
const run = (cwd, ...a) =>
  execFileSync(process.execPath, [BIN, ...a], { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });

/** A repository with `size` tasks created by `task import` (one commit), plus missions to claim with. */
function seed(size) {
  const dir = mkdtempSync(join(tmpdir(), `pantheon-bench-${size}-`));
  execFileSync("git", ["init", "-q"], { cwd: dir, env });
  execFileSync("git", ["commit", "-q", "--allow-empty", "-m", "root"], { cwd: dir, env });
  run(dir, "init", "--yes");
  run(dir, "mission", "start", "--role", "engineer", "--persona", "Hephaestus");
  const roles = ["architect", "engineer", "tester", "documentarian", "inspector", "operator"];
  const prio = ["critical", "high", "medium", "low"];
  const entries = [];
  for (let i = 1; i <= size; i++) {
    const e = {
      key: `k${i}`,
      title: `Task ${i}: ${["login", "billing", "search", "export", "sync"][i % 5]} work item ${i % 97}`,
      role: roles[i % roles.length],
      priority: prio[i % 4],
      description: `Generated for the benchmark; task ${i} of ${size}.`,
      // Labels on every task, one of five areas (and "urgent" on every seventh): `list --label`.
      labels: [["api", "ui", "db", "docs", "perf"][i % 5], ...(i % 7 === 0 ? ["urgent"] : [])],
    };
    if (i > 10 && i % 3 === 0) e.depends_on = [`k${i - 7}`];
    entries.push(e);
  }
  const file = join(dir, "import.json");
  writeFileSync(file, JSON.stringify(entries));
  const t0 = Date.now();
  run(dir, "task", "import", file);
  const importMs = Date.now() - t0;
  rmSync(file);
  run(dir, "task", "list", "--limit", "1"); // builds the read cache, as any first read would
  return { dir, importMs };
}

/**
 * Every command `runs` times, round by round; the base (`commands[0]`, node -e 0) runs before
 * every other command too, so its median (the denominator of every ratio) rests on many samples
 * taken all through the run: node -e 0 alone ranges 56–93 ms on these machines, and a median of
 * 21 moved ratios by up to 0.5 between runs.
 */
function measure(commands, cwd, runs) {
  const samples = commands.map(() => []);
  for (let i = 0; i < runs; i++) {
    commands.forEach((c, j) => {
      if (j > 0) samples[0].push(time(commands[0].argv(i), cwd));
      samples[j].push(time(c.argv(i), cwd, c.env, c.input));
    });
  }
  return commands.map((c, j) => ({ name: c.name, kind: c.kind, ms: median(samples[j]), runs: samples[j].length }));
}

function peakRss(argv, cwd) {
  const r = spawnSync(process.execPath, ["--import", RSS, ...argv], {
    cwd,
    env: { ...env, PANTHEON_BENCH_RSS: "1" },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const m = /BENCH_MAX_RSS_KB (\d+)/.exec(r.stderr);
  return m ? Number(m[1]) / 1024 : NaN;
}

async function contention(size) {
  const { dir } = seed(Math.min(size, 1000));
  const create = (i) => pantheon("task", "create", "--title", `race ${i}`, "--role", "engineer");
  const t0 = Date.now();
  for (let i = 0; i < 200; i++) time(create(i), dir);
  const sequential = Date.now() - t0;
  const t1 = Date.now();
  await Promise.all(
    Array.from(
      { length: 8 },
      (_, w) =>
        new Promise((done, fail) => {
          const script = `for i in $(seq 1 25); do "${process.execPath}" "${BIN}" task create --title "w${w} $i" --role engineer >/dev/null || exit 1; done`;
          spawn("sh", ["-c", script], { cwd: dir, env, stdio: "ignore" }).on("exit", (c) =>
            c === 0 ? done() : fail(new Error(`worker ${w} exited ${c}`)),
          );
        }),
    ),
  );
  const concurrent = Date.now() - t1;
  const total = JSON.parse(run(dir, "task", "report", "--json")).data.total;
  rmSync(dir, { recursive: true, force: true });
  return { sequential, concurrent, ratio: concurrent / sequential, lost: Math.min(size, 1000) + 400 - total };
}

function taskwarrior(size, runs) {
  let ok = spawnSync("task", ["--version"], { stdio: "ignore" }).status === 0;
  if (!ok && process.getuid?.() === 0 && !process.env.CI_NO_APT) {
    spawnSync("apt-get", ["install", "-y", "-qq", "taskwarrior"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    ok = spawnSync("task", ["--version"], { stdio: "ignore" }).status === 0;
  }
  if (!ok) return null;
  const home = mkdtempSync(join(tmpdir(), "pantheon-bench-tw-"));
  const twEnv = { ...env, HOME: home, TASKRC: join(home, ".taskrc"), TASKDATA: join(home, ".task") };
  writeFileSync(
    join(home, ".taskrc"),
    `data.location=${join(home, ".task")}\nconfirmation=no\nverbose=nothing\nhooks=off\nrecurrence=off\ngc=off\n`,
  );
  const lines = [];
  for (let i = 1; i <= size; i++)
    lines.push(
      JSON.stringify({
        description: `Task ${i}: work item ${i % 97}`,
        status: "pending",
        uuid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        entry: "20260101T000000Z",
        priority: ["H", "M", "L"][i % 3],
        project: "bench",
      }),
    );
  const file = join(home, "import.json");
  writeFileSync(file, lines.join("\n"));
  spawnSync("task", ["import", file], { env: twEnv, stdio: "ignore" });
  const tw = (...a) => ["task", ...a];
  const samples = { list: [], next: [] };
  for (let i = 0; i < runs; i++) {
    samples.list.push(time(tw("rc.verbose=nothing", "list", "limit:50"), home, twEnv));
    samples.next.push(time(tw("rc.verbose=nothing", "next", "limit:50"), home, twEnv));
  }
  rmSync(home, { recursive: true, force: true });
  return { list: median(samples.list), next: median(samples.next) };
}

/**
 * pantheon web against the CLI on the same data, round by round: `GET /api/tasks` (every task)
 * vs `pantheon task list --json`, and `GET /api/dashboard` vs `pantheon dashboard --json`. The
 * server is the bundle run as a user runs it; each HTTP answer is read whole.
 */
async function webVersusCli(dir, runs) {
  const child = spawn(process.execPath, [BIN, "web", "--port", "0"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const signedIn = await webSession(child);
  const get = async (path) => {
    const t0 = process.hrtime.bigint();
    await signedIn(path);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const pairs = [
    ["/api/tasks", pantheon("task", "list", "--json")],
    ["/api/dashboard", pantheon("dashboard", "--json")],
  ];
  const out = [];
  for (const [path, argv] of pairs) {
    await get(path); // warm: the first answer builds what every later one reuses, as a CLI's first run does
    const web = [];
    const cli = [];
    for (let i = 0; i < runs; i++) {
      web.push(await get(path));
      cli.push(time(argv, dir));
    }
    out.push({ path, cli: argv.slice(1).join(" "), web: median(web), cliMs: median(cli) });
  }
  child.kill("SIGTERM");
  return out;
}

const git = (cwd, ...a) => execFileSync("git", a, { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 }).trim();
const STATE = "refs/coordination/main";

/**
 * Changes the title of `numbers`' tasks in one commit made with git plumbing (as a teammate's
 * commands would, without 200 processes) and moves the state ref of `dir` to it.
 */
function changeTasks(dir, numbers, tag) {
  const old = git(dir, "rev-parse", STATE);
  const index = join(dir, ".git", `bench-index-${tag}`);
  const ienv = { ...env, GIT_INDEX_FILE: index };
  execFileSync("git", ["read-tree", old], { cwd: dir, env: ienv });
  const lines = [];
  for (const n of numbers) {
    const path = `tasks/${String(n % 100).padStart(2, "0")}/${n}.json`;
    const task = JSON.parse(git(dir, "cat-file", "blob", `${old}:${path}`));
    task.title = `${task.title} (${tag})`;
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: dir,
      env,
      input: `${JSON.stringify(task, null, 2)}\n`,
      encoding: "utf8",
    }).trim();
    lines.push(`100644 ${blob}\t${path}`);
  }
  execFileSync("git", ["update-index", "--index-info"], { cwd: dir, env: ienv, input: `${lines.join("\n")}\n` });
  const tree = execFileSync("git", ["write-tree"], { cwd: dir, env: ienv, encoding: "utf8" }).trim();
  rmSync(index, { force: true });
  const commit = git(dir, "commit-tree", tree, "-p", old, "-m", `bench: ${numbers.length} tasks changed (${tag})`);
  git(dir, "update-ref", STATE, commit, old);
}

/**
 * Sync through a bare remote at `size` tasks, each run in a fresh copy (not timed): adopting the
 * state with `pantheon sync` in a fresh clone, a fast-forward bringing 200 changed tasks, and a
 * merge with 200 changed tasks on each side (and its push). Each as a ratio to `node -e 0`
 * timed just before it; peak memory from one more run of each.
 */
function syncBench(size, runs) {
  const { dir } = seed(size);
  const root = mkdtempSync(join(tmpdir(), `pantheon-bench-sync-${size}-`));
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "remote", "add", "origin", origin);
  git(dir, "push", "-q", "origin", "HEAD:refs/heads/main");
  run(dir, "sync");
  const fresh = (name) => {
    const d = join(root, name);
    git(root, "clone", "-q", origin, d);
    return d;
  };
  const copy = (from, name) => {
    const d = join(root, name);
    cpSync(from, d, { recursive: true });
    return d;
  };
  const base = [];
  const sample = (argv, cwd) => {
    base.push(time([process.execPath, "-e", "0"], cwd));
    return time(argv, cwd);
  };
  const out = [];
  const record = (name, goal, ms, rssMb) => out.push({ name, goal, ms, rssMb });

  // Each sync twice per round when --before is given: this build, then the other, each in its own copy.
  const both = (fn) => (BEFORE ? [fn(false), fn(true)] : [fn(false)]);
  const adopt = [[], []];
  for (let i = 0; i < runs; i++)
    both((b) => adopt[+b].push(sample(b ? beforeOf(pantheon("sync")) : pantheon("sync"), fresh(`adopt-${i}-${+b}`))));
  const adoptName = "adopt through sync in a fresh clone";
  record(adoptName, 10, median(adopt[0]), peakRss(pantheon("sync"), fresh("adopt-rss")));
  if (BEFORE)
    record(`${adoptName} (before)`, 10, median(adopt[1]), peakRss(beforeOf(pantheon("sync")), fresh("adopt-rss-b")));

  // A teammate's clone at the state, its read cache built by a read.
  const teammate = join(root, "adopt-0-0");
  run(teammate, "task", "list", "--limit", "1");
  const n = (k, offset) => 1 + ((k * 37 + offset) % size);
  changeTasks(
    dir,
    Array.from({ length: 200 }, (_, k) => n(k, 0)),
    "remote",
  );
  run(dir, "sync");
  const ff = [[], []];
  for (let i = 0; i < runs; i++)
    both((b) =>
      ff[+b].push(sample(b ? beforeOf(pantheon("sync")) : pantheon("sync"), copy(teammate, `ff-${i}-${+b}`))),
    );
  const ffName = "fast-forward of 200 changed tasks";
  record(ffName, 5, median(ff[0]), peakRss(pantheon("sync"), copy(teammate, "ff-rss")));
  if (BEFORE)
    record(`${ffName} (before)`, 5, median(ff[1]), peakRss(beforeOf(pantheon("sync")), copy(teammate, "ff-rss-b")));
  if (keep) copy(teammate, "ff-keep");

  // The teammate changed 200 other tasks meanwhile: a merge, then a push to a copy of the remote.
  changeTasks(
    teammate,
    Array.from({ length: 200 }, (_, k) => n(k, 11)),
    "local",
  );
  const merge = [[], []];
  const mergeName = "merge of 200 changes each side, and its push";
  for (let i = 0; i <= runs; i++)
    both((b) => {
      const o = copy(origin, `origin-${i}-${+b}`);
      const c = copy(teammate, `merge-${i}-${+b}`);
      git(c, "remote", "set-url", "origin", o);
      const argv = b ? beforeOf(pantheon("sync")) : pantheon("sync");
      if (i < runs) merge[+b].push(sample(argv, c));
      else record(`${mergeName}${b ? " (before)" : ""}`, 10, median(merge[+b]), peakRss(argv, c));
    });
  if (keep) {
    // The merge copies were synced by the bench: fresh ones for a profile.
    const c = copy(teammate, "merge-keep");
    git(c, "remote", "set-url", "origin", copy(origin, "origin-keep"));
    process.stderr.write(`sync bench kept in ${root} (ff-keep and merge-keep not yet synced)\n`);
  } else rmSync(root, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  const b = median(base);
  return out.map((r) => ({ ...r, base: b, ratio: r.ms / b }));
}

/**
 * A browser's session with the `pantheon web` that `child` runs: the URL it prints, its one-time
 * token taken to `/` for the session cookie, then each request sent to 127.0.0.1 under the
 * server's own host name (`p-….localhost`, which this machine's resolver need not know).
 * Resolves to `get(path)`, which reads the whole answer and throws on any status but 200.
 */
async function webSession(child) {
  const url = await new Promise((resolveUrl, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/[0-9a-z.-]+:\d+\/\?token=[0-9a-f]+/.exec(out);
      if (m) resolveUrl(new URL(m[0]));
    });
    child.on("close", () => reject(new Error(`pantheon web exited: ${out}`)));
  });
  const send = (path, cookie) =>
    new Promise((done, fail) => {
      const headers = { host: url.host, ...(cookie ? { cookie } : {}) };
      const req = httpRequest({ host: "127.0.0.1", port: Number(url.port), path, headers }, (res) => {
        res.resume();
        res.on("end", () => done(res));
      });
      req.on("error", fail);
      req.end();
    });
  const signIn = await send(`/?token=${url.searchParams.get("token")}`);
  const cookie = (signIn.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  return async (path) => {
    const res = await send(path, cookie);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
  };
}

/**
 * `pantheon web` as a process that answers one request: spawned, asked for `path` once the
 * address is printed, stopped. What a chart costs from a cold start, the server's own start-up
 * included (~a CLI's). Resolves to the milliseconds from spawn to the whole answer.
 */
async function webOnce(dir, path) {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, "web", "--port", "0"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  // Signing in (one small request for the page) is part of it, as for a browser.
  await (await webSession(child))(path);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await new Promise((done) => {
    child.on("close", done);
    child.kill("SIGTERM");
  });
  return ms;
}

const historyIndex = (dir) => join(dir, ".git", "pantheon", "cache");
function dropHistoryIndex(dir) {
  if (!existsSync(historyIndex(dir))) return;
  for (const f of readdirSync(historyIndex(dir))) if (f.startsWith("history-")) rmSync(join(historyIndex(dir), f));
}

/**
 * History-bound reads over a synthesised state history of `commits` commits (scripts/
 * synth-history.mjs: a team of eight through `git fast-import`, a sync merge every 250
 * commits, then `git repack -adf` as `git gc` would leave it): `task history` of a task with
 * several events, `log -n 20`, and the web's charts as a process (`pantheon web`, one
 * `GET /api/charts`), each interleaved with `node -e 0`; the first run of each, which builds the
 * history index; and `GET /api/charts` in a running server right after a commit.
 */
async function historyBench(commits, runs) {
  const { synthesizeHistory } = await import("./synth-history.mjs");
  const dir = mkdtempSync(join(tmpdir(), `pantheon-bench-history-${commits}-`));
  execFileSync("git", ["init", "-q"], { cwd: dir, env });
  execFileSync("git", ["commit", "-q", "--allow-empty", "-m", "root"], { cwd: dir, env });
  run(dir, "init", "--yes");
  const t0 = Date.now();
  const { tasks } = await synthesizeHistory(dir, commits);
  const synthMs = Date.now() - t0;
  const t1 = Date.now();
  execFileSync("git", ["repack", "-a", "-d", "-f", "-q"], { cwd: dir, env });
  const repackMs = Date.now() - t1;
  run(dir, "task", "list", "--limit", "1"); // the read cache, as any first read builds it
  const id = String(Math.max(1, Math.floor(tasks * 0.9)));
  const history = pantheon("task", "history", id);
  const base = [process.execPath, "-e", "0"];
  // The first runs: each builds the index from nothing.
  dropHistoryIndex(dir);
  const firstHistory = time(history, dir);
  dropHistoryIndex(dir);
  const firstHistoryRss = peakRss(history, dir);
  dropHistoryIndex(dir);
  const firstCharts = await webOnce(dir, "/api/charts");
  const samples = { base: [], history: [], show: [], log: [], charts: [] };
  for (let i = 0; i < runs; i++) {
    for (const [k, argv] of [
      ["history", history],
      ["show", pantheon("task", "show", id)],
      ["log", pantheon("log", "-n", "20")],
    ]) {
      samples.base.push(time(base, dir));
      samples[k].push(time(argv, dir));
    }
    samples.base.push(time(base, dir));
    samples.charts.push(await webOnce(dir, "/api/charts"));
  }
  const historyRss = peakRss(history, dir);
  // A running server after each new commit: the index moves on by the commit, nothing is walked.
  const child = spawn(process.execPath, [BIN, "web", "--port", "0"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const signedIn = await webSession(child);
  const get = async () => {
    const t = process.hrtime.bigint();
    await signedIn("/api/charts");
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  await get();
  const afterCommit = [];
  const sameTip = [];
  for (let i = 0; i < runs; i++) {
    run(dir, "task", "note", id, `bench note ${i}`);
    afterCommit.push(await get());
    sameTip.push(await get());
  }
  await new Promise((done) => {
    child.on("close", done);
    child.kill("SIGTERM");
  });
  rmSync(dir, { recursive: true, force: true });
  const b = median(samples.base);
  const row = (name, ms, goal) => ({ commits, name, ms, ratio: ms / b, goal, base: b });
  extras.push(
    `history at ${commits} commits (${tasks} tasks): synthesised in ${(synthMs / 1000).toFixed(1)} s, repacked in ${(repackMs / 1000).toFixed(1)} s; ` +
      `first task history (builds the index) ${firstHistory.toFixed(0)} ms, ${firstHistoryRss.toFixed(0)} MB; first charts process ${firstCharts.toFixed(0)} ms; ` +
      `task history ${historyRss.toFixed(0)} MB once built; a running server's GET /api/charts right after a commit ${median(afterCommit).toFixed(1)} ms, at the same tip ${median(sameTip).toFixed(1)} ms`,
  );
  return [
    row("task history", median(samples.history), 1.3),
    row("task show (same task, for scale)", median(samples.show), null),
    row("log -n 20", median(samples.log), null),
    row("charts' data (pantheon web + GET /api/charts)", median(samples.charts), 3),
  ];
}

function printHistory() {
  console.log("\n| commits | history-bound read | median ms | × node -e 0 (goal) |\n|---:|---|---:|---|");
  for (const r of historyRows)
    console.log(
      `| ${r.commits} | ${r.name} | ${r.ms.toFixed(1)} | ${r.ratio.toFixed(2)}${r.goal ? ` (≤ ${r.goal}${r.ratio <= r.goal ? ", met" : ", not met"})` : ""} |`,
    );
  for (const e of extras.filter((x) => x.startsWith("history at"))) console.log(`- ${e}`);
}

/** A claude PreToolUse payload as the hook receives it on stdin. */
const HOOK_INPUT = JSON.stringify({
  session_id: "6f1c2a52-8e0b-4c7e-9d4a-3b2f1e0d9c8b",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "pantheon task next --mission MSN-0001:bench", description: "next task" },
});

/** A summon record for the seeded mission, as summon writes it (this process stands in for summon). */
function hookSession(dir) {
  const uid = JSON.parse(
    execFileSync("git", ["cat-file", "-p", "refs/coordination/main:missions/01/1.json"], {
      cwd: dir,
      env,
      encoding: "utf8",
    }),
  ).uid;
  const live = join(dir, ".git", "pantheon", "live");
  mkdirSync(live, { recursive: true });
  writeFileSync(
    join(live, `${uid}.json`),
    JSON.stringify({
      mission: "MSN-0001:bench",
      uid,
      host: hostname(),
      pid: process.pid,
      processStart: null,
      assistant: "claude",
      persona: "Hephaestus",
      sessionId: null,
      since: new Date().toISOString(),
    }),
  );
  return uid;
}

if (only) {
  const { scaleBench } = await import("./bench-scale.mjs");
  console.log(
    `Pantheon bench (${only.join(", ")}) — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}${quick ? " (--quick)" : ""}\n`,
  );
  for (const line of scaleBench({ bin: BIN, env, quick, only })) console.log(line);
  process.exit(0);
}

const rows = [];
const extras = [];
const historyRows = [];
if (!syncOnly && !noHistory)
  for (const n of historyCommits) historyRows.push(...(await historyBench(n, quick ? 5 : 11)));
if (historyOnly) {
  console.log(
    `Pantheon bench (history) — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}${quick ? " (--quick)" : ""}`,
  );
  printHistory();
  process.exit(0);
}
const syncRows = syncBench(10_000, quick ? 2 : 5);
for (const size of syncOnly ? [] : sizes) {
  const { dir, importMs } = seed(size);
  extras.push(`task import of ${size} tasks: ${(importMs / 1000).toFixed(2)} s`);
  // Medians of many runs: these 2-core machines drift by ±10% from one minute to the next.
  const runs = quick ? 5 : 21;
  const pick = (i) => String(1 + ((i * 7919) % size));
  // Engineer tasks are 1, 7, 13, ... (k % 6 === 1); each build and each clone claims its own.
  const engineerTask = (k) => String(((k * 6 + 1) % size) + 1);
  const floor = `b=$(echo "x$RANDOM" | git hash-object -w --stdin) && t=$(printf "100644 blob %s\\tf\\n" "$b" | git mktree) && c=$(git commit-tree "$t" -p refs/coordination/main -m floor) && git update-ref refs/bench/floor "$c"`;
  // The loose clone first (its mutations leave loose objects, as a user's do), then its packed copy.
  const clones = [["loose", dir]];
  for (const [variant, [clone, cwd]] of clones.entries()) {
    const own = (i, before) => engineerTask(variant * 2 * runs + 2 * i + (before ? 1 : 0));
    const commands = [
      { name: "node -e 0", kind: "base", argv: () => [process.execPath, "-e", "0"] },
      { name: "git plumbing floor (one mutation)", kind: "floor", argv: () => ["sh", "-c", floor] },
      { name: "task show", kind: "read", argv: (i) => pantheon("task", "show", pick(i)) },
      { name: "task next", kind: "read", argv: () => pantheon("task", "next", "--role", "engineer") },
      { name: "task list --limit 50", kind: "read", argv: () => pantheon("task", "list", "--limit", "50") },
      { name: "task list --json (every task)", kind: "read", argv: () => pantheon("task", "list", "--json") },
      {
        name: "task list --label api --limit 50",
        kind: "read",
        argv: () => pantheon("task", "list", "--label", "api", "--limit", "50"),
      },
      { name: "task report", kind: "read", argv: () => pantheon("task", "report") },
      { name: "dashboard", kind: "read", argv: () => pantheon("dashboard") },
      {
        name: "task create",
        kind: "write",
        argv: (i, before) =>
          pantheon("task", "create", "--title", `bench ${i}${before ? "b" : ""}`, "--role", "engineer"),
      },
      {
        name: "task claim",
        kind: "write",
        argv: (i, before) => pantheon("--as", "Hephaestus", "task", "claim", own(i, before), "--force"),
      },
      {
        name: "task update",
        kind: "write",
        argv: (i, before) =>
          pantheon("--as", "Hephaestus", "task", "update", own(i, before), "--status", "BLOCKED", "--notes", "bench"),
      },
      { name: "task note", kind: "write", argv: (i) => pantheon("task", "note", pick(i), `bench note ${i}`) },
      // What a TAB runs (the completion scripts call it): the read cache through the journal, no CLI.
      {
        name: "completion: task claim ENG<TAB>",
        kind: "tab",
        argv: () => pantheon("__complete", "task-claimable", "ENG"),
      },
      { name: "completion: task show <TAB> (every id)", kind: "tab", argv: () => pantheon("__complete", "task", "") },
      // What a session hook runs on every tool call of every persona (issue 17): the hook's own bundle.
      {
        name: "hook event (PreToolUse)",
        kind: "hook",
        argv: () => pantheon("hook", "event", "claude", "PreToolUse"),
        env: { PANTHEON_LIVE: hookSession(cwd) },
        input: HOOK_INPUT,
      },
    ];
    const results = measure(withBefore(commands), cwd, runs);
    const base = results[0].ms;
    for (const r of results) rows.push({ size, clone, ...r, ratio: r.ms / base });
    const rss = (argv) => peakRss(argv, cwd).toFixed(0);
    extras.push(
      `peak memory at ${size}, ${clone}: task list --json ${rss(pantheon("task", "list", "--json"))} MB, dashboard ${rss(pantheon("dashboard"))} MB, task next ${rss(pantheon("task", "next"))} MB, task show ${rss(pantheon("task", "show", "1"))} MB, task note ${rss(pantheon("task", "note", "1", "rss"))} MB` +
        (BEFORE
          ? `; before: task list --json ${rss(beforeOf(pantheon("task", "list", "--json")))} MB, dashboard ${rss(beforeOf(pantheon("dashboard")))} MB, task show ${rss(beforeOf(pantheon("task", "show", "1")))} MB, task note ${rss(beforeOf(pantheon("task", "note", "1", "rss")))} MB`
          : ""),
    );
    if (clone === "loose") clones.push(["packed", packedCopy(dir)]);
  }
  if (!noHistory) {
    for (const w of await webVersusCli(dir, quick ? 5 : 11)) {
      extras.push(
        `pantheon web at ${size}: GET ${w.path} ${w.web.toFixed(1)} ms vs \`pantheon ${w.cli}\` ${w.cliMs.toFixed(1)} ms: ratio ${(w.web / w.cliMs).toFixed(2)} (goal ≤ 1.3)`,
      );
    }
    const tw = taskwarrior(size, quick ? 3 : 5);
    if (tw) {
      const ours = (name) => rows.find((r) => r.size === size && r.clone === "loose" && r.name === name).ms;
      extras.push(
        `taskwarrior at ${size} (same titles): list limit:50 ${tw.list.toFixed(1)} ms vs pantheon ${ours("task list --limit 50").toFixed(1)} ms; next ${tw.next.toFixed(1)} ms vs pantheon ${ours("task next").toFixed(1)} ms`,
      );
    } else extras.push(`taskwarrior at ${size}: not installed (apt-get install taskwarrior)`);
  }
  for (const [, cwd] of clones) rmSync(cwd, { recursive: true, force: true });
}
const c = syncOnly ? null : await contention(1000);
if (c)
  extras.push(
    `contention: 8 processes × 25 creates ${(c.concurrent / 1000).toFixed(2)} s vs the same 200 one after another ${(c.sequential / 1000).toFixed(2)} s: ratio ${c.ratio.toFixed(2)}; lost updates: ${c.lost}`,
  );

const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(
  `Pantheon bench — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GB${quick ? " (--quick)" : ""}\n`,
);
console.log("| tasks | objects | command | kind | median ms | × node -e 0 | runs |");
console.log("|---:|---|---|---|---:|---:|---:|");
for (const r of rows)
  console.log(
    `| ${r.size} | ${r.clone} | ${r.name} | ${r.kind} | ${r.ms.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.runs} |`,
  );
console.log("");
for (const e of extras.filter((x) => !x.startsWith("history at"))) console.log(`- ${e}`);

// Issue 7's goal table, cell by cell: the reads and mutations it names, against their ceilings.
const GOAL_READS = ["task show", "task next", "task list --limit 50", "task report", "dashboard"];
const GOAL_WRITES = ["task create", "task claim", "task update", "task note"];
const GOAL_TABS = ["completion: task claim ENG<TAB>", "completion: task show <TAB> (every id)"];
const GOAL_HOOKS = ["hook event (PreToolUse)"];
const ceiling = (size, kind) =>
  kind === "hook"
    ? 1.2
    : kind === "tab"
      ? 1.3
      : kind === "read"
        ? size >= 50000
          ? 1.6
          : 1.3
        : size >= 50000
          ? 2.0
          : 1.8;
/** A goal-table cell: the commands `names` of one size, clone and build against ceiling `c`. */
const cell = (size, clone, suffix, names, c) => {
  const found = names.map((n) => rows.find((r) => r.size === size && r.clone === clone && r.name === `${n}${suffix}`));
  const parts = found.map(
    (r) =>
      `${r.name.replace(/^(completion: )?task /, "").replace(/ \(before\)$/, "")} ${r.ratio.toFixed(2)}${r.ratio <= c ? "" : " ✗"}`,
  );
  const worst = Math.max(...found.map((r) => r.ratio));
  return `${worst <= c ? "met" : "not met"} (≤ ${c}): ${parts.join(", ")}`;
};
console.log(
  "\n| tasks | objects | reads (ceiling) | mutations (ceiling) | completion, issue 18 (ceiling) | session hook, issue 17 (ceiling) |\n|---:|---|---|---|---|---|",
);
for (const size of syncOnly ? [] : sizes)
  for (const clone of ["loose", "packed"])
    console.log(
      `| ${size} | ${clone} | ${cell(size, clone, "", GOAL_READS, ceiling(size, "read"))} | ${cell(size, clone, "", GOAL_WRITES, ceiling(size, "write"))} | ${cell(size, clone, "", GOAL_TABS, ceiling(size, "tab"))} | ${cell(size, clone, "", GOAL_HOOKS, ceiling(size, "hook"))} |`,
    );
// Issue 25's goals (the git engine): at 10,000 tasks, loose and packed, reads ≤ 1.4, mutations ≤ 1.8.
if (!syncOnly && sizes.includes(10_000)) {
  console.log(
    "\n| issue 25, 10,000 tasks | objects | reads, show/next/list page/dashboard (≤ 1.4) | mutations (≤ 1.8) |\n|---|---|---|---|",
  );
  const reads = ["task show", "task next", "task list --limit 50", "dashboard"];
  for (const suffix of BEFORE ? ["", " (before)"] : [""])
    for (const clone of ["loose", "packed"])
      console.log(
        `| ${suffix ? "before" : "this build"} | ${clone} | ${cell(10_000, clone, suffix, reads, 1.4)} | ${cell(10_000, clone, suffix, GOAL_WRITES, 1.8)} |`,
      );
}

// Issue 14's sync goals at 10,000 tasks: time as a ratio to node -e 0, peak memory ≤ 150 MB.
console.log(`\n| sync at 10,000 tasks | median ms | × node -e 0 (goal) | peak MB (goal 150) |\n|---|---:|---|---:|`);
for (const r of syncRows)
  console.log(
    `| ${r.name} | ${r.ms.toFixed(0)} | ${r.ratio.toFixed(1)} (≤ ${r.goal}${r.ratio <= r.goal ? ", met" : ", not met"}) | ${r.rssMb.toFixed(0)}${r.rssMb <= 150 ? "" : " ✗"} |`,
  );
console.log(`(node -e 0: median ${syncRows[0]?.base.toFixed(1)} ms over the sync runs)`);

// The design's own size: import at 100,000, doctor at 50,000, a teammate's first command at 100,000.
if (!syncOnly) {
  const { scaleBench } = await import("./bench-scale.mjs");
  console.log("");
  for (const line of scaleBench({ bin: BIN, env, quick })) console.log(line);
}
printHistory();
