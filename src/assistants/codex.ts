import { skillPrompt } from "./command-prompts.js";
import { codexHookArgs } from "./session-hooks.js";
import { withFrontmatter } from "./with-frontmatter.js";
import { absolute, fitsInline, missionEnv, notAnOption, type AssistantAdapter, type LaunchInput } from "./adapter.js";

/**
 * What a codex session needs so that `pantheon` can write its state from inside the sandbox:
 * in `workspace-write` (codex's default for a trusted folder) `.git` is read-only, and the state
 * lives in the git common dir. `summon` passes `--add-dir`; a session the user starts needs this
 * line in `~/.codex/config.toml` (under `[sandbox_workspace_write]`).
 */
export function codexWritableRootsLine(gitCommonDir: string): string {
  return `writable_roots = [${JSON.stringify(absolute(gitCommonDir))}]`;
}

/** The persona as codex's developer message: the text itself, or a pointer to its file when too long for argv. */
export function codexDeveloperInstructions(i: Pick<LaunchInput, "personaText" | "personaFile">): string {
  if (fitsInline(i.personaText)) return i.personaText;
  return `Your Pantheon persona instructions are in ${absolute(i.personaFile)} (too long to pass here): read that whole file first and follow it for the rest of this session.`;
}

export const codexAdapter: AssistantAdapter = {
  name: "codex",
  binary: "codex",
  // It names its own thread; its tool shells see it as CODEX_THREAD_ID.
  takesSessionId: false,
  installHint: "npm install -g @openai/codex",
  launch(i: LaunchInput) {
    return {
      command: "codex",
      // `codex resume [OPTIONS] <SESSION_ID> [PROMPT]` takes the same options as a new session.
      args: [
        ...(i.resumeSession ? ["resume"] : []),
        "-C",
        absolute(i.projectDir),
        // Writable alongside the workspace (added to the user's writable_roots, not replacing
        // them): without it every claim, note and mission end fails inside the sandbox.
        "--add-dir",
        absolute(i.gitCommonDir),
        ...(i.model ? ["-m", i.model] : []),
        // developer_instructions adds a developer message and keeps Codex's base prompt;
        // model_instructions_file would replace it. The value is read as TOML, and a JSON string
        // is a valid TOML basic string.
        "-c",
        `developer_instructions=${JSON.stringify(codexDeveloperInstructions(i))}`,
        // Codex (0.157+) runs sessions in a shared background server that keeps the environment
        // of the terminal that started it: its tool shells would get another session's
        // PANTHEON_MISSION, and a server started here would hand this one to the Director's later
        // sessions. So the session sets the variable itself and never starts that server.
        "-c",
        `shell_environment_policy.set.PANTHEON_MISSION=${JSON.stringify(i.missionHandle)}`,
        "-c",
        "features.daemon_auto_start=false",
        // The session hooks of live status. Codex asks the user once to trust them (it keeps a
        // hash of each command, the same in every session: the mission comes from PANTHEON_LIVE).
        "--enable",
        "hooks",
        ...codexHookArgs("pantheon"),
        ...(i.resumeSession ? [i.resumeSession] : []),
        notAnOption(i.kickoff),
      ],
      env: missionEnv(i),
      files: [],
    };
  },
  // Codex has no custom slash commands; one skill (`$pantheon summon engineer`) takes their place.
  commandFiles({ cli }) {
    const skill = skillPrompt(cli);
    return [
      {
        path: `.agents/skills/${skill.name}/SKILL.md`,
        content: withFrontmatter({ name: skill.name, description: skill.description }, skill.body),
      },
    ];
  },
};
