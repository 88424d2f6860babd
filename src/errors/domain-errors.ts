import { PantheonError } from "./pantheon-error.js";

/** A bad flag, value, id form or config file: exit 2. */
export class UsageError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_USAGE", message, hint, data);
  }
}

/** A record that does not exist: exit 1. */
export class NotFoundError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_NOT_FOUND", message, hint, data);
  }
}

/** A transition or action the state table refuses: exit 1. */
export class InvalidTransitionError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_INVALID_TRANSITION", message, hint, data);
  }
}

/** A domain rule other than a transition (a cycle, a taken persona name...): exit 1. */
export class ConflictError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_CONFLICT", message, hint, data);
  }
}

/**
 * Closing a task as COMPLETE (or approving the review that completes it) while some of its
 * acceptance criteria are unchecked, without a terminal to confirm it or `--force`: exit 1.
 */
export class OpenCriteriaError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_OPEN_CRITERIA", message, hint, data);
  }
}

/**
 * A mutation named a record by a number that a sync gave to another record (this clone's own
 * record was renumbered): refused unless repeated with --force (DESIGN §1.2). Exit 1.
 */
export class RenumberedError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_RENUMBERED", message, hint, data);
  }
}

/**
 * A value refused a place in an assistant's argv (DESIGN §5, "no value from a record becomes an
 * option"): it could be read as an option, holds a NUL or a control character, or is too long for
 * one argument. Records are checked on read before they get here; this is the last gate. Exit 1.
 */
export class UnsafeArgumentError extends PantheonError {
  constructor(what: string, value: string, why: string) {
    super(
      "E_UNSAFE_ARGUMENT",
      `Refused to pass ${what} ${JSON.stringify(value.length > 80 ? `${value.slice(0, 79)}…` : value)} to the assistant: ${why}`,
      "pantheon doctor (a record's value is written by anyone who can push the state); check the value you gave",
      { what, why },
    );
  }
}

/** A record on the ref that is not valid JSON or fails its schema. */
export class CorruptRecordError extends PantheonError {
  constructor(
    readonly path: string,
    readonly commit: string | null,
    detail: string,
  ) {
    super(
      "E_CORRUPT_RECORD",
      `Record ${path} at ${commit ? commit.slice(0, 12) : "the working state"} is corrupt: ${detail}`,
      "pantheon doctor",
      { path, commit, detail },
    );
  }
}

/** The state was written by a newer Pantheon. */
export class SchemaVersionError extends PantheonError {
  constructor(found: number, supported: number) {
    super(
      "E_SCHEMA_VERSION",
      `The coordination state has schemaVersion ${found}; this pantheon understands up to ${supported}`,
      // Not from the npm registry: its package named pantheon is someone else's.
      "upgrade pantheon before using this repository: git pull && npm ci in the clone it was installed from",
      { found, supported },
    );
  }
}
