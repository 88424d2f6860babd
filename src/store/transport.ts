import { spawnSync } from "node:child_process";
import { SyncError } from "../errors.js";
import { REF } from "./layout.js";
import type { RepoPaths } from "./repo.js";

export interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the system git against the repository: transport goes through it so ssh, https, file
 * remotes, credential helpers and the user's config all work (isomorphic-git speaks only HTTP).
 */
export function runGit(paths: RepoPaths, args: string[], env: NodeJS.ProcessEnv): GitRun {
  const r = spawnSync("git", [`--git-dir=${paths.gitDir}`, ...args], {
    cwd: paths.workTree ?? paths.commonDir,
    // An agent cannot answer a credential prompt; a person at a terminal still can.
    env: { ...env, GIT_TERMINAL_PROMPT: process.stdin.isTTY ? env.GIT_TERMINAL_PROMPT ?? "1" : "0" },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.error) throw new SyncError(`Cannot run git: ${r.error.message}`, "install git and put it on PATH");
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

export const trackingRef = (remote: string) => `refs/coordination/remotes/${remote}`;
export const fetchRefspec = (remote: string) => `+${REF}:${trackingRef(remote)}`;

/** Fetches the remote's state into refs/coordination/remotes/<remote>; null when it has none. */
export function fetchState(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv): string | null {
  const r = runGit(paths, ["fetch", "--no-tags", "--quiet", "--no-write-fetch-head", remote, fetchRefspec(remote)], env);
  if (r.status !== 0) {
    if (/couldn't find remote ref/i.test(r.stderr)) return null;
    throw new SyncError(`Cannot fetch from ${remote}: ${gitReason(r.stderr)}`, `check the remote: git remote -v; git fetch ${remote}`, { remote });
  }
  const rev = runGit(paths, ["rev-parse", "--verify", "--quiet", trackingRef(remote)], env);
  return rev.status === 0 ? rev.stdout.trim() : null;
}

/** Pushes without force: the remote's own ref update is the cross-clone compare-and-swap. */
export function pushState(paths: RepoPaths, remote: string, commit: string, env: NodeJS.ProcessEnv): "ok" | "rejected" {
  const r = runGit(paths, ["push", "--porcelain", "--quiet", remote, `${commit}:${REF}`], env);
  if (r.status === 0) return "ok";
  if (/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(stale|lock)|failed to update ref|cannot lock ref/i.test(r.stdout + r.stderr)) return "rejected";
  throw new SyncError(`Cannot push to ${remote}: ${gitReason(r.stderr || r.stdout)}`, `check access: git push --dry-run ${remote}`, { remote });
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

/** Adds the fetch refspec so a plain `git fetch` brings the state; true when it was added now. */
export function ensureFetchRefspec(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv): boolean {
  const existing = runGit(paths, ["config", "--get-all", `remote.${remote}.fetch`], env).stdout.split("\n").map((s) => s.trim());
  if (existing.includes(fetchRefspec(remote))) return false;
  const r = runGit(paths, ["config", "--add", `remote.${remote}.fetch`, fetchRefspec(remote)], env);
  return r.status === 0;
}
