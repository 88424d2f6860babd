import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { testEnv } from "./env.js";

/** Runs real git in `cwd` and returns stdout (throws with stderr on failure). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: testEnv(), encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
}

/** A temp dir removed when the test finishes. */
export function tempDir(prefix = "pantheon-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh git repository with one commit on main (so worktrees can be added). */
export function makeRepo(opts: { commit?: boolean } = {}): string {
  const dir = tempDir();
  git(dir, "init", "-q", "-b", "main");
  if (opts.commit !== false) {
    git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
  }
  return dir;
}

/** The state ref's commit id, or null. */
export function stateRef(dir: string): string | null {
  try {
    return git(dir, "rev-parse", "-q", "--verify", "refs/coordination/main").trim();
  } catch {
    return null;
  }
}

/** The content of one record on the state ref, as real git reads it. */
export function readStateFile(dir: string, path: string): string {
  return git(dir, "cat-file", "-p", `refs/coordination/main:${path}`);
}
