// Run by the build: loads the bundle, runs the everyday commands once in a throwaway
// repository (in this one process), then saves V8's code cache with every function they
// compiled, so the first real command already starts warm.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const dist = resolve(process.argv[2] ?? "dist");
const { loadCore, saveCodeCache } = createRequire(join(dist, "x.js"))("./core-loader.cjs");
const { core, script, cacheFile } = loadCore();
const dir = mkdtempSync(join(tmpdir(), "pantheon-warm-"));
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "warm",
  GIT_AUTHOR_EMAIL: "warm@pantheon.invalid",
  GIT_COMMITTER_NAME: "warm",
  GIT_COMMITTER_EMAIL: "warm@pantheon.invalid",
  NO_COLOR: "1",
};
for (const k of Object.keys(env)) if (/^(GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|PANTHEON_)/.test(k)) delete env[k];
execFileSync("git", ["init", "-q"], { cwd: dir, env });
const io = {
  stdout: { write() {}, isTTY: false },
  stderr: { write() {}, isTTY: false },
  stdinIsTTY: false,
  env,
  cwd: dir,
};
const runs = [
  ["init", "--yes"],
  ["mission", "start", "--role", "engineer", "--persona", "Warm"],
  ["task", "create", "--title", "a", "--role", "engineer"],
  ["task", "create", "--title", "b", "--role", "engineer", "--depends-on", "1"],
  // Two ready tasks of one priority: `next --count 1` then picks among them as it does at scale.
  ["task", "create", "--title", "c", "--role", "engineer"],
  ["task", "create", "--title", "d", "--role", "engineer"],
  ["--as", "Warm", "task", "claim", "1"],
  ["--as", "Warm", "task", "update", "1", "--status", "BLOCKED", "--notes", "x"],
  ["task", "note", "2", "x"],
  ["task", "show", "2"],
  ["task", "show", "2", "--json"],
  ["task", "list"],
  // Reads after a mutation catch up by the journal: the path nearly every read takes.
  ["task", "note", "3", "y"],
  ["task", "list", "--json", "--limit", "50"],
  ["task", "next", "--role", "engineer"],
  ["task", "next", "--role", "engineer", "--count", "1"],
  ["task", "report"],
  ["dashboard"],
  ["--version"],
];
try {
  for (const argv of runs) await core.main(argv, io);
  saveCodeCache(script, cacheFile);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
