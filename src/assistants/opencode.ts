import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { commandPrompts } from "./command-prompts.js";
import { opencodePlugin } from "./session-hooks.js";
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

export const opencodeAdapter: AssistantAdapter = {
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
};
