import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { main } from "../../src/cli/main.js";
import type { IO } from "../../src/cli/io.js";
import type { Prompter } from "../../src/services/kernel/context.js";
import { testEnv } from "./env.js";

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  tty?: boolean;
  columns?: number;
  /** The Director's answers (test/helpers/prompter.ts); default: the terminal prompter, which asks nobody without a tty. */
  prompter?: Prompter;
}

/** Runs the CLI in-process (fast) with captured streams. */
export async function runCli(argv: string[], o: CliOptions): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: IO = {
    stdout: { write: (s) => void (stdout += s), isTTY: o.tty ?? false, columns: o.columns ?? 120 },
    stderr: { write: (s) => void (stderr += s), isTTY: o.tty ?? false },
    stdinIsTTY: o.tty ?? false,
    env: testEnv({ NO_COLOR: "1", ...o.env }),
    cwd: o.cwd,
    // What a user runs: the built bundle (summon puts it on a session's PATH).
    self: [process.execPath, BIN],
    ...(o.prompter && { prompter: o.prompter }),
  };
  const exitCode = await main(argv, io);
  return { stdout, stderr, exitCode };
}

/** Parses a `--json` stdout, checking the envelope. */
export function jsonData<T = any>(r: CliResult, kind?: string): T {
  const doc = JSON.parse(r.stdout) as { schemaVersion: number; kind: string; data: T };
  if (doc.schemaVersion !== 1) throw new Error(`schemaVersion ${doc.schemaVersion}`);
  if (kind && doc.kind !== kind) throw new Error(`kind ${doc.kind}, expected ${kind}`);
  return doc.data;
}

export const BIN = resolve(__dirname, "../../dist/pantheon.js");

/** Runs the built bundle as a real process, as a user does. */
export function runBin(argv: string[], o: CliOptions): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: o.cwd, env: testEnv(o.env), encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

/** Async version, for processes that must overlap. */
export function runBinAsync(argv: string[], o: CliOptions): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: o.cwd, env: testEnv(o.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolvePromise({ stdout, stderr, exitCode: code ?? -1 }));
  });
}
