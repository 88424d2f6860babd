import { formatAge, GitError, SyncError } from "../../errors.js";
import { isTerminal } from "../../is-terminal.js";
import type { NetOptions } from "../store.js";
import { loadGitConfig } from "./git-config.js";
import { runBoundedGit, runBoundedGitSync, type BoundedRun, type Stop } from "../git/git-bounds.js";
import { spawnGitSync } from "../git/git-spawn.js";
import type { RepoPaths } from "./repo.js";

// The system git, run in this repository or a worktree of it: transport, worktrees, history
// checks and hooks all go through here (DESIGN §2.5 lists what system git is used for).

export interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
  /** Set when git was stopped at its memory bound (git-bounds.ts); status is then 1. */
  stopped?: Stop;
}

/**
 * The environment of a git call. An agent cannot answer a credential prompt; a person at a
 * terminal still can, unless the call is one they did not ask for (`batch`): then nothing may
 * wait for an answer. ssh gets BatchMode only where the user has no ssh command of their own.
 */
function gitEnv(paths: RepoPaths, env: NodeJS.ProcessEnv, net: NetOptions): NodeJS.ProcessEnv {
  // Not process.stdin.isTTY: touching process.stdin builds its stream (~8 ms).
  if (!net.batch) return { ...env, GIT_TERMINAL_PROMPT: isTerminal(0) ? (env.GIT_TERMINAL_PROMPT ?? "1") : "0" };
  const out: NodeJS.ProcessEnv = { ...env, GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never" };
  if (!env.GIT_SSH_COMMAND && !env.GIT_SSH && !loadGitConfig(paths.commonDir, env, paths.gitDir).get("core.sshcommand"))
    out.GIT_SSH_COMMAND = "ssh -o BatchMode=yes";
  return out;
}

/**
 * Runs the system git against the repository: transport goes through it so ssh, https, file
 * remotes, credential helpers and the user's config all work (isomorphic-git speaks only HTTP).
 * The calls read the state's objects (merge-base, rev-list, fetch, push), so they run within
 * git's allocation limit (git-bounds.ts); `net.timeoutMs` is their time limit. git stopped at
 * its memory bound is E_GIT_CORRUPT_OBJECT: its exit status would otherwise read as an answer
 * (`merge-base --is-ancestor` saying "no").
 */
export function runGit(
  paths: RepoPaths,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  net: NetOptions = {},
): GitRun {
  const r = runBoundedGitSync([`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    ...(input !== undefined && { input }),
    env: gitEnv(paths, env, net),
    maxStdout: 64 << 20,
    bounds: { timeoutMs: net.timeoutMs ?? Number.POSITIVE_INFINITY },
  });
  const run = gitRun(r, args, net);
  if (run.stopped)
    throw new GitError(
      "E_GIT_CORRUPT_OBJECT",
      `${gitOperation(args)} ${run.stopped.reason}: a pack of this repository is corrupt or hostile`,
      "git fsck",
    );
  return run;
}

/**
 * runGit, without blocking: git and the processes it starts (a fetch from a local path runs
 * `upload-pack` and `pack-objects` on the other repository's objects, then `index-pack`) are
 * also stopped when their resident memory together passes the bound (git-bounds.ts). A stop is
 * returned (`stopped`), for the caller to say what it was doing.
 */
export async function runGitAsync(
  paths: RepoPaths,
  args: string[],
  env: NodeJS.ProcessEnv,
  net: NetOptions = {},
): Promise<GitRun> {
  const r = await runBoundedGit([`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    env: gitEnv(paths, env, net),
    maxStdout: 64 << 20,
    bounds: { timeoutMs: net.timeoutMs ?? Number.POSITIVE_INFINITY },
  });
  return gitRun(r, args, net);
}

function gitRun(r: BoundedRun, args: string[], net: NetOptions): GitRun {
  if (r.stopped?.bound === "time")
    throw new SyncError(
      `${gitOperation(args)} did not finish within ${limitText(net.timeoutMs ?? 0)}`,
      "check the remote: git remote -v",
      { timeout: true },
    );
  if (r.error) throw new SyncError(`Cannot run git: ${r.error.message}`, "install git and put it on PATH");
  if (r.stopped?.bound === "output") throw new SyncError(`${gitOperation(args)} ${r.stopped.reason} of output`);
  return {
    status: r.status ?? 1,
    stdout: r.stdout.toString("utf8"),
    stderr: r.stderr,
    ...(r.stopped && { stopped: r.stopped }),
  };
}

/**
 * Runs git on the code's branches and worktrees (`worktree add`, `status`, `merge-tree`, `log`):
 * the user's own files, which may be large, so only git-spawn.ts's stop for a runaway (2 GiB in
 * one allocation), not the bounds of an object read, and no time limit.
 */
export function runCodeGit(paths: RepoPaths, args: string[], env: NodeJS.ProcessEnv): GitRun {
  const r = spawnGitSync([`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    env: gitEnv(paths, env, {}),
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.error) throw new SyncError(`Cannot run git: ${r.error.message}`, "install git and put it on PATH");
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** A time limit for a message: "within 0 s" would read as no time at all. */
const limitText = (ms: number) => (ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : formatAge(ms));

/**
 * What a git call does, for a message: `git fetch from origin`, `git push to origin`, `git
 * rev-list`; global options before the command (`-c key=value`) are not the operation.
 */
export function gitOperation(args: readonly string[]): string {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-c" || a === "-C") i++;
    else if (!a.startsWith("-")) words.push(a);
  }
  const [command, remote] = words;
  if (command === "fetch" && remote) return `git fetch from ${remote}`;
  if (command === "push" && remote) return `git push to ${remote}`;
  return `git ${command ?? args.join(" ")}`;
}

/** Runs git inside a worktree folder (its own .git file decides the repository). */
export function runGitIn(cwd: string, args: string[], env: NodeJS.ProcessEnv): GitRun {
  const clean = { ...env };
  delete clean.GIT_DIR;
  delete clean.GIT_WORK_TREE;
  delete clean.GIT_INDEX_FILE;
  const r = spawnGitSync(args, { cwd, env: clean, encoding: "utf8", maxBuffer: 64 << 20 });
  return { status: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** Lines git adds after the real cause; they say nothing about it. */
const GENERIC =
  /could not read from remote repository|make sure you have the correct access rights|and the repository exists/i;

/** git's own reason, in one line: the first specific `fatal:`/`error:` line, else the last line. */
export function gitReason(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const errors = lines.filter((l) => /^(fatal|error):/.test(l));
  const reason =
    errors.find((l) => !GENERIC.test(l)) ?? errors.at(-1) ?? lines.find((l) => !GENERIC.test(l)) ?? lines.at(-1);
  return (reason ?? "git failed").replace(/^(fatal|error):\s*/, "");
}
