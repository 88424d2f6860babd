import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REF } from "../state/layout.js";
import { spawnGitSync } from "../git/git-spawn.js";

/** Runs git in `cwd`; throws with git's words when it fails (the demo has no other way to go on). */
function run(cwd: string, args: string[]): string {
  const r = spawnGitSync(args, { cwd, env: process.env, encoding: "utf8" });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * The demo's own identity: not the placeholder Pantheon uses when git has none (that one is
 * announced as a missing identity, and the demo would warn about an identity it set itself).
 */
const DEMO_EMAIL = "director@demo.pantheon.invalid";

/** A new git repository in a temporary folder (for `pantheon demo`), with a local identity. */
export function createScratchRepository(prefix = "pantheon-demo-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) => run(dir, args);
  git("init", "-q");
  git("config", "user.name", "Director");
  git("config", "user.email", DEMO_EMAIL);
  return dir;
}

/**
 * A bare "origin" beside `dir`, `dir` pushed to it, and a second clone of it (the demo's other
 * machine). Returns the clone's path.
 */
export function addOriginAndClone(dir: string): string {
  const origin = `${dir}-origin.git`;
  const laptop = `${dir}-laptop`;
  const git = (cwd: string, ...args: string[]) => run(cwd, args);
  git(dir, "init", "-q", "--bare", origin);
  git(dir, "commit", "-q", "--allow-empty", "-m", "start");
  git(dir, "remote", "add", "origin", origin);
  git(dir, "push", "-q", "origin", "HEAD");
  git(dir, "clone", "-q", origin, laptop);
  git(laptop, "config", "user.name", "Director");
  git(laptop, "config", "user.email", DEMO_EMAIL);
  return laptop;
}

/** `git log --graph` of the state ref, as the audit trail reads. */
export function stateLogGraph(dir: string, max = 48): string {
  return run(dir, ["log", "--graph", `-n${max}`, "--format=%h %an: %s", REF]);
}
