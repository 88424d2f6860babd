import { skillPrompt } from "./command-prompts.js";
import { MCP_SERVER_NAME } from "./mcp-config.js";
import { hookCommand } from "./session-hooks.js";
import { tomlString } from "./toml-string.js";
import { withFrontmatter } from "./with-frontmatter.js";
import {
  absolute,
  fitsInline,
  missionEnv,
  sessionPath,
  shellSessionId,
  type AssistantAdapter,
  type LaunchInput,
} from "./adapter.js";
import { argv, sessionIdArg } from "./argv.js";
import { MODEL_NAME } from "../domain/record-formats.js";

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
 * Codex runs tool shells with these set (CODEX_SANDBOX_NETWORK_DISABLED=1 where its sandbox has
 * no network); its workspace-write sandbox refuses writes under .git.
 */
export function insideCodexSandbox(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.CODEX_SANDBOX_NETWORK_DISABLED !== undefined || env.CODEX_SANDBOX !== undefined;
}

/** Whether this command runs in a codex sandbox without network, where a fetch can only time out. */
export function codexSandboxOffline(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.CODEX_SANDBOX_NETWORK_DISABLED === "1";
}

/**
 * The `[sandbox_workspace_write]` line a codex session the user starts needs so that `pantheon`
 * can write its state from inside the sandbox: in `workspace-write` (codex's default for a trusted
 * folder) `.git` is read-only, and the state lives in the git common dir. Exactly the folders
 * Pantheon writes, never the common dir itself: its hooks and config would run the model's code
 * outside the sandbox at the Director's next git command. `summon` passes the same folders.
 */
export function codexWritableRootsLine(writableDirs: readonly string[]): string {
  return `writable_roots = [${writableDirs.map((d) => JSON.stringify(absolute(d))).join(", ")}]`;
}

/** The persona as codex's developer message: the text itself, or a pointer to its file when too long for argv. */
export function codexDeveloperInstructions(i: Pick<LaunchInput, "personaText" | "personaFile">): string {
  if (fitsInline(i.personaText)) return i.personaText;
  return `Your Pantheon persona instructions are in ${absolute(i.personaFile)} (too long to pass here): read that whole file first and follow it for the rest of this session.`;
}

export const codexAdapter: AssistantAdapter<"codex"> = {
  name: "codex",
  binary: "codex",
  // It names its own thread; its tool shells see it as CODEX_THREAD_ID.
  takesSessionId: false,
  installHint: "npm install -g @openai/codex",
  launch(i: LaunchInput) {
    // `codex resume [OPTIONS] -- <SESSION_ID> <PROMPT>` takes the same options as a new session;
    // after `--` clap reads no option, so the session id (a record's value) is a positional.
    const args = argv();
    if (i.resumeSession !== undefined) args.command("resume");
    args.option("--cd", absolute(i.projectDir), "the project folder");
    // In a folder with no trust decision yet, codex's sandbox is read-only until its trust dialog
    // is answered, and it refuses writable roots before showing the dialog ("Ignoring --add-dir
    // …", exit 1). workspace-write is what codex picks itself once the folder is trusted (it runs
    // no session in an untrusted one), so asking for it changes only the order: the roots are
    // accepted and codex's own dialog still asks. A sandbox the user chose stays theirs.
    const chosen = i.sandbox?.mode ?? null;
    if (chosen === null || chosen === "workspace-write") args.option("--sandbox", "workspace-write", "a sandbox mode");
    // Writable beside the workspace (added to the user's writable_roots, not replacing them):
    // the folders pantheon writes, without which every claim, note and mission end fails in
    // the sandbox; the rest of the common dir (hooks, config) stays read-only as codex intends.
    // read-only refuses any root: there a write asks the Director for approval instead.
    if (chosen !== "read-only")
      for (const dir of i.writableDirs) args.option("--add-dir", absolute(dir), "a folder pantheon writes");
    if (i.model) args.option("--model", i.model, "model name", { format: MODEL_NAME });
    // developer_instructions adds a developer message and keeps Codex's base prompt;
    // model_instructions_file would replace it. The value is read as TOML, and a JSON string
    // is a valid TOML basic string.
    args.text("--config", `developer_instructions=${JSON.stringify(codexDeveloperInstructions(i))}`, "the persona");
    // Codex (0.157+) runs sessions in a shared background server that keeps the environment
    // of the terminal that started it: its tool shells would get another session's
    // PANTHEON_MISSION, and a server started here would hand this one to the Director's later
    // sessions. So the session sets the variable itself and never starts that server.
    args.option(
      "--config",
      `shell_environment_policy.set.PANTHEON_MISSION=${JSON.stringify(i.missionHandle)}`,
      "the mission",
    );
    // codex runs each command in a login shell, whose profile starts PATH again: a `pantheon`
    // that only the user's .bashrc put on PATH was "command not found". The session's own PATH
    // (this Pantheon's folder first) is set for its shells, as PANTHEON_MISSION is.
    const path = sessionPath(i);
    if (path) args.text("--config", `shell_environment_policy.set.PATH=${JSON.stringify(path)}`, "the PATH");
    args.option("--config", "features.daemon_auto_start=false", "a setting");
    // The session hooks of live status. Codex asks the user once to trust them (it keeps a
    // hash of each command, the same in every session: the mission comes from PANTHEON_LIVE).
    args.option("--enable", "hooks", "a feature");
    for (const hook of codexHookConfig("pantheon")) args.option("--config", hook, "a session hook");
    const kickoff = { value: i.kickoff, what: "the kickoff", prose: true };
    return {
      command: "codex",
      args: args
        .afterOptions(
          i.resumeSession !== undefined
            ? [{ value: sessionIdArg(i.resumeSession), what: "session id" }, kickoff]
            : [kickoff],
        )
        .build(),
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
  shellMarkers: ["CODEX_THREAD_ID", "CODEX_SANDBOX_NETWORK_DISABLED"],
  shellSession: (env) =>
    env.CODEX_THREAD_ID !== undefined || env.CODEX_SANDBOX_NETWORK_DISABLED !== undefined
      ? { sessionId: shellSessionId(env.CODEX_THREAD_ID) }
      : null,
  hookEvents: CODEX_HOOK_EVENTS,
  // Its Interrupt hook says a declined prompt was answered.
  declinesSilently: false,
  // Codex reads AGENTS.md itself.
  instructionsFile: null,
  projectPaths: [".agents/skills"],
  // `.codex/config.toml`, `[mcp_servers.<name>]` with `command` and `args`, read only in a project
  // the user trusts; otherwise the same table goes into `~/.codex/config.toml`.
  mcpConfig(command) {
    const [program, ...args] = command as [string, ...string[]];
    const table = `mcp_servers.${MCP_SERVER_NAME}`;
    const text = `[${table}]\ncommand = ${tomlString(program)}\nargs = [${args.map(tomlString).join(", ")}]\n`;
    return {
      assistant: "codex",
      path: ".codex/config.toml",
      format: "toml",
      table,
      text,
      note: "codex reads .codex/config.toml only in a project you trust; or add the same lines to ~/.codex/config.toml",
    };
  },
};
