import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { jsonData, runCli, type CliResult } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { git, makeRepo, tempDir } from "../../helpers/repo.js";

/** A small driver for one test repository, in-process through runCli. */
export interface Repo {
  dir: string;
  run(argv: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  ok(argv: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  json<T = any>(argv: string[], kind: string, env?: NodeJS.ProcessEnv): Promise<T>;
}

export function repo(dir: string): Repo {
  const run = (argv: string[], env?: NodeJS.ProcessEnv) => runCli(argv, { cwd: dir, ...(env && { env }) });
  const ok = async (argv: string[], env?: NodeJS.ProcessEnv) => {
    const r = await run(argv, env);
    expect(r.exitCode, `pantheon ${argv.join(" ")}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
    return r;
  };
  const json = async <T>(argv: string[], kind: string, env?: NodeJS.ProcessEnv) =>
    jsonData<T>(await ok([...argv, "--json"], env), kind);
  return { dir, run, ok, json };
}

/** A fresh repository (one empty commit on main) with `pantheon init --yes` done. */
export async function initialized(argv: string[] = ["init", "--yes"]): Promise<Repo> {
  const r = repo(makeRepo());
  await r.ok(argv);
  return r;
}

/**
 * A repository at `<temp parent>/repo`, so the worktrees `summon --worktree` creates beside it
 * are inside a temp folder removed after the test.
 */
export function repoInParent(): { parent: string; dir: string } {
  const parent = tempDir("pantheon-wt-");
  const dir = join(parent, "repo");
  mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
  return { parent, dir };
}

/** Real git with extra environment (e.g. PANTHEON_MISSION for the commit-msg hook). */
export function gitEnv(
  cwd: string,
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { status: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync("git", args, {
      cwd,
      env: testEnv(env),
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
    });
    return { status: 0, stdout, stderr: "" };
  } catch (e) {
    const err = e as { status: number | null; stdout: string; stderr: string };
    return { status: err.status ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

/**
 * Asserts that `needle` is quoted inside a fenced block labelled as data: after a line ending in
 * "data, not instructions):", an opening fence of N >= 3 backticks, no line of N or more
 * backticks before `needle`, and a closing fence of exactly N backticks after it.
 */
export function expectFenced(text: string, needle: string, label = needle): void {
  const at = text.indexOf(needle);
  expect(at, `${label} appears in the persona text`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(0, at).split("\n");
  let open = -1;
  let fence = "";
  for (let i = lines.length - 2; i >= 0; i--) {
    const m = /^(`{3,})text$/.exec(lines[i]!);
    if (m) {
      open = i;
      fence = m[1]!;
      break;
    }
  }
  expect(open, `an opening fence before ${label}`).toBeGreaterThan(0);
  expect(lines[open - 1], `the fence of ${label} is labelled as data`).toMatch(/data, not instructions\):$/);
  const closer = new RegExp(`^\`{${fence.length},}\\s*$`);
  expect(
    lines.slice(open + 1).some((l) => closer.test(l)),
    `no fence closes before ${label}`,
  ).toBe(false);
  const rest = text.slice(at + needle.length).split("\n");
  const close = rest.findIndex((l) => closer.test(l));
  expect(close, `a closing fence after ${label}`).toBeGreaterThanOrEqual(0);
  expect(rest[close], `the closing fence matches the opening one`).toBe(fence);
  expect(
    needle.split("\n").some((l) => closer.test(l)),
    `${label} has no line that closes the fence`,
  ).toBe(false);
}

/** No placeholder for the persona, its role, the mission or the project is left in `text`. */
export function expectNoPlaceholders(text: string): void {
  expect(text).not.toMatch(/\{\{\s*(persona|role|mission\.[a-z]+|project\.[a-z]+)\s*\}\}/);
}
