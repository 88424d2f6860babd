import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REF } from "./layout.js";

/** A new git repository in a temporary folder (for `pantheon demo`), with a local identity. */
export function createScratchRepository(prefix = "pantheon-demo-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.name", "Director");
  git("config", "user.email", "director@pantheon.invalid");
  return dir;
}

/** `git log --graph` of the state ref, as the audit trail reads. */
export function stateLogGraph(dir: string, max = 40): string {
  return execFileSync("git", ["log", "--graph", `-n${max}`, "--format=%h %an: %s", REF], { cwd: dir, encoding: "utf8" });
}
