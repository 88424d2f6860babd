/**
 * gemini 0.61.0 loads a system settings file (summon gives each session its hooks in one, through
 * GEMINI_CLI_SYSTEM_DEFAULTS_PATH) only when the file and every folder above it are owned by root
 * and writable by neither group nor others (its `isFileAndDirectorySecureSync`); otherwise it
 * warns "Skipping system defaults file … is insecure" and the session has no live status. A test
 * of gemini's live status in such a place can only wait for its timeout: it is skipped with the
 * reason instead, and in CI it fails with it, as an assistant that cannot be installed does.
 */
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { TestContext } from "vitest";

/** Why gemini would refuse a settings file written under `parent` by this process, or null. */
export function geminiSettingsRefusal(parent: string): string | null {
  const uid = process.getuid?.();
  if (uid !== 0)
    return `gemini loads its session settings only from files owned by root, and this run's uid is ${uid ?? "unknown"}`;
  const umask = process.umask();
  if ((umask & 0o022) !== 0o022)
    return `this run's umask (${umask.toString(8).padStart(4, "0")}) makes folders writable by group or others, which gemini refuses`;
  for (let d = parent; ; d = dirname(d)) {
    if (existsSync(d)) {
      const st = statSync(d);
      if (st.uid !== 0) return `${d} is not owned by root (uid ${st.uid}): gemini skips a settings file below it`;
      if ((st.mode & 0o022) !== 0)
        return `${d} is writable by group or others (mode ${(st.mode & 0o7777).toString(8)}): gemini skips a settings file below it`;
    }
    if (dirname(d) === d) return null;
  }
}

/** Skips the test (fails it in CI) when gemini would refuse the settings summon writes under `parent`. */
export function requireGeminiSettings(ctx: TestContext, parent: string): void {
  const why = geminiSettingsRefusal(parent);
  if (why === null) return;
  if (process.env.CI === "true") throw new Error(`${why} (in CI this is a failure, not a skip)`);
  ctx.skip(why);
}
