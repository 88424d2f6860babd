import type { ChildProcess, SpawnOptions, SpawnSyncOptions, SpawnSyncReturns } from "node:child_process";
import { lazyRequire } from "../../lazy-require.js";

/**
 * Every git process Pantheon starts is started here, so its environment is built in one place
 * (test/unit/store/git-spawn.test.ts fails if a file elsewhere spawns git itself).
 *
 * `GIT_NO_REPLACE_OBJECTS=1`: git honours `refs/replace/*` by default, the object engine
 * (isomorphic-git, loose objects) never does, and a replace ref can arrive with a fetch or sit
 * in a shared repository. Without it a record would read one way loose and another packed
 * (read by `git cat-file --batch`): two answers for one blob (DESIGN §2.2).
 *
 * `GIT_ALLOC_LIMIT`, unless set already: no single allocation over 2 GiB. A hostile pack (a
 * delta cycle) makes any git that reads it grow without end, the user's `worktree add` or
 * `merge-tree` too; their files may be large, so this is only a stop for a runaway. Git reading
 * the state's objects runs with far tighter bounds (git-bounds.ts).
 */
export function gitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { GIT_ALLOC_LIMIT: RUNAWAY_ALLOC, ...env, GIT_NO_REPLACE_OBJECTS: "1" };
}

const RUNAWAY_ALLOC = String(2 * 1024 * 1024 * 1024);

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
