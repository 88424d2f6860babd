import { commandPrompts } from "./command-prompts.js";
import { missionEnv, notAnOption, type AssistantAdapter, type LaunchInput } from "./adapter.js";
import { tomlMultilineString, tomlString } from "./toml-string.js";

export const geminiAdapter: AssistantAdapter = {
  name: "gemini",
  binary: "gemini",
  installHint: "npm install -g @google/gemini-cli",
  launch(i: LaunchInput) {
    return {
      command: "gemini",
      // Gemini has no way to append to its system prompt: the persona goes inline, before the
      // kickoff, as the first interactive prompt (-i needs a terminal on stdin).
      args: [...(i.model ? ["-m", i.model] : []), "-i", notAnOption(`${i.personaText}\n\n${i.kickoff}`)],
      env: missionEnv(i),
    };
  },
  commandFiles({ cli }) {
    return commandPrompts({ cli, args: "{{args}}", invoke: (n) => `/${n}` }).map((p) => ({
      path: `.gemini/commands/${p.name}.toml`,
      content: `description = ${tomlString(p.description)}\nprompt = ${tomlMultilineString(p.body)}\n`,
    }));
  },
};
