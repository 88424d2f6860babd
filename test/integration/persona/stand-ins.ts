import { ASSISTANT_NAMES } from "../../../src/domain/assistant-names.js";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { BIN, jsonData, runCli, type CliResult } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/repo.js";

/**
 * Stand-in assistants for the persona tests: small executables named `claude`, `opencode`,
 * `codex` and `gemini` that record what `pantheon summon` gave them and exit with a chosen code.
 *
 * Each one writes `<record dir>/<name>.<pid>.json` (atomically) with its argv, cwd, the
 * variables Pantheon sets, and the files its persona is read from (claude's
 * `--append-system-prompt-file`, opencode's instructions, gemini's context and policy files),
 * read while it runs: summon removes them when the session ends. Behaviour is driven by the environment:
 *
 * - `STANDIN_RECORD_DIR` (required): where the record goes;
 * - `STANDIN_EXIT`: the exit code (default 0);
 * - `STANDIN_SIGNAL`: kill itself with this signal instead of exiting (after the record);
 * - `STANDIN_WAIT_FILE`: block (bounded, 60 s) until this file exists, after writing the record;
 * - `STANDIN_TRAP`: `record` notes a SIGHUP or SIGTERM it receives (`signals(pid)`) and dies of
 *   it; `ignore` notes it and keeps running;
 * - `STANDIN_RUN`: a JSON array of pantheon argv lists, each run in the stand-in's cwd with
 *   `node <dist/pantheon.js>`; their stdout, stderr and status are recorded under `runs`.
 */
/** Every assistant Pantheon knows: a new one gets a stand-in, and the summon tests run it. */
export const ASSISTANTS = ASSISTANT_NAMES;
export type AssistantName = (typeof ASSISTANTS)[number];

export interface StandInRecord {
  name: AssistantName;
  argv: string[];
  cwd: string;
  pid: number;
  env: {
    PANTHEON_MISSION: string | null;
    PANTHEON_LIVE: string | null;
    OPENCODE_CONFIG_CONTENT: string | null;
    PATH: string | null;
  };
  /** claude only: the content of the file after --append-system-prompt-file (null if unreadable). */
  personaFileContent: string | null;
  /** opencode's instructions files and gemini's context and policy files, read while it ran. */
  files: Record<string, string | null>;
  runs: Array<{ argv: string[]; status: number | null; stdout: string; stderr: string }>;
}

const SCRIPT = String.raw`
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [name, ...argv] = process.argv.slice(2);
const dir = process.env.STANDIN_RECORD_DIR;
const record = {
  name,
  argv,
  cwd: process.cwd(),
  pid: process.pid,
  env: { PANTHEON_MISSION: process.env.PANTHEON_MISSION ?? null, PANTHEON_LIVE: process.env.PANTHEON_LIVE ?? null, OPENCODE_CONFIG_CONTENT: process.env.OPENCODE_CONFIG_CONTENT ?? null, PATH: process.env.PATH ?? null },
  personaFileContent: null,
  runs: [],
};
// The files an assistant reads its persona from, read while it runs (summon removes them after).
const read = (path) => { try { return readFileSync(path, "utf8"); } catch { return null; } };
// A value joined to its option (--flag=value, as summon passes them), or the next element.
const after = (flag) => {
  const joined = argv.find((a) => a.startsWith(flag + "="));
  if (joined !== undefined) return joined.slice(flag.length + 1);
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
record.files = {};
if (name === "claude") record.personaFileContent = read(after("--append-system-prompt-file"));
if (name === "opencode") {
  let cfg = {};
  try { cfg = JSON.parse(process.env.OPENCODE_CONFIG_CONTENT || "{}"); } catch {}
  for (const f of cfg.instructions || []) record.files[f] = read(f);
}
if (name === "gemini") {
  const dir = after("--include-directories");
  if (dir) record.files[join(dir, "GEMINI.md")] = read(join(dir, "GEMINI.md"));
  const policy = after("--policy");
  if (policy) record.files[policy] = read(policy);
}
for (const args of JSON.parse(process.env.STANDIN_RUN || "[]")) {
  const r = spawnSync(process.execPath, [process.env.STANDIN_PANTHEON_BIN, ...args], { cwd: process.cwd(), encoding: "utf8" });
  record.runs.push({ argv: args, status: r.status, stdout: r.stdout, stderr: r.stderr });
}
if (dir) {
  const file = join(dir, name + "." + process.pid + ".json");
  writeFileSync(file + ".tmp", JSON.stringify(record, null, 2));
  renameSync(file + ".tmp", file);
}
// STANDIN_TRAP=record: note each SIGHUP/SIGTERM in <record dir>/<name>.<pid>.signals, then die of
// it as a program would; STANDIN_TRAP=ignore: note it and keep running.
const trap = process.env.STANDIN_TRAP;
if (trap && dir) {
  for (const sig of ["SIGHUP", "SIGTERM"]) {
    process.on(sig, () => {
      appendFileSync(join(dir, name + "." + process.pid + ".signals"), sig + "\n");
      if (trap === "record") process.exit(sig === "SIGHUP" ? 129 : 143);
    });
  }
}
const wait = process.env.STANDIN_WAIT_FILE;
if (process.env.STANDIN_SIGNAL) {
  process.kill(process.pid, process.env.STANDIN_SIGNAL);
  setTimeout(() => process.exit(98), 10000);
} else if (wait) {
  const deadline = Date.now() + 60000;
  const tick = () => {
    if (existsSync(wait)) process.exit(Number(process.env.STANDIN_EXIT || 0));
    if (Date.now() > deadline) process.exit(99);
    setTimeout(tick, 25);
  };
  tick();
} else {
  process.exit(Number(process.env.STANDIN_EXIT || 0));
}
`;

