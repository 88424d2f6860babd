// The design's own size (DESIGN §2.1, §2.4a, §2.5), run by `npm run bench` after its tables, or
// alone: `npm run bench -- --only=doctor,import,first,list [--quick] [--bin=path/to/pantheon.js]`.
//   import  task import of 100,000 tasks: time and peak memory (goal ≤ 40 s, ≤ 300 MB)
//   doctor  doctor at 50,000 tasks: with the cache a read sealed, after a mutation, and --full
//           (goal ≤ 3 s and ≤ 200 MB)
//   first   a teammate's first command in a fresh clone at 100,000 tasks: the state adopted
//           from origin and the read cache built (goal ≤ 2 s)
//   list    every task (`task list`, `task list --json`) at 50,000 (goal clearly under 1.1 s)
// Times are medians of whole processes, each beside `node -e 0` measured in the same rounds.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const RSS = join(ROOT, "scripts/bench-rss.mjs");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs `argv` (a pantheon command unless it starts with node) and returns ms and peak MB. */
function measure(bin, env, cwd, argv) {
  const node = argv[0] === "node";
  const args = node ? argv.slice(1) : ["--import", RSS, bin, ...argv];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { ...env, PANTHEON_BENCH_RSS: "1" },
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  // doctor exits 1 when it finds errors; the bench's states have none.
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  const m = /BENCH_MAX_RSS_KB (\d+)/.exec(r.stderr ?? "");
  return { ms, mb: m ? Number(m[1]) / 1024 : Number.NaN };
}

function entries(size) {
  const roles = ["architect", "engineer", "tester", "documentarian", "inspector", "operator"];
  const prio = ["critical", "high", "medium", "low"];
  return Array.from({ length: size }, (_, k) => {
    const i = k + 1;
    const e = {
      key: `k${i}`,
      title: `Task ${i}: ${["login", "billing", "search", "export", "sync"][i % 5]} work item ${i % 97}`,
      role: roles[i % roles.length],
      priority: prio[i % 4],
      description: `Generated for the benchmark; task ${i} of ${size}.`,
    };
    if (i > 10 && i % 3 === 0) e.depends_on = [`k${i - 7}`];
    return e;
  });
}

/** A fresh repository with Pantheon's state and a mission; the import file beside it. */
function fresh(bin, env, size) {
  const dir = mkdtempSync(join(tmpdir(), `pantheon-scale-${size}-`));
  const run = (...a) => execFileSync(process.execPath, [bin, ...a], { cwd: dir, env, encoding: "utf8" });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: dir, env });
  execFileSync("git", ["commit", "-q", "--allow-empty", "-m", "root"], { cwd: dir, env });
  run("init", "--yes");
  run("mission", "start", "--role", "engineer", "--persona", "Hephaestus");
  const file = join(dir, "..", `${dir.split("/").pop()}.json`);
  writeFileSync(file, JSON.stringify(entries(size)));
  return { dir, file, run };
}

const row = (name, size, r, base, goal) =>
  `| ${name} | ${size.toLocaleString("en-US")} | ${(r.ms / 1000).toFixed(2)} s | ${(r.ms / base).toFixed(1)} | ${r.mb.toFixed(0)} MB | ${goal} |`;

/** The cases named in `only` (all by default); returns the Markdown table's lines. */
export function scaleBench({ bin, env, quick, only }) {
  const want = (k) => !only || only.includes(k);
  const big = quick ? 20_000 : 100_000;
  const mid = quick ? 10_000 : 50_000;
  const runs = quick ? 3 : 5;
  const lines = ["| case | tasks | median | × node -e 0 | peak memory | goal |", "|---|---:|---:|---:|---:|---|"];
  const base = [];
  const nodeZero = (cwd) => base.push(measure(bin, env, cwd, ["node", "-e", "0"]).ms);
  const b = () => median(base);
  const out = [];

  if (want("import") || want("first")) {
    const { dir, file, run } = fresh(bin, env, big);
    nodeZero(dir);
    const imp = measure(bin, env, dir, ["task", "import", file]);
    nodeZero(dir);
    rmSync(file);
    if (want("import")) out.push(["task import (one commit, a pack)", big, imp, "≤ 40 s, ≤ 300 MB"]);
    if (want("first")) {
      // A bare origin with the state; each run clones it afresh (not timed) and times the first
      // command there: it adopts origin's state, then builds the read cache.
      const root = mkdtempSync(join(tmpdir(), "pantheon-scale-first-"));
      const origin = join(root, "origin.git");
      execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin], { env });
      execFileSync("git", ["remote", "add", "origin", origin], { cwd: dir, env });
      execFileSync("git", ["push", "-q", "origin", "main"], { cwd: dir, env });
      run("sync");
      const samples = [];
      for (let i = 0; i < runs; i++) {
        const clone = join(root, `clone-${i}`);
        execFileSync("git", ["clone", "-q", origin, clone], { env, stdio: "ignore" });
        nodeZero(clone);
        samples.push(measure(bin, env, clone, ["task", "list", "--limit", "50"]));
        rmSync(clone, { recursive: true, force: true });
      }
      out.push([
        "a teammate's first command in a fresh clone (task list --limit 50: adopts the state, builds the cache)",
        big,
        { ms: median(samples.map((s) => s.ms)), mb: Math.max(...samples.map((s) => s.mb)) },
        "≤ 2 s",
      ]);
      rmSync(root, { recursive: true, force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  }

  if (want("doctor") || want("list")) {
    const { dir, file, run } = fresh(bin, env, mid);
    run("task", "import", file);
    rmSync(file);
    run("task", "list", "--limit", "1"); // a read builds the cache, as any first read does
    const series = (name, argv, goal, before, cwd = dir) => {
      const samples = [];
      try {
        for (let i = 0; i < runs; i++) {
          before?.(i);
          nodeZero(cwd);
          samples.push(measure(bin, env, cwd, argv));
        }
      } catch (e) {
        // An older build without the option (--bin, for a before/after): said, not fatal.
        process.stderr.write(`${name}: ${e.message.split("\n")[0]}\n`);
        return;
      }
      out.push([name, mid, { ms: median(samples.map((s) => s.ms)), mb: Math.max(...samples.map((s) => s.mb)) }, goal]);
    };
    if (want("list")) {
      series("task list (every task)", ["task", "list"], "clearly < 1.1 s");
      series("task list --json (every task)", ["task", "list", "--json"], "clearly < 1.1 s");
    }
    if (want("doctor")) {
      series("doctor (the cache a read built)", ["doctor"], "≤ 3 s, ≤ 200 MB");
      series("doctor after a mutation", ["doctor"], "≤ 3 s, ≤ 200 MB", (i) =>
        run("task", "note", String(1 + i * 997), "bench"),
      );
      series("doctor --full (every record from git)", ["doctor", "--full"], "≤ 3 s, ≤ 200 MB");
      // A clone whose cache is gone: doctor validates everything and seals it.
      const cold = `${dir}-cold`;
      series(
        "doctor with no read cache",
        ["doctor"],
        "≤ 3 s, ≤ 200 MB",
        () => {
          rmSync(cold, { recursive: true, force: true });
          cpSync(dir, cold, { recursive: true });
          rmSync(join(cold, ".git", "pantheon", "cache"), { recursive: true, force: true });
        },
        cold,
      );
      rmSync(cold, { recursive: true, force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  }
  // Every ratio against the median of all node -e 0 runs taken between the measured ones.
  for (const [name, size, r, goal] of out) lines.push(row(name, size, r, b(), goal));
  lines.push(`(node -e 0: median ${b().toFixed(1)} ms over ${base.length} runs)`);
  return lines;
}
