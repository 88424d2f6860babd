import type { AssistantName } from "./adapter.js";
import { SESSION_ID } from "../domain/record-formats.js";

/**
 * The variables each assistant sets for the processes it starts (its shells), never for itself:
 * what tells a command which assistant it runs inside, and which parent process is the assistant.
 */
export const SHELL_MARKERS: Readonly<Record<AssistantName, readonly string[]>> = {
  claude: ["CLAUDECODE"],
  codex: ["CODEX_THREAD_ID", "CODEX_SANDBOX_NETWORK_DISABLED"],
  gemini: ["GEMINI_CLI"],
  opencode: ["OPENCODE"],
};

/**
 * Which assistant a `pantheon` command runs inside, from the variables each one sets for the
 * shells it runs (checked in the shipped programs, docs/assistants.md), and its session id where
 * it tells one: `mission start` from `/summon` records both on the mission.
 */
export function assistantFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): { assistant: AssistantName; sessionId: string | null } | null {
  // The mission keeps it for `summon --resume`: only an id of the record's format (never an option).
  const id = (v: string | undefined) => (v && SESSION_ID.test(v) ? v : null);
  if (env.CLAUDECODE === "1") return { assistant: "claude", sessionId: id(env.CLAUDE_CODE_SESSION_ID) };
  if (env.CODEX_THREAD_ID !== undefined || env.CODEX_SANDBOX_NETWORK_DISABLED !== undefined)
    return { assistant: "codex", sessionId: id(env.CODEX_THREAD_ID) };
  if (env.GEMINI_CLI === "1") return { assistant: "gemini", sessionId: null };
  if (env.OPENCODE === "1") return { assistant: "opencode", sessionId: null };
  return null;
}
