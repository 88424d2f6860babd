import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AssistantName } from "../../assistants/adapter.js";
import type { McpConfig } from "../../assistants/mcp-config.js";
import { ADAPTERS } from "../../assistants/registry.js";
import type { Context } from "../kernel/context.js";

export interface McpRegistration {
  assistant: AssistantName;
  /** Relative to the project root. */
  path: string;
  /**
   * created / updated (the entry merged into the user's file), existing (ours already there),
   * kept (a pantheon entry of the user's, left alone), manual (the file could not be merged
   * safely: `add` says what to add).
   */
  action: "created" | "updated" | "existing" | "kept" | "manual";
  /** What to add by hand, with `manual`; for codex, also the global alternative. */
  add: string | null;
  note: string | null;
}

/**
 * The command the assistants run: `pantheon` from PATH; where it is not on PATH but the project
 * has it as a dependency, `npx --no-install pantheon` (never a registry download, never a path
 * of this machine: the files are committed).
 */
export function mcpCommand(ctx: Context, root: string): string[] {
  if (!ctx.launcher.which("pantheon") && existsSync(join(root, "node_modules/.bin/pantheon")))
    return ["npx", "--no-install", "pantheon", "mcp"];
  if (!ctx.launcher.which("pantheon"))
    ctx.warn(
      // Never from the npm registry: its package named pantheon is someone else's.
      "pantheon is not on PATH: the assistants will run `pantheon mcp`; put it there from Pantheon's own clone: npm ci && npm install -g --ignore-scripts . (see its README)",
    );
  return ["pantheon", "mcp"];
}

/** The indentation a JSON file was written with, if JSON.stringify reproduces it exactly. */
function jsonLayout(text: string, value: unknown): string | number | null {
  for (const indent of [2, 4, "\t", 0] as const) {
    const out = JSON.stringify(value, null, indent);
    if (text === out || text === `${out}\n`) return indent;
  }
  return null;
}

function json(value: unknown, indent: string | number): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function registerJson(root: string, c: Extract<McpConfig, { format: "json" }>): McpRegistration {
  const abs = join(root, c.path);
  const [section, name] = c.key;
  const snippet = json({ [section]: { [name]: c.entry } }, 2);
  const result = (
    action: McpRegistration["action"],
    add: string | null = null,
    note: string | null = null,
  ): McpRegistration => ({ assistant: c.assistant, path: c.path, action, add, note });
  if (!existsSync(abs)) {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, json({ ...c.base, [section]: { [name]: c.entry } }, 2));
    return result("created");
  }
  const text = readFileSync(abs, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return result("manual", snippet, `${c.path} is not plain JSON (comments?); merge this in by hand`);
  }
  if (!isObject(value) || (value[section] !== undefined && !isObject(value[section])))
    return result("manual", snippet, `${c.path} has an unexpected shape; merge this in by hand`);
  const servers = (value[section] ?? {}) as Record<string, unknown>;
  if (servers[name] !== undefined) {
    return JSON.stringify(servers[name]) === JSON.stringify(c.entry)
      ? result("existing")
      : result("kept", null, `${c.path} already has a "${name}" server of its own; left as it is`);
  }
  // Merged only when rewriting the file changes nothing but the added entry: same key order,
  // same indentation, no comments (JSON.stringify reproduces the user's text exactly).
  const indent = jsonLayout(text, value);
  if (indent === null) return result("manual", snippet, `${c.path} is formatted by hand; merge this in by hand`);
  writeFileSync(abs, json({ ...value, [section]: { ...servers, [name]: c.entry } }, indent));
  return result("updated");
}

function registerToml(root: string, c: Extract<McpConfig, { format: "toml" }>): McpRegistration {
  const abs = join(root, c.path);
  const base = { assistant: c.assistant, path: c.path, note: c.note };
  if (!existsSync(abs)) {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, c.text);
    return { ...base, action: "created", add: c.text };
  }
  const text = readFileSync(abs, "utf8");
  if (text.includes(c.text)) return { ...base, action: "existing", add: c.text };
  // A TOML file is never rewritten: a table of that name (or an inline one) may already exist.
  if (text.includes(`[${c.table}]`) || /^\s*mcp_servers\s*[.=]/m.test(text))
    return { ...base, action: "kept", add: c.text, note: `${c.path} already configures MCP servers; ${c.note}` };
  return { ...base, action: "manual", add: c.text, note: `${c.path} exists: add these lines to it; ${c.note}` };
}

/** `init --mcp`: registers `pantheon mcp` in the project file each assistant reads, never overwriting a user's configuration. */
export function registerMcp(ctx: Context, root: string, assistants: readonly AssistantName[]): McpRegistration[] {
  const command = mcpCommand(ctx, root);
  return assistants.map((a) => {
    const c = ADAPTERS[a].mcpConfig(command);
    return c.format === "json" ? registerJson(root, c) : registerToml(root, c);
  });
}
