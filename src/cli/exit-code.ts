import { PantheonError, QuietExit } from "../errors.js";

/** Commander's own failures are usage errors, except help and version, which succeed. */
interface CommanderLike {
  code: string;
  exitCode: number;
}

function isCommanderError(e: unknown): e is CommanderLike & Error {
  return (
    e instanceof Error &&
    typeof (e as Partial<CommanderLike>).code === "string" &&
    (e as Partial<CommanderLike>).code!.startsWith("commander.")
  );
}

/**
 * The one place an error becomes an exit code (DESIGN §4.3), by type: the catalogue's classes
 * (src/errors.ts) carry theirs. Anything unexpected is 1. A prompt's Ctrl-C reaches here as
 * CancelledError: each prompt turns @inquirer's ExitPromptError into it where it asks.
 */
export function exitCodeFor(e: unknown): number {
  if (e instanceof PantheonError || e instanceof QuietExit) return e.exitCode;
  if (isCommanderError(e)) {
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return 0;
    return 2;
  }
  // Node's readline closed under a prompt (stdin ended): the question was cancelled.
  if (e instanceof Error && (e as NodeJS.ErrnoException).code === "ERR_USE_AFTER_CLOSE") return 130;
  return 1;
}

export { isCommanderError };
