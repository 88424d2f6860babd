import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REF } from "../state/layout.js";

/**
 * The demo's own identity: not the placeholder Pantheon uses when git has none (that one is
 * announced as a missing identity, and the demo would warn about an identity it set itself).
 */
const DEMO_EMAIL = "director@demo.pantheon.invalid";

/** A new git repository in a temporary folder (for `pantheon demo`), with a local identity. */
export function createScratchRepository(prefix = "pantheon-demo-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
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
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });
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
  return execFileSync("git", ["log", "--graph", `-n${max}`, "--format=%h %an: %s", REF], {
    cwd: dir,
    encoding: "utf8",
  });
}
