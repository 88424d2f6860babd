import { formatAge, GitError, SyncError } from "../../errors.js";
import { isTerminal } from "../../is-terminal.js";
import type { NetOptions } from "../store.js";
import { loadGitConfig } from "./git-config.js";
import { runBoundedGit, runBoundedGitSync, type BoundedRun, type Stop } from "../git/git-bounds.js";
import { spawnGitSync } from "../git/git-spawn.js";
import { pantheonSshCommand } from "./ssh-multiplex.js";
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

/** Commands that talk to a remote: they get Pantheon's ssh command and a time limit (DESIGN §3.5). */
const NETWORK_COMMANDS = new Set(["fetch", "push", "ls-remote"]);

/**
 * How long one network call of git may take when its caller set no limit (a sync's fetch and
 * push): a remote that accepts the connection and never answers must not hold a sync for ever.
 * Generous: a first fetch of a large state over a slow link takes a while.
 */
export const NET_TIMEOUT_MS = 120_000;

/** The longest ssh may take to connect and shake hands (its ConnectTimeout). */
const CONNECT_TIMEOUT_MS = 30_000;

export function netTimeout(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PANTHEON_NET_TIMEOUT_MS);
  return env.PANTHEON_NET_TIMEOUT_MS !== undefined && env.PANTHEON_NET_TIMEOUT_MS !== "" && Number.isFinite(v) && v > 0
    ? v
    : NET_TIMEOUT_MS;
}

/** Whether `args` run a git command that talks to a remote (options and `-c k=v` before it skipped). */
function isNetworkCall(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-c" || a === "-C") i++;
    else if (!a.startsWith("-")) return NETWORK_COMMANDS.has(a);
  }
  return false;
}

/** The user chose an ssh command of their own: Pantheon then adds nothing to ssh. */
function userSsh(paths: RepoPaths, env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    env.GIT_SSH_COMMAND || env.GIT_SSH || loadGitConfig(paths.commonDir, env, paths.gitDir).get("core.sshcommand"),
  );
}

/**
 * The environment of a git call. An agent cannot answer a credential prompt; a person at a
 * terminal still can, unless the call is one they did not ask for (`batch`): then nothing may
 * wait for an answer. A network call's ssh, where the user has no ssh command of their own,
 * shares one connection per clone and host (ssh-multiplex.ts), gives up connecting after a
 * while, and in `batch` runs in BatchMode.
 */
function gitEnv(paths: RepoPaths, env: NodeJS.ProcessEnv, net: NetOptions, network: boolean): NodeJS.ProcessEnv {
  // Not process.stdin.isTTY: touching process.stdin builds its stream (~8 ms).
  const out: NodeJS.ProcessEnv = net.batch
    ? { ...env, GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never" }
    : { ...env, GIT_TERMINAL_PROMPT: isTerminal(0) ? (env.GIT_TERMINAL_PROMPT ?? "1") : "0" };
  if ((network || net.batch) && !userSsh(paths, env)) {
    const limit = Math.min(net.timeoutMs ?? Number.POSITIVE_INFINITY, netTimeout(env), CONNECT_TIMEOUT_MS);
    out.GIT_SSH_COMMAND = pantheonSshCommand(paths.commonDir, {
      batch: Boolean(net.batch),
      connectTimeoutS: limit / 1000,
    });
  }
  return out;
}

/** A network call's time limit: its caller's, else NET_TIMEOUT_MS; other calls have none here. */
function timeLimit(env: NodeJS.ProcessEnv, net: NetOptions, network: boolean): number {
  return net.timeoutMs ?? (network ? netTimeout(env) : Number.POSITIVE_INFINITY);
}

/**
 * Runs the system git against the repository: transport goes through it so ssh, https, file
 * remotes, credential helpers and the user's config all work (isomorphic-git speaks only HTTP).
 * The calls read the state's objects (merge-base, rev-list, fetch, push), so they run within
 * git's allocation limit (git-bounds.ts); `net.timeoutMs` is their time limit (a fetch or push
 * without one: NET_TIMEOUT_MS). git stopped at
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
  const network = isNetworkCall(args);
  const limit = timeLimit(env, net, network);
  const r = runBoundedGitSync([`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    ...(input !== undefined && { input }),
    env: gitEnv(paths, env, net, network),
    maxStdout: 64 << 20,
    bounds: { timeoutMs: limit },
  });
  const run = gitRun(r, args, limit);
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
  const network = isNetworkCall(args);
  const limit = timeLimit(env, net, network);
  const r = await runBoundedGit([`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    env: gitEnv(paths, env, net, network),
    maxStdout: 64 << 20,
    bounds: { timeoutMs: limit },
  });
  return gitRun(r, args, limit);
}

function gitRun(r: BoundedRun, args: string[], limitMs: number): GitRun {
  if (r.stopped?.bound === "time")
    throw new SyncError(
      `${gitOperation(args)} did not finish within ${limitText(limitMs)}`,
      "check the remote: git remote -v (PANTHEON_NET_TIMEOUT_MS sets a sync's limit per call)",
      { timeout: true, operation: gitOperation(args), limitMs },
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
    env: gitEnv(paths, env, {}, false),
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.error) throw new SyncError(`Cannot run git: ${r.error.message}`, "install git and put it on PATH");
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** A time limit for a message: "within 0 s" would read as no time at all. */
const limitText = (ms: number) =>
  ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : formatAge(ms);

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
