/**
 * The catalogue: every code a Pantheon error carries, with the exit code it ends a command with
 * (DESIGN §4.3). The code is what `--json` prints and what scripts rely on, so a code is never
 * renamed; docs/errors.md lists each one with its meaning (test/unit/errors-catalogue.test.ts
 * keeps the two in step).
 */
export type ExitCode = 1 | 2 | 3 | 130;

export const ERROR_EXIT_CODES = {
  E_USAGE: 2,
  E_NOT_FOUND: 1,
  E_INVALID_TRANSITION: 1,
  E_CONFLICT: 1,
  E_OPEN_CRITERIA: 1,
  E_RENUMBERED: 1,
  E_CORRUPT_RECORD: 1,
  E_UNSAFE_ARGUMENT: 1,
  E_SCHEMA_VERSION: 1,
  E_NOT_A_REPO: 1,
  E_NOT_INITIALIZED: 1,
  E_STATE_LOST: 1,
  E_UNSUPPORTED_REPOSITORY: 1,
  // What E_GIT used to say, split by what failed; each still starts with "E_GIT_".
  E_GIT_READ_OBJECT: 1,
  E_GIT_CORRUPT_OBJECT: 1,
  E_GIT_WRITE_OBJECT: 1,
  E_GIT_READ_REF: 1,
  E_GIT_REF_UPDATE: 1,
  E_GIT_WORKTREE: 1,
  E_GIT_CLONE_FILE: 1,
  E_GIT_UNAVAILABLE: 1,
  E_CONTENTION: 3,
  E_LOCKED: 3,
  E_SYNC: 3,
  E_NO_MERGE_BASE: 3,
  E_REMOTE_REWRITTEN: 3,
  E_WOULD_FORK: 3,
  E_WEB_ASSETS: 1,
  E_DISK_FULL: 1,
  E_DOCTOR: 1,
  E_RECOVERY_CHOICE: 1,
  E_CANCELLED: 130,
  E_INTERNAL: 1,
} as const satisfies Record<string, ExitCode>;

export type ErrorCode = keyof typeof ERROR_EXIT_CODES;

/** The codes that replaced E_GIT: a git operation inside the store failed. */
export type GitErrorCode = Extract<ErrorCode, `E_GIT_${string}`>;
