import { commandPrompts } from "./command-prompts.js";
import { agentsMdImport } from "./instructions-block.js";
import { mcpServersEntry } from "./mcp-config.js";
import { hookCommand } from "./session-hooks.js";
import { withFrontmatter } from "./with-frontmatter.js";
import { absolute, missionEnv, shellSessionId, type AssistantAdapter, type LaunchInput } from "./adapter.js";
import { argv } from "./argv.js";
import { MODEL_NAME, SESSION_ID } from "../domain/record-formats.js";

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
 * Claude Code reads its first positional argument as a subcommand when it is exactly one
 * (`doctor`, `update`, `mcp`...), and `--` does not prevent that. A subcommand name is always a
 * single word, so a one-word (or empty) kickoff gets the mission in front of it.
 */
export function guardClaudeKickoff(kickoff: string, missionHandle: string): string {
  const text = kickoff.trim();
  return /\s/.test(text) ? kickoff : `Pantheon mission ${missionHandle}: ${text}`.trimEnd();
}

/** Claude's permission rule for every `pantheon` command (a prefix rule). */
export function claudePantheonRule(cli: string): string {
  return `Bash(${cli}:*)`;
}

export const claudeAdapter: AssistantAdapter<"claude"> = {
  name: "claude",
  binary: "claude",
  // Its session runs under the id summon gives it, which is kept on the mission.
  takesSessionId: true,
  installHint: "npm install -g @anthropic-ai/claude-code",
  launch(i: LaunchInput) {
    const args = argv()
      // Appended, not replacing: Claude keeps its own system prompt and tools guidance.
      .option("--append-system-prompt-file", absolute(i.personaFile), "the persona file")
      // Pre-approved for this session only; every other tool asks as the user configured.
      .option("--allowedTools", claudePantheonRule("pantheon"), "the pantheon rule")
      // The session hooks of live status (pantheon status), for this session only.
      .option("--settings", claudeHookSettings("pantheon"), "the session hooks");
    if (i.model) args.option("--model", i.model, "model name", { format: MODEL_NAME });
    args.option("--name", `pantheon:${i.role}`, "the session name");
    // A resumed session continues under its own id; a new one runs under the id summon chose.
    // `--resume` takes an optional value: apart from it, an id such as `--settings={…}` was a
    // second option (the reason every value is joined to its option).
    if (i.resumeSession !== undefined) args.option("--resume", i.resumeSession, "session id", { format: SESSION_ID });
    else args.option("--session-id", i.sessionId, "session id", { format: SESSION_ID });
    return {
      command: "claude",
      args: args
        .afterOptions([{ value: guardClaudeKickoff(i.kickoff, i.missionHandle), what: "the kickoff", prose: true }])
        .build(),
      env: missionEnv(i),
      files: [],
    };
  },
  commandFiles({ cli }) {
    return commandPrompts({ cli, args: "$ARGUMENTS", invoke: (n) => `/${n}` }).map((p) => ({
      path: `.claude/commands/${p.name}.md`,
      content: withFrontmatter(
        {
          description: p.description,
          ...(p.argumentHint ? { "argument-hint": p.argumentHint } : {}),
          // While a command runs, its pantheon calls need no approval in a session the user started.
          "allowed-tools": claudePantheonRule(cli),
        },
        p.body,
      ),
    }));
  },
  shellMarkers: ["CLAUDECODE"],
  shellSession: (env) => (env.CLAUDECODE === "1" ? { sessionId: shellSessionId(env.CLAUDE_CODE_SESSION_ID) } : null),
  hookEvents: CLAUDE_HOOK_EVENTS,
  // A declined permission prompt fires no hook: its transcript moving on says so.
  declinesSilently: true,
  // Claude reads CLAUDE.md, not AGENTS.md: Pantheon's block reaches it only through an import.
  instructionsFile: { path: "CLAUDE.md", content: agentsMdImport(), reader: "Claude" },
  projectPaths: ["CLAUDE.md", ".claude/commands"],
  // `.mcp.json`, `mcpServers.<name>` = `{ command, args }` (the user approves it once).
  mcpConfig: (command) => mcpServersEntry("claude", ".mcp.json", command),
};
