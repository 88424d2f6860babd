import { existsSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { scanCodexConfig } from "../../domain/codex-config-scan.js";
import {
  chosenCodexSandbox,
  codexTrust,
  type CodexLayer,
  type CodexSandboxChoice,
} from "../../domain/codex-sandbox-choice.js";
import type { Context } from "../kernel/context.js";

/** What summon needs to know of the user's codex configuration before starting codex in a folder. */
export interface CodexSettings {
  /** The sandbox the user chose, or null where codex picks by the folder's trust. */
  sandbox: CodexSandboxChoice | null;
  /** The folder's trust decision; null: codex asks first ("Trust this folder?"). */
  trust: "trusted" | "untrusted" | null;
}

/** codex's own configuration folder: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), ".codex");
}

/**
 * Reads the configuration files codex reads for a session in `cwd` (the system's, the user's,
 * the project's `.codex/config.toml`), lowest precedence first. A file that cannot be read is
 * skipped: codex would fail on it itself, with its own message.
 */
export function codexSettings(ctx: Context, o: { cwd: string; commonDir: string }): CodexSettings {
  const layers: CodexLayer[] = [];
  for (const path of [
    "/etc/codex/config.toml",
    join(codexHome(ctx.env), "config.toml"),
    join(o.cwd, ".codex", "config.toml"),
  ]) {
    try {
      if (existsSync(path)) layers.push({ where: path, settings: scanCodexConfig(readFileSync(path, "utf8")) });
    } catch {
      // unreadable: not ours to report
    }
  }
  // codex looks the folder up, then the main checkout of its repository (worktrees inherit).
  const main = basename(o.commonDir) === ".git" ? dirname(o.commonDir) : null;
  const paths = [o.cwd, ...(main ? [main] : [])];
  return { sandbox: chosenCodexSandbox(layers), trust: codexTrust(layers, paths, samePath) };
}

/** Two paths naming one folder, symbolic links resolved (codex canonicalizes both sides). */
function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return a === b || real(a) === real(b);
}

/** What the Director is told before a summoned codex starts: the first-run question it will ask, a sandbox that refuses Pantheon's folders. */
export function codexNotices(s: CodexSettings, cwd: string): string[] {
  const out: string[] = [];
  if (s.trust === null)
    out.push(
      `codex has not been told whether to trust ${cwd}: it asks first ("Trust this folder?"); choose "Trust and continue" (codex remembers it) and the persona starts`,
    );
  if (s.sandbox?.mode === "read-only")
    out.push(
      `codex's sandbox is "read-only" (${s.sandbox.where}): it takes no writable roots, so each pantheon command of the persona that writes asks for your approval`,
    );
  return out;
}
