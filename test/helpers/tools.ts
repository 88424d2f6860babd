/**
 * The programs some suites drive (tmux for the terminal suites, zsh and fish for completion,
 * sshd, Chromium for the web suite). Where one is missing, a suite says so: outside CI it is
 * skipped with the reason in its title; in CI (CI=true) it FAILS, naming the program and the
 * script that installs it, so a CI machine without it can never pass by testing less.
 */
import { spawnSync } from "node:child_process";

/** Where `npm test` installs the programs its suites need (scripts/debian-packages.mjs does the apt-get). */
export const TOOLS_INSTALLER = "scripts/test-tools.mjs, run by npm test";

const onPath = (program: string): boolean => spawnSync("sh", ["-c", 'command -v "$1"', "sh", program]).status === 0;

/**
 * Null when `program` is on PATH; otherwise the reason the suite that needs it cannot run here.
 * In CI it throws that reason instead (at collection, the suite's file fails with it).
 */
export function missingTool(
  program: string,
  what: string,
  installer: string = TOOLS_INSTALLER,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (onPath(program)) return null;
  const why = `${program} is not installed: ${what} is NOT tested here (installed by ${installer})`;
  if (env.CI === "true") throw new Error(`${why}; in CI a missing program is a failure, not a skip`);
  return why;
}

/** A suite's title, saying why it is skipped when it is. */
export const titled = (title: string, missing: string | null): string =>
  missing === null ? title : `${title} (skipped: ${missing})`;
