/**
 * What Pantheon needs from each AI coding assistant: how to start it as a persona (an argv array,
 * never a shell line) and which slash-command files make `/summon`, `/dismiss` and
 * `/pantheon-help` available inside it. The exact argv per assistant was checked against the real
 * programs (ASSISTANTS.md); `test/assistants/` re-checks it against the pinned versions.
 */
import { isAbsolute, resolve } from "node:path";

export const ASSISTANT_NAMES = ["claude", "opencode", "codex", "gemini"] as const;
export type AssistantName = (typeof ASSISTANT_NAMES)[number];

export interface LaunchInput {
  /** The project (or worktree) the assistant works in. Made absolute by the adapters. */
  projectDir: string;
  /** The rendered persona instructions, written to a file (claude reads the file itself). */
  personaFile: string;
  /** The same instructions as text, for assistants that take them inline. */
  personaText: string;
  /** The first user message; carries the mission handle (the env may not reach every tool shell). */
  kickoff: string;
  role: string;
  model?: string;
  /** `MSN-0003:silent-phoenix`: what every pantheon call passes as `--mission`. */
  missionHandle: string;
  /** A UUID v4; claude records the session under it. */
  sessionId: string;
}

export interface Launch {
  command: string;
  args: string[];
  /** Variables to add to the parent's environment; always includes PANTHEON_MISSION. */
  env: Record<string, string>;
}

/** A file to install into the project, its path relative to the project root. */
export interface CommandFile {
  path: string;
  content: string;
}

export interface CommandContext {
  /** How the assistant should invoke Pantheon in its shell, usually `pantheon`. */
  cli: string;
}

export interface AssistantAdapter {
  name: AssistantName;
  /** The program looked up on PATH. */
  binary: string;
  /** Shown when the program is not installed. */
  installHint: string;
  launch(input: LaunchInput): Launch;
  commandFiles(ctx: CommandContext): CommandFile[];
}

/**
 * The variables every launch sets. Names must never contain KEY, TOKEN, SECRET or AUTH: codex and
 * gemini strip such variables from the environment of the shells they run.
 */
export function missionEnv(input: Pick<LaunchInput, "missionHandle">): Record<string, string> {
  return { PANTHEON_MISSION: input.missionHandle };
}

/**
 * A prompt passed as an option's value or as a positional must not start with "-": opencode's
 * and gemini's parsers then read it as a missing value and codex as an unknown flag (all three
 * checked). A user's persona file that opens with `---` frontmatter would do exactly that, so
 * such a text gets one leading space, which the model does not mind.
 */
export function notAnOption(text: string): string {
  return text.startsWith("-") ? ` ${text}` : text;
}

/** The assistants run in other working directories than ours, so paths must not be relative. */
export function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(path);
}
