import { PantheonError } from "../errors.js";

/** Commander's own failures are usage errors, except help and version, which succeed. */
interface CommanderLike {
  code: string;
  exitCode: number;
}

function isCommanderError(e: unknown): e is CommanderLike & Error {
  return e instanceof Error && typeof (e as Partial<CommanderLike>).code === "string" && (e as Partial<CommanderLike>).code!.startsWith("commander.");
}

/** The one place an error becomes an exit code (DESIGN §4.3). Anything unexpected is 1. */
export function exitCodeFor(e: unknown): number {
  if (e instanceof PantheonError) return e.exitCode;
  if (e instanceof Error && e.name === "WatchEnded") return 0;
  if (e instanceof Error && e.name === "OutputClosed") return 0; // the reader of stdout left: see cli/io.ts
  if (e instanceof Error && e.name === "AssistantExit") return (e as unknown as { code: number }).code;
  if (isCommanderError(e)) {
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return 0;
    return 2;
  }
  if (e instanceof Error && (e as NodeJS.ErrnoException).code === "ERR_USE_AFTER_CLOSE") return 130;
  if (e instanceof Error && e.name === "ExitPromptError") return 130;
  return 1;
}

export { isCommanderError };
