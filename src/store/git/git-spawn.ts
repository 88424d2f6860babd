import type { ChildProcess, SpawnOptions, SpawnSyncOptions, SpawnSyncReturns } from "node:child_process";
import { lazyRequire } from "../../lazy-require.js";

/**
 * Every git process Pantheon starts is started here, so its environment is built in one place
 * (test/unit/store/git-spawn.test.ts fails if a file elsewhere spawns git itself).
 *
 * `GIT_NO_REPLACE_OBJECTS=1`: git honours `refs/replace/*` by default, Pantheon's own object
 * reader never does, and a replace ref can arrive with a fetch or sit in a shared repository.
 * Without it `git cat-file --batch` (a list of 256 tasks or more) and the in-process reader
 * (`task show`) would give two answers for one blob (DESIGN §2.2).
 */
export function gitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GIT_NO_REPLACE_OBJECTS: "1" };
}

function childProcess(): typeof import("node:child_process") {
  // Loaded on first use: most commands never start git.
  return lazyRequire("node:child_process") as typeof import("node:child_process");
}

/** `spawnSync("git", args)` with git's environment built by gitEnvironment(). */
export function spawnGitSync(
  args: readonly string[],
  options: SpawnSyncOptions & { env: NodeJS.ProcessEnv; encoding: BufferEncoding },
): SpawnSyncReturns<string>;
export function spawnGitSync(
  args: readonly string[],
  options: SpawnSyncOptions & { env: NodeJS.ProcessEnv },
): SpawnSyncReturns<Buffer>;
export function spawnGitSync(
  args: readonly string[],
  options: SpawnSyncOptions & { env: NodeJS.ProcessEnv },
): SpawnSyncReturns<string | Buffer> {
  return childProcess().spawnSync("git", args, { ...options, env: gitEnvironment(options.env) });
}

/** `spawn("git", args)` with git's environment built by gitEnvironment(). */
export function spawnGit(args: readonly string[], options: SpawnOptions & { env: NodeJS.ProcessEnv }): ChildProcess {
  return childProcess().spawn("git", args, { ...options, env: gitEnvironment(options.env) });
}
