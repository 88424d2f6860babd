import { commandPrompts } from "./command-prompts.js";
import { withFrontmatter } from "./with-frontmatter.js";
import { absolute, missionEnv, notAnOption, type AssistantAdapter, type LaunchInput } from "./adapter.js";

/** The agent name opencode starts with: one per role, defined only for this process. */
export function opencodeAgentName(role: string): string {
  return `pantheon-${role}`;
}

/**
 * OpenCode has no "append to the system prompt" flag; an agent defined through
 * OPENCODE_CONFIG_CONTENT carries the persona instead, without writing a file into the project.
 * That agent's prompt replaces opencode's default agent prompt, so the persona text must stand on
 * its own. A user's own OPENCODE_CONFIG_CONTENT is replaced for this session.
 */
export function opencodeConfigContent(i: Pick<LaunchInput, "role" | "missionHandle" | "personaText">): string {
  const agent = {
    description: `Pantheon ${i.role} persona on mission ${i.missionHandle}`,
    mode: "primary",
    prompt: i.personaText,
  };
  return JSON.stringify({ agent: { [opencodeAgentName(i.role)]: agent } });
}

export const opencodeAdapter: AssistantAdapter = {
  name: "opencode",
  binary: "opencode",
  installHint: "npm install -g opencode-ai",
  launch(i: LaunchInput) {
    return {
      command: "opencode",
      args: [
        absolute(i.projectDir),
        "--agent",
        opencodeAgentName(i.role),
        // opencode wants provider/model here (anthropic/claude-sonnet-4-5); passed on as given.
        ...(i.model ? ["-m", i.model] : []),
        "--prompt",
        notAnOption(i.kickoff),
      ],
      env: { ...missionEnv(i), OPENCODE_CONFIG_CONTENT: opencodeConfigContent(i) },
    };
  },
  commandFiles({ cli }) {
    return commandPrompts({ cli, args: "$ARGUMENTS", invoke: (n) => `/${n}` }).map((p) => ({
      path: `.opencode/commands/${p.name}.md`,
      content: withFrontmatter({ description: p.description }, p.body),
    }));
  },
};
