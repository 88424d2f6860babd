import { join } from "node:path";
import { commandPrompts } from "./command-prompts.js";
import { absolute, missionEnv, type AssistantAdapter, type LaunchInput } from "./adapter.js";
import { argv } from "./argv.js";
import { MODEL_NAME, SESSION_ID } from "../domain/record-formats.js";
import { agentsMdImport } from "./instructions-block.js";
import { mcpServersEntry } from "./mcp-config.js";
import { hookCommand } from "./session-hooks.js";
import { tomlMultilineString, tomlString } from "./toml-string.js";

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
 * Gemini has no way to append to its system prompt, and a persona passed in `-i` is lost when
 * the prompt fires while a first-run dialog (sign-in, folder trust) is open. Its context files
 * do not have that problem: every `GEMINI.md` of a workspace directory is loaded into the
 * session's context. So the persona is a `GEMINI.md` in a folder of this session, added with
 * `--include-directories`, and the kickoff names that file for the case it was not loaded (an
 * untrusted folder, or a user whose `context.fileName` is something else).
 */
export function geminiPersonaDir(sessionDir: string): string {
  return join(sessionDir, "gemini-context");
}

/** A policy-engine rule that lets every `pantheon` command run without asking. */
export function geminiPolicy(cli: string): string {
  return `# Written by pantheon summon for this session only.\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ${tomlString(cli)}\ndecision = "allow"\npriority = 100\n`;
}

export const geminiAdapter: AssistantAdapter<"gemini"> = {
  name: "gemini",
  binary: "gemini",
  // Its session runs under the id summon gives it, which is kept on the mission.
  takesSessionId: true,
  installHint: "npm install -g @google/gemini-cli",
  launch(i: LaunchInput) {
    const contextDir = geminiPersonaDir(absolute(i.sessionDir));
    const contextFile = join(contextDir, "GEMINI.md");
    const policyFile = join(absolute(i.sessionDir), "gemini-policy.toml");
    const defaultsFile = join(absolute(i.sessionDir), "gemini-system-defaults.json");
    const kickoff = `${i.kickoff} Your persona instructions are in ${contextFile}; if they are not in your context, read that file first.`;
    const args = argv();
    if (i.model) args.option("--model", i.model, "model name", { format: MODEL_NAME });
    // Both are lists gemini splits at commas: a folder with one would add another folder.
    args.option("--include-directories", contextDir, "the persona folder", { list: true });
    args.option("--policy", policyFile, "the policy file", { list: true });
    if (i.resumeSession !== undefined) args.option("--resume", i.resumeSession, "session id", { format: SESSION_ID });
    else args.option("--session-id", i.sessionId, "session id", { format: SESSION_ID });
    // --prompt-interactive (-i) needs a terminal on stdin; it submits the kickoff and stays interactive.
    args.text("--prompt-interactive", kickoff, "the kickoff");
    return {
      command: "gemini",
      args: args.build(),
      // The session hooks of live status: gemini's system-defaults file is the one settings
      // file a variable names, so a session can have its own without touching the user's.
      env: { ...missionEnv(i), GEMINI_CLI_SYSTEM_DEFAULTS_PATH: defaultsFile },
      files: [
        { path: contextFile, content: i.personaText },
        { path: policyFile, content: geminiPolicy("pantheon") },
        { path: defaultsFile, content: geminiHookSettings("pantheon") },
      ],
    };
  },
  commandFiles({ cli }) {
    return commandPrompts({ cli, args: "{{args}}", invoke: (n) => `/${n}` }).map((p) => ({
      path: `.gemini/commands/${p.name}.toml`,
      content: `description = ${tomlString(p.description)}\nprompt = ${tomlMultilineString(p.body)}\n`,
    }));
  },
  shellMarkers: ["GEMINI_CLI"],
  // Its shells are not told the session's id.
  shellSession: (env) => (env.GEMINI_CLI === "1" ? { sessionId: null } : null),
  hookEvents: GEMINI_HOOK_EVENTS,
  // A declined permission prompt fires no hook: its transcript moving on says so.
  declinesSilently: true,
  // Gemini reads GEMINI.md (its default context file name), not AGENTS.md, and follows `@file` imports.
  instructionsFile: { path: "GEMINI.md", content: agentsMdImport(), reader: "Gemini" },
  projectPaths: ["GEMINI.md", ".gemini/commands"],
  // `.gemini/settings.json`, `mcpServers.<name>` = `{ command, args }` (trusted folders).
  mcpConfig: (command) => mcpServersEntry("gemini", ".gemini/settings.json", command),
};
