/**
 * The per-session hooks `summon` installs in each assistant (DESIGN §5, live status): each runs
 * `pantheon hook event <assistant> <event>`, which reads the session's PANTHEON_LIVE from its
 * environment. The command names no mission: codex keeps its one-time trust of a hook as a
 * hash of the command, so one trust covers every later session. Nothing is written into the
 * user's own configuration: every hook is given for one session only (ASSISTANTS.md).
 */

/** The command every hook runs; byte-identical in every session (codex's trust is its hash). */
export function hookCommand(cli: string, assistant: string, event: string): string {
  return `${cli} hook event ${assistant} ${event}`;
}

/** Claude Code's events (ASSISTANTS.md "Session hooks"). */
export const CLAUDE_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "Notification",
  "Stop",
  "StopFailure",
  "SessionEnd",
] as const;
/** Codex's events (0.169: `hooks` is a stable feature). */
export const CODEX_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Stop",
  "Interrupt",
  "SessionEnd",
] as const;
/** Gemini CLI's events. */
export const GEMINI_HOOK_EVENTS = [
  "SessionStart",
  "BeforeAgent",
  "BeforeTool",
  "AfterTool",
  "Notification",
  "AfterAgent",
  "SessionEnd",
] as const;

/** `claude --settings` for one session: one command hook per event (a hook printing nothing changes no decision). */
export function claudeHookSettings(cli: string): string {
  const hooks = Object.fromEntries(
    CLAUDE_HOOK_EVENTS.map((e) => [
      e,
      [{ matcher: "", hooks: [{ type: "command", command: hookCommand(cli, "claude", e), timeout: 10 }] }],
    ]),
  );
  return JSON.stringify({ hooks });
}

/**
 * codex `-c hooks.<Event>=[...]` values (TOML inline tables; a JSON string is a TOML basic
 * string). 3 s: codex clamps SessionEnd and Interrupt hooks to that, and says so on screen.
 */
export function codexHookConfig(cli: string): string[] {
  return CODEX_HOOK_EVENTS.map(
    (e) => `hooks.${e}=[{hooks=[{type="command",command=${JSON.stringify(hookCommand(cli, "codex", e))},timeout=3}]}]`,
  );
}

/**
 * The same as `-c` pairs: what the trust notice hashes (hook-trust-notice.ts), kept in this form
 * so that a clone told once is not told again for a change of how the argv is written.
 */
export function codexHookArgs(cli: string): string[] {
  return codexHookConfig(cli).flatMap((v) => ["-c", v]);
}

/**
 * Gemini's settings for one session, given as its system-defaults file
 * (GEMINI_CLI_SYSTEM_DEFAULTS_PATH): the lowest-precedence settings, whose hook lists gemini
 * concatenates with the user's and the project's; the hook-running indicator is off by default.
 */
export function geminiHookSettings(cli: string): string {
  const hooks = Object.fromEntries(
    GEMINI_HOOK_EVENTS.map((e) => [
      e,
      [
        {
          matcher: "*",
          hooks: [
            { type: "command", name: `pantheon-live-${e}`, command: hookCommand(cli, "gemini", e), timeout: 10_000 },
          ],
        },
      ],
    ]),
  );
  return `${JSON.stringify({ hooksConfig: { notifications: false }, hooks }, null, 2)}\n`;
}

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
