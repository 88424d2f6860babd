import { spawnSync } from "node:child_process";
import { formatAge, SyncError } from "../errors.js";
import { loadGitConfig } from "./git-config.js";
import { REF } from "./layout.js";
import { readRef } from "./ref-cas.js";
import { fetchRefspec, trackingRef } from "./state-refspec.js";
import type { RepoPaths } from "./repo.js";

export interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** How a network call of git behaves when nobody asked for it (publishing, a first use). */
export interface NetOptions {
  /** Never prompt: no terminal prompt, ssh in BatchMode, no credential manager window (DESIGN §3.5). */
  batch?: boolean;
  /** Give up after this long: the git process is killed and the call fails as unreachable. */
  timeoutMs?: number;
}

/**
 * The environment of a git call. An agent cannot answer a credential prompt; a person at a
 * terminal still can, unless the call is one they did not ask for (`batch`): then nothing may
 * wait for an answer. ssh gets BatchMode only where the user has no ssh command of their own.
 */
function gitEnv(paths: RepoPaths, env: NodeJS.ProcessEnv, net: NetOptions): NodeJS.ProcessEnv {
  if (!net.batch) return { ...env, GIT_TERMINAL_PROMPT: process.stdin.isTTY ? env.GIT_TERMINAL_PROMPT ?? "1" : "0" };
  const out: NodeJS.ProcessEnv = { ...env, GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never" };
  if (!env.GIT_SSH_COMMAND && !env.GIT_SSH && !loadGitConfig(paths.commonDir, env, paths.gitDir).get("core.sshcommand")) out.GIT_SSH_COMMAND = "ssh -o BatchMode=yes";
  return out;
}

/**
 * Runs the system git against the repository: transport goes through it so ssh, https, file
 * remotes, credential helpers and the user's config all work (isomorphic-git speaks only HTTP).
 */
export function runGit(paths: RepoPaths, args: string[], env: NodeJS.ProcessEnv, input?: string, net: NetOptions = {}): GitRun {
  const r = spawnSync("git", [`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    ...(input !== undefined && { input }),
    env: gitEnv(paths, env, net),
    encoding: "utf8",
    maxBuffer: 64 << 20,
    ...(net.timeoutMs !== undefined && { timeout: Math.max(1, Math.round(net.timeoutMs)), killSignal: "SIGKILL" as const }),
  });
  if (r.error) {
    if ((r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") throw new SyncError(`git ${args[0]} did not finish within ${formatAge(net.timeoutMs ?? 0)}`, "check the remote: git remote -v", { timeout: true });
    throw new SyncError(`Cannot run git: ${r.error.message}`, "install git and put it on PATH");
  }
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs git inside a worktree folder (its own .git file decides the repository). */
export function runGitIn(cwd: string, args: string[], env: NodeJS.ProcessEnv): GitRun {
  const clean = { ...env };
  delete clean.GIT_DIR;
  delete clean.GIT_WORK_TREE;
  delete clean.GIT_INDEX_FILE;
  const r = spawnSync("git", args, { cwd, env: clean, encoding: "utf8", maxBuffer: 64 << 20 });
  return { status: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** Lines git adds after the real cause; they say nothing about it. */
const GENERIC = /could not read from remote repository|make sure you have the correct access rights|and the repository exists/i;

/** git's own reason, in one line: the first specific `fatal:`/`error:` line, else the last line. */
export function gitReason(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const errors = lines.filter((l) => /^(fatal|error):/.test(l));
  const reason = errors.find((l) => !GENERIC.test(l)) ?? errors.at(-1) ?? lines.find((l) => !GENERIC.test(l)) ?? lines.at(-1);
  return (reason ?? "git failed").replace(/^(fatal|error):\s*/, "");
}

/**
 * Fetches of fewer objects than this are written loose (git's default). Writing loose costs a
 * file (and often a directory) per object: a 200-task fast-forward at 10,000 tasks (~700
 * objects) took 0.3-0.4 s of system time in `git unpack-objects` against ~30 ms to index a pack,
 * more than loading isomorphic-git to read the pack costs.
 */
const LOOSE_FETCH_MAX = 100;

/** A depth no history reaches: deepens the state's own history only (2147483647 would unshallow every ref). */
const DEEP = "--depth=2147483646";

/**
 * Fetches the remote's state into refs/coordination/remotes/<remote>/main; null when it has none
 * (`--prune` drops a tracking ref the remote no longer backs, so null is never a stale answer).
 * Partial-clone filters are ignored (`--no-filter`): Pantheon reads every blob of the state
 * in-process and cannot fetch one lazily. In a shallow repository the state's history is
 * deepened completely so the merge base is present.
 */
export async function fetchState(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv, o: { deepen: boolean }, net: NetOptions = {}): Promise<string | null> {
  // A handful of objects (a publishing command's catch-up) arrive loose: Pantheon reads loose
  // objects itself, where a pack would load isomorphic-git (~60-100 ms) to read them.
  const args = ["-c", `fetch.unpackLimit=${LOOSE_FETCH_MAX}`, "fetch", "--no-tags", "--quiet", "--no-write-fetch-head", "--prune", "--no-filter", ...(o.deepen ? [DEEP] : []), remote, fetchRefspec(remote)];
  const r = runGit(paths, args, env, undefined, net);
  if (r.status !== 0) throw new SyncError(`Cannot fetch from ${remote}: ${gitReason(r.stderr)}`, `check the remote: git remote -v; git fetch ${remote}`, { remote });
  return readRef(paths.commonDir, trackingRef(remote));
}

/** Lines git prints about its own refs; `remote:` lines are the server's text and decide nothing here. */
const RETRYABLE = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*\((stale info|failed to update ref|cannot lock ref|failed to lock)|failed to update ref|cannot lock ref/i;

/** The server's own words: `[remote rejected] ... (reason)` and the `remote:` lines a hook printed. */
export function serverReason(stdout: string, stderr: string): string | null {
  const rejected = stdout.split("\n").map((l) => /\[remote rejected\]\s*\((.*)\)\s*$/.exec(l)?.[1]).find(Boolean);
  const said = stderr.split("\n").filter((l) => l.startsWith("remote:")).map((l) => l.slice(7).trim()).filter(Boolean);
  if (!rejected && said.length === 0) return null;
  const text = `the server refused it${rejected ? ` (${rejected})` : ""}${said.length > 0 ? `: ${said.join(" / ")}` : ""}`;
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}

/** Pushes without force: the remote's own ref update is the cross-clone compare-and-swap. */
export function pushState(paths: RepoPaths, remote: string, commit: string, env: NodeJS.ProcessEnv, net: NetOptions = {}): "ok" | "rejected" {
  const r = runGit(paths, ["push", "--porcelain", "--quiet", remote, `${commit}:${REF}`], env, undefined, net);
  if (r.status === 0) return "ok";
  const own = `${r.stdout}\n${r.stderr}`.split("\n").filter((l) => !l.startsWith("remote:")).join("\n");
  if (RETRYABLE.test(own)) return "rejected";
  const reason = serverReason(r.stdout, r.stderr) ?? gitReason(r.stderr || r.stdout);
  throw new SyncError(`Cannot push to ${remote}: ${reason}`, `check access and the server's rules: git push --dry-run ${remote} ${REF}`, { remote });
}

export function isAncestor(paths: RepoPaths, a: string, b: string, env: NodeJS.ProcessEnv): boolean {
  return runGit(paths, ["merge-base", "--is-ancestor", a, b], env).status === 0;
}

export function mergeBase(paths: RepoPaths, a: string, b: string, env: NodeJS.ProcessEnv): string | null {
  const r = runGit(paths, ["merge-base", a, b], env);
  return r.status === 0 ? r.stdout.trim() || null : null;
}

export function listRemotes(paths: RepoPaths, env: NodeJS.ProcessEnv): string[] {
  return runGit(paths, ["remote"], env).stdout.split("\n").map((s) => s.trim()).filter(Boolean);
}

