import { ERROR_EXIT_CODES, type ErrorCode, type ExitCode } from "./error-codes.js";

/**
 * Every failure Pantheon reports is a PantheonError: a stable `code` from the catalogue (for
 * `--json` and scripts), the exit code the catalogue gives it, a one-line message and a hint
 * naming the command that would help. Only `cli/exit-code.ts` turns them into exit codes.
 */
export class PantheonError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, hint?: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = ERROR_EXIT_CODES[code];
    this.hint = hint;
    this.data = data;
  }
}

/**
 * Not a failure: a command ends early with a given exit code and nothing more to print (a watch
 * ended by Ctrl-C, the reader of stdout gone, the assistant's own exit code).
 */
export abstract class QuietExit extends Error {
  abstract readonly exitCode: number;
}
