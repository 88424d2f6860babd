/**
 * What Pantheon needs from each AI coding assistant: how to start it as a persona (an argv array,
 * never a shell line), which slash-command files make `/summon`, `/dismiss` and `/pantheon-help`
 * available inside it, and every other fact that differs between assistants (its shell markers,
 * session hooks, instructions file, MCP config, the project paths a worktree copies). This
 * interface is the one seam: every member is required, so an adapter that leaves one out does
 * not compile, and no code outside the adapter files switches on an assistant's name. The exact
 * argv per assistant was checked against the real programs (ASSISTANTS.md); `test/assistants/`
 * re-checks it against the pinned versions.
 */
import { delimiter, isAbsolute, resolve } from "node:path";
import type { CodexSandboxChoice } from "../domain/codex-sandbox-choice.js";
import type { AssistantName } from "../domain/assistant-names.js";
import { SESSION_ID } from "../domain/record-formats.js";
import type { McpConfig } from "./mcp-config.js";

export { ASSISTANT_NAMES, type AssistantName } from "../domain/assistant-names.js";

export interface LaunchInput {
  /** The project (or worktree) the assistant works in. Made absolute by the adapters. */
  projectDir: string;
  /** The rendered persona instructions, already written to this file. */
  personaFile: string;
  /** The same instructions as text, for assistants that take them inline. */
  personaText: string;
  /** A folder of this session only, for the files an adapter asks for (`Launch.files`). */
  sessionDir: string;
  /**
   * The folders `pantheon` writes in the git common dir (refs/coordination/, logs/refs/coordination/,
   * objects/, pantheon/), absolute and existing: a sandbox gets exactly these writable, never the
   * common dir itself (its hooks and config run code outside the sandbox).
   */
  writableDirs: readonly string[];
  /**
   * The sandbox the user chose in the assistant's own configuration (codex), or null where the
   * assistant picks one by the folder's trust; absent for assistants without one.
   */
  sandbox?: CodexSandboxChoice | null | undefined;
  /** The environment summon runs in: a user's own settings there are merged, not replaced. */
  parentEnv: Readonly<Record<string, string | undefined>>;
  /**
   * A folder holding a `pantheon` that runs this very Pantheon: put first on the session's PATH,
   * so the persona's shell (a login shell, which starts PATH again from the profile) and the
   * session hooks run the Pantheon that summoned them (DESIGN §5).
   */
  pantheonDir?: string | undefined;
  /** The first user message; carries the mission handle (the env may not reach every tool shell). */
  kickoff: string;
  role: string;
  /** `summon --model`: passed on only in a model name's format (record-formats.ts). */
  model?: string | undefined;
  /** `MSN-0003:silent-phoenix`: what every pantheon call passes as `--mission`. */
  missionHandle: string;
  /** A UUID v4; claude and gemini record the session under it. */
  sessionId: string;
  /** The mission's uid: the session hooks find the session's live file by it (PANTHEON_LIVE). */
  liveId: string;
  /** `summon --resume`: the assistant's own session to reopen (then `sessionId` is the same id). */
  resumeSession?: string | undefined;
}

export interface Launch {
  command: string;
  args: string[];
  /** Variables to add to the parent's environment; always includes PANTHEON_MISSION and PANTHEON_LIVE. */
  env: Record<string, string>;
  /** Files to write (absolute paths, inside `sessionDir`) before the assistant starts. */
  files: Array<{ path: string; content: string }>;
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

/** `N`: its name, so that the registry can hold each adapter under its own (registry.ts). */
export interface AssistantAdapter<N extends AssistantName = AssistantName> {
  name: N;
  /** The program looked up on PATH. */
  binary: string;
  /** Shown when the program is not installed. */
  installHint: string;
  /** Whether the session runs under `LaunchInput.sessionId` (else the assistant names it). */
  takesSessionId: boolean;
  launch(input: LaunchInput): Launch;
  commandFiles(ctx: CommandContext): CommandFile[];
  /**
   * The variables it sets for the shells it runs, never for itself (checked in the shipped
   * programs, ASSISTANTS.md): with one set, nobody at a terminal typed the command, and the
   * nearest parent process without them is the assistant (services/assistant-process.ts).
   */
  shellMarkers: readonly string[];
  /** Whether `env` is one of its tool shells', and the session id it tells there (one of the record's format, or null). */
  shellSession(env: Readonly<Record<string, string | undefined>>): { sessionId: string | null } | null;
  /** The events its session hooks send as `pantheon hook event <name> <event>`; domain/live-state.ts maps each. */
  hookEvents: readonly string[];
  /**
   * It sends no hook event when the Director declines a permission prompt: live status keeps the
   * session's transcript size as the prompt opens and watches it move (services/live-events.ts).
   */
  declinesSilently: boolean;
  /** The file it reads instead of AGENTS.md, written as an import of AGENTS.md where none stands; null when it reads AGENTS.md. */
  instructionsFile: InstructionsFile | null;
  /**
   * The project paths (files or folders) its installed files live under: a persona's worktree
   * gets a copy of each even when they are not committed (services/persona-worktree.ts).
   */
  projectPaths: readonly string[];
  /** Where it reads a project's MCP servers, and the entry that runs `command` (`init --mcp`). */
  mcpConfig(command: readonly string[]): McpConfig;
}

/** An assistant's own instructions file (`CLAUDE.md`), which Pantheon writes only where none stands. */
export interface InstructionsFile {
  path: string;
  content: string;
  /** How the user's file is named in the warning when it does not import AGENTS.md (`Claude`). */
  reader: string;
}

/**
 * The variables every launch sets. Names must never contain KEY, TOKEN, SECRET or AUTH: codex and
 * gemini strip such variables from the environment of the shells they run.
 */
export function missionEnv(
  input: Pick<LaunchInput, "missionHandle" | "liveId" | "pantheonDir" | "parentEnv">,
): Record<string, string> {
  const path = sessionPath(input);
  return { PANTHEON_MISSION: input.missionHandle, PANTHEON_LIVE: input.liveId, ...(path ? { PATH: path } : {}) };
}

/** The session's PATH: the folder of this very Pantheon first, then summon's own; null without that folder. */
export function sessionPath(input: Pick<LaunchInput, "pantheonDir" | "parentEnv">): string | null {
  if (!input.pantheonDir) return null;
  const rest = input.parentEnv.PATH;
  return rest ? `${input.pantheonDir}${delimiter}${rest}` : input.pantheonDir;
}

/**
 * The most persona text an adapter passes inside one argument. Linux refuses any single argument
 * or variable over 128 KiB (E2BIG) and the whole of them over about 2 MiB; past this bound the
 * text stays in its file and the argument only points at it.
 */
export const INLINE_LIMIT_BYTES = 64 * 1024;

export function fitsInline(text: string): boolean {
  return Buffer.byteLength(text, "utf8") <= INLINE_LIMIT_BYTES;
}

/** The assistants run in other working directories than ours, so paths must not be relative. */
export function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(path);
}

/**
 * A session id an assistant tells its shells, as the mission keeps it for `summon --resume`: only
 * one of the record's format (never an option), else null.
 */
export function shellSessionId(value: string | undefined): string | null {
  return value && SESSION_ID.test(value) ? value : null;
}
