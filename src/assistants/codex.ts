import { commandPrompts } from "./command-prompts.js";
import { withFrontmatter } from "./with-frontmatter.js";
import { absolute, missionEnv, notAnOption, type AssistantAdapter, type LaunchInput } from "./adapter.js";

export const codexAdapter: AssistantAdapter = {
  name: "codex",
  binary: "codex",
  installHint: "npm install -g @openai/codex",
  launch(i: LaunchInput) {
    return {
      command: "codex",
      args: [
        "-C",
        absolute(i.projectDir),
        ...(i.model ? ["-m", i.model] : []),
        // developer_instructions adds a developer message and keeps Codex's base prompt;
        // model_instructions_file would replace it. The value is read as TOML, and a JSON string
        // is a valid TOML basic string.
        "-c",
        `developer_instructions=${JSON.stringify(i.personaText)}`,
        notAnOption(i.kickoff),
      ],
      env: missionEnv(i),
    };
  },
  // Codex has no custom slash commands any more; skills take their place and are invoked as
  // `$summon`. A skill gets no argument placeholder, so the prompt points at the user's words.
  commandFiles({ cli }) {
    const prompts = commandPrompts({
      cli,
      args: "(whatever the user wrote after the skill's name)",
      invoke: (n) => `$${n}`,
    });
    return prompts.map((p) => ({
      path: `.agents/skills/${p.name}/SKILL.md`,
      content: withFrontmatter({ name: p.name, description: p.description }, p.body),
    }));
  },
};
