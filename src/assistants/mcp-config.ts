import type { AssistantName } from "./adapter.js";

/**
 * Where an assistant reads a project's MCP servers, and the entry that starts `pantheon mcp`
 * (each adapter's `mcpConfig`), as verified with the real programs (ASSISTANTS.md,
 * test/assistants/mcp-config.test.ts). A JSON file gets the entry merged under `key`; a TOML
 * file is never rewritten, only told to the user as `text`. The command is a name found on PATH
 * (never a machine's path): these files are committed.
 */
export type McpConfig =
  | {
      assistant: AssistantName;
      path: string;
      format: "json";
      key: [string, string];
      entry: Record<string, unknown>;
      base: Record<string, unknown>;
    }
  | { assistant: AssistantName; path: string; format: "toml"; table: string; text: string; note: string };

export const MCP_SERVER_NAME = "pantheon";

/** The `{ command, args }` entry under `mcpServers.pantheon` that claude and gemini read. */
export function mcpServersEntry(assistant: AssistantName, path: string, command: readonly string[]): McpConfig {
  const [program, ...args] = command as [string, ...string[]];
  return {
    assistant,
    path,
    format: "json",
    key: ["mcpServers", MCP_SERVER_NAME],
    entry: { command: program, args },
    base: {},
  };
}
