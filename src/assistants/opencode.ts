import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { commandPrompts } from "./command-prompts.js";
import { MCP_SERVER_NAME } from "./mcp-config.js";
import { withFrontmatter } from "./with-frontmatter.js";
import { absolute, missionEnv, type AssistantAdapter, type LaunchInput } from "./adapter.js";
import { argv } from "./argv.js";
import { MODEL_NAME, SESSION_ID } from "../domain/record-formats.js";

/**
 * OpenCode adds every file of its `instructions` list to the system prompt, beside its own base
 * prompt and AGENTS.md. A custom agent's `prompt` would REPLACE that base prompt (about 8,500
 * characters of tool guidance) and deny its question tool, so the persona goes in as an
 * instructions file of this session, given through OPENCODE_CONFIG_CONTENT. A user's own
 * OPENCODE_CONFIG_CONTENT is kept: the persona file is added to its `instructions`.
 */
export function opencodeConfigContent(
  personaFile: string,
  userContent: string | undefined,
  pluginFile?: string,
): string {
  let base: Record<string, unknown> = {};
  if (userContent) {
    try {
      const parsed: unknown = JSON.parse(userContent);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) base = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: opencode could not read it either; the session gets ours alone.
    }
  }
  const own = Array.isArray(base.instructions)
    ? base.instructions.filter((x): x is string => typeof x === "string")
    : [];
  const plugins = Array.isArray(base.plugin) ? base.plugin.filter((x): x is string => typeof x === "string") : [];
  return JSON.stringify({
    ...base,
    instructions: [...own, absolute(personaFile)],
    ...(pluginFile ? { plugin: [...plugins, pathToFileURL(absolute(pluginFile)).href] } : {}),
  });
}

/** The bus events its plugin forwards (opencodePlugin below), by the events' own types. */
export const OPENCODE_HOOK_EVENTS = [
  "session.created",
  "session.status",
  "session.error",
  "permission.asked",
  "question.asked",
  "session.idle",
  "session.deleted",
  "permission.replied",
  "question.replied",
] as const;

export const opencodeAdapter: AssistantAdapter<"opencode"> = {
  name: "opencode",
  binary: "opencode",
  // It names its own sessions (ses_...).
  takesSessionId: false,
  installHint: "npm install -g opencode-ai",
  launch(i: LaunchInput) {
    // The session hooks of live status: a plugin of this session only, by absolute path.
    const plugin = join(absolute(i.sessionDir), "pantheon-live.js");
    // The project folder is the one positional opencode reads before its options (not after `--`).
    const args = argv().positional(absolute(i.projectDir), "the project folder");
    // opencode wants provider/model here (anthropic/claude-sonnet-4-5); passed on as given.
    if (i.model) args.option("--model", i.model, "model name", { format: MODEL_NAME });
    if (i.resumeSession !== undefined) args.option("--session", i.resumeSession, "session id", { format: SESSION_ID });
    args.text("--prompt", i.kickoff, "the kickoff");
    return {
      command: "opencode",
      args: args.build(),
      env: {
        ...missionEnv(i),
        OPENCODE_CONFIG_CONTENT: opencodeConfigContent(i.personaFile, i.parentEnv.OPENCODE_CONFIG_CONTENT, plugin),
      },
      files: [{ path: plugin, content: opencodePlugin("pantheon") }],
    };
  },
  commandFiles({ cli }) {
    return commandPrompts({ cli, args: "$ARGUMENTS", invoke: (n) => `/${n}` }).map((p) => ({
      path: `.opencode/commands/${p.name}.md`,
      content: withFrontmatter({ description: p.description }, p.body),
    }));
  },
  // It also sets AGENT=1, which other agents set too: that one only says "not a person" (assistant-env.ts).
  shellMarkers: ["OPENCODE"],
  // Its shells are not told the session's id; its plugin tells the live file.
  shellSession: (env) => (env.OPENCODE === "1" ? { sessionId: null } : null),
  hookEvents: OPENCODE_HOOK_EVENTS,
  // Its plugin forwards permission.replied.
  declinesSilently: false,
  // OpenCode reads AGENTS.md itself.
  instructionsFile: null,
  projectPaths: [".opencode/commands"],
  // `opencode.json`, `mcp.<name>` = `{ type: "local", command: [...], enabled }`.
  mcpConfig: (command) => ({
    assistant: "opencode",
    path: "opencode.json",
    format: "json",
    key: ["mcp", MCP_SERVER_NAME],
    entry: { type: "local", command: [...command], enabled: true },
    base: { $schema: "https://opencode.ai/config.json" },
  }),
};

/**
 * The opencode plugin (loaded by absolute path from OPENCODE_CONFIG_CONTENT): it forwards the
 * main session's bus events to the hook command, one at a time and in order, never waiting in
 * opencode's event handler; sub-agent sessions are left out.
 */
export function opencodePlugin(cli: string): string {
  return `// Written by pantheon summon for this session only: reports the session's state to \`pantheon status\`.
import { spawn } from "node:child_process";

const CLI = ${JSON.stringify(cli)};
let main = null;
let chain = Promise.resolve();

function send(event, payload, cwd) {
  chain = chain.then(() => new Promise((done) => {
    try {
      const child = spawn(CLI, ["hook", "event", "opencode", event], { cwd, stdio: ["pipe", "ignore", "ignore"] });
      const timer = setTimeout(() => { try { child.kill(); } catch {} done(); }, 5000);
      child.on("error", () => { clearTimeout(timer); done(); });
      child.on("exit", () => { clearTimeout(timer); done(); });
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify({ hook_event_name: event, ...payload }));
    } catch {
      done();
    }
  }));
}

export const PantheonLive = async ({ directory }) => ({
  event: async ({ event }) => {
    const p = (event && event.properties) || {};
    if (event.type === "session.created") {
      if (main || (p.info && p.info.parentID)) return;
      main = (p.info && p.info.id) || null;
      send(event.type, { session_id: main }, directory);
      return;
    }
    const sid = p.sessionID || (p.info && p.info.id);
    if (!sid || (main && sid !== main)) return;
    switch (event.type) {
      case "session.status":
        send(event.type, { session_id: sid, status: p.status && p.status.type }, directory);
        return;
      case "session.error":
        send(event.type, { session_id: sid, error: String((p.error && ((p.error.data && p.error.data.message) || p.error.name)) || "error") }, directory);
        return;
      case "permission.asked":
        send(event.type, { session_id: sid, tool_name: p.permission, tool_input: { command: (p.patterns || []).join(" ") } }, directory);
        return;
      case "question.asked":
        send(event.type, { session_id: sid, message: p.questions && p.questions[0] && p.questions[0].question }, directory);
        return;
      case "session.idle":
      case "session.deleted":
      case "permission.replied":
      case "question.replied":
        send(event.type, { session_id: sid }, directory);
        return;
    }
  },
});
`;
}
