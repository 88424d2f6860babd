import { commandPrompts } from "./command-prompts.js";
import { claudeHookSettings } from "./session-hooks.js";
import { withFrontmatter } from "./with-frontmatter.js";
import { absolute, missionEnv, type AssistantAdapter, type LaunchInput } from "./adapter.js";

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

export const claudeAdapter: AssistantAdapter = {
  name: "claude",
  binary: "claude",
  // Its session runs under the id summon gives it, which is kept on the mission.
  takesSessionId: true,
  installHint: "npm install -g @anthropic-ai/claude-code",
  launch(i: LaunchInput) {
    return {
      command: "claude",
      args: [
        // Appended, not replacing: Claude keeps its own system prompt and tools guidance.
        "--append-system-prompt-file",
        absolute(i.personaFile),
        // Pre-approved for this session only; every other tool asks as the user configured.
        "--allowedTools",
        claudePantheonRule("pantheon"),
        // The session hooks of live status (pantheon status), for this session only.
        "--settings",
        claudeHookSettings("pantheon"),
        ...(i.model ? ["--model", i.model] : []),
        "-n",
        `pantheon:${i.role}`,
        // A resumed session continues under its own id; a new one runs under the id summon chose.
        ...(i.resumeSession ? ["--resume", i.resumeSession] : ["--session-id", i.sessionId]),
        "--",
        guardClaudeKickoff(i.kickoff, i.missionHandle),
      ],
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
};
