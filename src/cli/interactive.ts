import type { IO } from "./io.js";

/** Set in the shells of AI assistants (and CI): never prompt there, even with a terminal. */
export const AGENT_MARKERS = ["CLAUDECODE", "GEMINI_CLI", "CODEX_THREAD_ID", "CODEX_SANDBOX_NETWORK_DISABLED", "OPENCODE", "AGENT", "CI"] as const;

/** A person at a terminal: stdin and stdout are terminals and no assistant or CI marker is set. */
export function isInteractive(io: IO): boolean {
  if (!io.stdinIsTTY || !io.stdout.isTTY) return false;
  return !AGENT_MARKERS.some((k) => io.env[k] !== undefined && io.env[k] !== "" && io.env[k] !== "0" && io.env[k] !== "false");
}