export interface StandIns {
  /** The folder holding the four executables: put it first on PATH. */
  bin: string;
  /** Where the records go. */
  records: string;
  /** The environment for a summon: PATH with `bin` first, the record folder, and `extra`. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Every record written so far, oldest pid order not guaranteed. */
  all(): StandInRecord[];
  /** The single record of `name` (fails when there is not exactly one). */
  one(name: AssistantName): StandInRecord;
  /** The signals a stand-in noted (STANDIN_TRAP), in order. */
  signals(rec: StandInRecord): string[];
}

/**
 * Writes the stand-ins into a temp `bin` folder. `only` limits which of the four exist (to test
 * the "first installed" choice).
 */
export function standIns(only: readonly AssistantName[] = ASSISTANTS): StandIns {
  const root = tempDir("pantheon-standin-");
  const bin = join(root, "bin");
  const records = join(root, "records");
  mkdirSync(bin);
  mkdirSync(records);
  const script = join(root, "stand-in.mjs");
  writeFileSync(script, SCRIPT);
  for (const name of only) {
    const exe = join(bin, name);
    writeFileSync(exe, `#!/bin/sh\nexec '${process.execPath}' '${script}' ${name} "$@"\n`);
    chmodSync(exe, 0o755);
  }
  const all = (): StandInRecord[] =>
    readdirSync(records)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(records, f), "utf8")) as StandInRecord);
  return {
    bin,
    records,
    env: (extra = {}) => ({
      PATH: `${bin}:${process.env.PATH ?? ""}`,
      STANDIN_RECORD_DIR: records,
      STANDIN_PANTHEON_BIN: BIN,
      ...extra,
    }),
    all,
    signals(rec) {
      const file = join(records, `${rec.name}.${rec.pid}.signals`);
      return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
    },
    one(name) {
      const mine = all().filter((r) => r.name === name);
      expect(mine, `exactly one ${name} record`).toHaveLength(1);
      return mine[0]!;
    },
  };
}

/** For tests that run the built bundle (runBin, the stand-ins' STANDIN_RUN, the commit-msg hook). */
export function requireBundle(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
}

/**
 * A PATH with only git, node and sh on it: no assistant, even on a machine where one is
 * installed globally (a folder of links made for the test, not /usr/bin itself).
 */
export function bareSystemPath(): string {
  const dir = join(tempDir("pantheon-bare-path-"), "bin");
  mkdirSync(dir);
  for (const [name, target] of [
    ["git", whichOnPath("git")],
    ["node", process.execPath],
    ["sh", whichOnPath("sh")],
  ] as const) {
    if (target) symlinkSync(target, join(dir, name));
  }
  for (const a of ASSISTANTS)
    if (existsSync(join(dir, a))) throw new Error(`${a} in ${dir}: cannot test "not installed"`);
  return dir;
}

function whichOnPath(name: string): string | null {
  for (const d of (process.env.PATH ?? "/usr/bin:/bin").split(":"))
    if (d && existsSync(join(d, name))) return join(d, name);
  return null;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Polls `check` (every 25 ms, bounded) until it returns a value that is not undefined/false. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
): Promise<Exclude<T, undefined | false | null>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v as Exclude<T, undefined | false | null>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `mission list --json` data. */
export async function missions(cwd: string): Promise<any[]> {
  const r = await runCli(["mission", "list", "--json"], { cwd });
  expect(r.exitCode, r.stderr).toBe(0);
  return jsonData<any[]>(r, "missions");
}

/** Writes a YAML config file into a temp folder and returns its path. */
export function configFile(yaml: string): string {
  const file = join(tempDir("pantheon-config-"), "pantheon.yaml");
  writeFileSync(file, yaml);
  return file;
}

/** Requires exit 0, showing stderr otherwise. */
export function ok(r: CliResult, label: string): CliResult {
  expect(r.exitCode, `${label}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
  return r;
}
