import type { AssistantName } from "./adapter.js";
import { tomlString } from "./toml-string.js";

/**
 * Where each assistant reads a project's MCP servers, and the entry that starts `pantheon mcp`,
 * as verified with the real programs (ASSISTANTS.md, test/assistants/mcp-config.test.ts):
 * - claude: `.mcp.json`, `mcpServers.<name>` = `{ command, args }` (the user approves it once);
 * - gemini: `.gemini/settings.json`, `mcpServers.<name>` = `{ command, args }` (trusted folders);
 * - opencode: `opencode.json`, `mcp.<name>` = `{ type: "local", command: [...], enabled }`;
 * - codex: `.codex/config.toml`, `[mcp_servers.<name>]` with `command` and `args`, read only in a
 *   project the user trusts; otherwise the same table goes into `~/.codex/config.toml`.
 * The command is a name found on PATH (never a machine's path): these files are committed.
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

export function mcpConfig(assistant: AssistantName, command: readonly string[]): McpConfig {
  const [program, ...args] = command as [string, ...string[]];
  switch (assistant) {
    case "claude":
      return {
        assistant,
        path: ".mcp.json",
        format: "json",
        key: ["mcpServers", MCP_SERVER_NAME],
        entry: { command: program, args },
        base: {},
      };
    case "gemini":
      return {
        assistant,
        path: ".gemini/settings.json",
        format: "json",
        key: ["mcpServers", MCP_SERVER_NAME],
        entry: { command: program, args },
        base: {},
      };
    case "opencode":
      return {
        assistant,
        path: "opencode.json",
        format: "json",
        key: ["mcp", MCP_SERVER_NAME],
        entry: { type: "local", command: [...command], enabled: true },
        base: { $schema: "https://opencode.ai/config.json" },
      };
    case "codex": {
      const table = `mcp_servers.${MCP_SERVER_NAME}`;
      const text = `[${table}]\ncommand = ${tomlString(program)}\nargs = [${args.map(tomlString).join(", ")}]\n`;
      return {
        assistant,
        path: ".codex/config.toml",
        format: "toml",
        table,
        text,
        note: "codex reads .codex/config.toml only in a project you trust; or add the same lines to ~/.codex/config.toml",
      };
    }
  }
}
