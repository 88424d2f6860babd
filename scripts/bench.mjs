// npm run bench: whole-process medians of Pantheon commands at several store sizes, each as a
// ratio to `node -e 0` measured in the same run. Prints one table. No test asserts a time.
import { build } from "esbuild";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "dist/pantheon.js");
const quick = process.argv.includes("--quick");
const sizes = (process.argv.find((a) => a.startsWith("--sizes="))?.slice(8) ?? "1000,10000").split(",").map(Number);
const env = { ...process.env, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com", NO_COLOR: "1" };
for (const k of Object.keys(env)) if (/^(GIT_DIR|GIT_INDEX_FILE|GIT_WORK_TREE|PANTHEON_)/.test(k)) delete env[k];

const seedBundle = join(mkdtempSync(join(tmpdir(), "pantheon-bench-")), "seed.mjs");
await build({ entryPoints: [join(ROOT, "scripts/bench-seed.ts")], outfile: seedBundle, bundle: true, format: "esm", platform: "node", target: "node20", logLevel: "warning",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });

function time(argv, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Interleaves the commands round by round, so drift in machine load hits all of them alike. */
function measure(commands, cwd, runs) {
  const samples = commands.map(() => []);
  for (let i = 0; i < runs; i++) commands.forEach((c, j) => samples[j].push(time(c.argv(i), cwd)));
  return commands.map((c, j) => ({ name: c.name, ms: median(samples[j]) }));
}

const rows = [];
for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), `pantheon-bench-${size}-`));
  const git = (...a) => execFileSync("git", a, { cwd: dir, env, stdio: "ignore" });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "root");
  execFileSync(process.execPath, [BIN, "init", "--yes"], { cwd: dir, env, stdio: "ignore" });
  execFileSync(process.execPath, [BIN, "mission", "start", "--role", "engineer", "--persona", "Hephaestus"], { cwd: dir, env, stdio: "ignore" });
  const t0 = Date.now();
  execFileSync(process.execPath, [seedBundle, dir, String(size)], { cwd: dir, env, stdio: "inherit" });
  const seedMs = Date.now() - t0;
  const runs = quick ? 5 : size >= 10000 ? 9 : 15;
  const pick = (i) => String(1 + ((i * 7919) % size));
  const results = measure(
    [
      { name: "node -e 0", argv: () => [process.execPath, "-e", "0"] },
      { name: "task show", argv: (i) => [process.execPath, BIN, "task", "show", pick(i)] },
      { name: "task create", argv: (i) => [process.execPath, BIN, "task", "create", "--title", `bench ${i}`, "--role", "engineer"] },
      { name: "task list --json", argv: () => [process.execPath, BIN, "task", "list", "--json"] },
    ],
    dir,
    runs,
  );
  const base = results[0].ms;
  for (const r of results) rows.push({ size, name: r.name, ms: r.ms, ratio: r.ms / base, runs });
  rows.push({ size, name: `(seed ${size} tasks, one commit)`, ms: seedMs, ratio: NaN, runs: 1 });
  rmSync(dir, { recursive: true, force: true });
}

const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(`Pantheon bench — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpu}${quick ? " (--quick)" : ""}\n`);
console.log("| tasks | command | median ms | × node -e 0 | runs |");
console.log("|---:|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.size} | ${r.name} | ${r.ms.toFixed(1)} | ${Number.isNaN(r.ratio) ? "" : r.ratio.toFixed(2)} | ${r.runs} |`);
