import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CliResult } from "./cli.js";
import { testEnv } from "./env.js";

/**
 * The previous release of Pantheon (schema 1), built from this repository's own history: the
 * version a teammate who has not upgraded still runs. Built once into node_modules/.cache and
 * reused; never a worktree of the repository (tests must not touch it).
 */
export const PREVIOUS_RELEASE = "18578ad";

const ROOT = resolve(__dirname, "../..");

/**
 * The last commit before tasks had labels and acceptance criteria (schema 2, like this
 * version): a teammate on it reads and writes the same state, keeping those fields unread.
 */
export const BEFORE_LABELS = "549ae96";

/** A release's built launcher (`dist/pantheon.js`), building it from `commit` first if needed. */
export function releaseBin(commit: string): string {
  const cache = join(ROOT, "node_modules", ".cache", `pantheon-release-${commit}`);
  const bin = join(cache, "dist", "pantheon.js");
  if (existsSync(bin)) return bin;
  const tmp = `${cache}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const tar = execFileSync("git", ["archive", "--format=tar", commit], {
    cwd: ROOT,
    env: testEnv(),
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", tmp], { input: tar });
  // Same dependencies as this version (its lock file is unchanged since): shared, not reinstalled.
  symlinkSync(join(ROOT, "node_modules"), join(tmp, "node_modules"));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: tmp, stdio: "pipe" });
  try {
    renameSync(tmp, cache);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another test process built it meanwhile
  }
  return bin;
}

/** The previous release's built launcher (`dist/pantheon.js`), building it first if needed. */
export function previousReleaseBin(): string {
  return releaseBin(PREVIOUS_RELEASE);
}

/** Runs a release as a real process, as a teammate who has not upgraded would. */
export function runRelease(commit: string, argv: string[], o: { cwd: string; env?: NodeJS.ProcessEnv }): CliResult {
  const r = spawnSync(process.execPath, [releaseBin(commit), ...argv], {
    cwd: o.cwd,
    env: testEnv({ NO_COLOR: "1", ...o.env }),
    encoding: "utf8",
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

/** Runs the previous release as a real process, as a teammate who has not upgraded would. */
export function runPrevious(argv: string[], o: { cwd: string; env?: NodeJS.ProcessEnv }): CliResult {
  return runRelease(PREVIOUS_RELEASE, argv, o);
}
