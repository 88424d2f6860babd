import { PantheonError, QuietExit } from "./pantheon-error.js";

/** The person pressed Ctrl-C in a prompt. */
export class CancelledError extends PantheonError {
  constructor() {
    super("E_CANCELLED", "Cancelled", undefined);
  }
}

/** Doctor found something wrong: exit 1 after printing the report (stdout keeps the result). */
export class DoctorFoundProblems extends PantheonError {
  constructor(count: number) {
    super(
      "E_DOCTOR",
      `doctor found ${count} problem${count === 1 ? "" : "s"}`,
      "pantheon doctor --fix repairs what is marked fixable",
    );
  }
}

/** `doctor --recover` without a commit and no terminal: the candidates are the result, the ref is still broken (or lacks a lost tip's commits). */
export class RecoveryNeedsChoice extends PantheonError {
  constructor(newest: string, healthy = false) {
    super(
      "E_RECOVERY_CHOICE",
      healthy
        ? "refs/coordination/main lacks commits a reflog names: choose the state to merge back"
        : "refs/coordination/main is missing or damaged: choose the state to restore",
      healthy
        ? `pantheon doctor --recover ${newest.slice(0, 12)} (merges it back, keeping everything the ref holds; the list is above)`
        : `pantheon doctor --recover ${newest.slice(0, 12)} (the newest complete state; the list is above)`,
    );
  }
}

/** Not an error: the watch ended by Ctrl-C; main() exits 0 with nothing more to print. */
export class WatchEnded extends QuietExit {
  override readonly name = "WatchEnded";
  readonly exitCode = 0;
}

/**
 * The reader of stdout has gone (`pantheon task list | head -1`). Not a failure: the command did
 * its work and the reader took what it wanted, so main() ends quietly with exit 0. (git dies of
 * SIGPIPE instead, 141; with `set -o pipefail` that fails a script whose mutation succeeded.)
 */
export class OutputClosed extends QuietExit {
  override readonly name = "OutputClosed";
  readonly exitCode = 0;
}

/** The assistant's exit code becomes pantheon's (DESIGN §4.3): not an error of pantheon's. */
export class AssistantExit extends QuietExit {
  override readonly name = "AssistantExit";
  constructor(readonly code: number) {
    super(`assistant exited with code ${code}`);
  }
  get exitCode(): number {
    return this.code;
  }
}
