/**
 * Temp repositories and a sanitised `git` runner for the plumbing tests. The environment is
 * scrubbed of GIT_* variables because a test run from inside a git hook inherits GIT_DIR (and
 * GIT_INDEX_FILE), which would point every `git` call here at the project's own repository.
 */
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

const CONFIG: Record<string, string> = {
  "gc.auto": "0", // no background gc racing the temp-dir cleanup
  "maintenance.auto": "false",
  "init.defaultBranch": "main",
  "commit.gpgSign": "false",
  "tag.gpgSign": "false",
  "advice.detachedHead": "false",
  "protocol.file.allow": "always",
};

export function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  const pairs = Object.entries(CONFIG);
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return {
    ...env,
    GIT_CONFIG_COUNT: String(pairs.length),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_COMMITTER_NAME: "Test Committer",
    GIT_COMMITTER_EMAIL: "committer@example.com",
    ...extra,
  };
}

/** Runs git in `cwd` and returns stdout; throws (with stderr in the message) on a non-zero exit. */
export function git(
  cwd: string,
  args: string[],
  opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {},
): string {
  const o: ExecFileSyncOptions = { cwd, env: gitEnv(opts.env), stdio: ["pipe", "pipe", "pipe"], maxBuffer: 64 << 20 };
  if (opts.input !== undefined) o.input = opts.input;
  return execFileSync("git", args, o).toString("utf8");
}

/** Runs git and returns its exit status and output instead of throwing. */
export function gitStatus(cwd: string, args: string[]): { status: number; stdout: string; stderr: string } {
  try {
    return { status: 0, stdout: git(cwd, args), stderr: "" };
  } catch (err) {
    const e = err as { status?: number; stdout?: Buffer; stderr?: Buffer };
    return { status: e.status ?? -1, stdout: String(e.stdout ?? ""), stderr: String(e.stderr ?? "") };
  }
}

/** A fresh real-path temp dir removed when the current test finishes. */
export function tempDir(prefix = "pantheon-plumbing-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface TempRepo {
  /** The work tree (for a bare repo: the repo itself). */
  dir: string;
  gitDir: string;
}

/** `git init` in a temp dir (bare on request). */
export function makeRepo(opts: { bare?: boolean } = {}): TempRepo {
  const root = tempDir();
  if (opts.bare) {
    const dir = join(root, "repo.git");
    git(root, ["init", "-q", "--bare", dir]);
    return { dir, gitDir: dir };
  }
  const dir = join(root, "repo");
  git(root, ["init", "-q", dir]);
  return { dir, gitDir: join(dir, ".git") };
}
