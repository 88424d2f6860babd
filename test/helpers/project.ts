import { expect } from "vitest";
import { jsonData, runCli, type CliResult } from "./cli.js";
import { makeRepo, stateRef } from "./repo.js";

type RunOptions = { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv };

/**
 * A fresh repository after `pantheon init --yes`, with in-process CLI runners that assert what
 * every test asserts: `ok` (exit 0), `json` (the envelope's data), `refused` (the exit code, a
 * `✗` message, nothing on stdout, and the ref as it was).
 */
export async function initializedProject() {
  const dir = makeRepo();
  const run = (argv: string[], o: RunOptions = {}) => runCli(argv, { cwd: dir, ...o });
  const ok = async (argv: string[], o: RunOptions = {}): Promise<CliResult> => {
    const r = await run(argv, o);
    expect(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(0);
    return r;
  };
  const json = async <T = any>(argv: string[], kind: string): Promise<T> =>
    jsonData<T>(await ok([...argv, "--json"]), kind);
  const envelope = async (argv: string[]): Promise<{ kind: string; data: any; changed?: any[] }> =>
    JSON.parse((await ok([...argv, "--json"])).stdout);
  const refused = async (argv: string[], exitCode: number, message?: RegExp): Promise<CliResult> => {
    const before = stateRef(dir);
    const r = await run(argv);
    expect(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(exitCode);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^✗ /);
    if (message) expect(r.stderr.split("\n")[0]).toMatch(message);
    expect(stateRef(dir), "a refused command leaves the ref as it was").toBe(before);
    return r;
  };
  await ok(["init", "--yes"]);
  return { dir, run, ok, json, envelope, refused };
}
