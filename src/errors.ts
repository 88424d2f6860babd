/**
 * Every failure Pantheon reports is one of these classes: a stable `code` (for `--json` and
 * scripts), an exit code (DESIGN §4.3), a one-line message and a hint naming the command that
 * would help. Only `cli/exit-code.ts` turns them into process exit codes.
 */
export type ExitCode = 1 | 2 | 3 | 130;

export class PantheonError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown>;
  constructor(code: string, exitCode: ExitCode, message: string, hint?: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.hint = hint;
    this.data = data;
  }
}

/** A bad flag, value, id form or config file: exit 2. */
export class UsageError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_USAGE", 2, message, hint, data);
  }
}

/** A record that does not exist: exit 1. */
export class NotFoundError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_NOT_FOUND", 1, message, hint, data);
  }
}

/** A transition or action the state table refuses: exit 1. */
export class InvalidTransitionError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_INVALID_TRANSITION", 1, message, hint, data);
  }
}

/** A domain rule other than a transition (a cycle, a taken persona name...): exit 1. */
export class ConflictError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_CONFLICT", 1, message, hint, data);
  }
}

/**
 * A mutation named a record by a number that a sync gave to another record (this clone's own
 * record was renumbered): refused unless repeated with --force (DESIGN §1.2). Exit 1.
 */
export class RenumberedError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_RENUMBERED", 1, message, hint, data);
  }
}

/** A record on the ref that is not valid JSON or fails its schema. */
export class CorruptRecordError extends PantheonError {
  constructor(readonly path: string, readonly commit: string | null, detail: string) {
    super(
      "E_CORRUPT_RECORD",
      1,
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
      1,
      `The coordination state has schemaVersion ${found}; this pantheon understands up to ${supported}`,
      "upgrade pantheon (npm install -g pantheon@latest) before using this repository",
      { found, supported },
    );
  }
}

/** Not inside a git repository, or no coordination state yet. */
export class RepositoryError extends PantheonError {
  constructor(code: "E_NOT_A_REPO" | "E_NOT_INITIALIZED" | "E_GIT" | "E_CORRUPT_RECORD", message: string, hint?: string) {
    super(code, 1, message, hint);
  }
}

/**
 * A repository whose on-disk format Pantheon does not implement (SHA-256 objects, reftable
 * refs, an extension it does not know): refused before anything is written.
 */
export class UnsupportedRepositoryError extends PantheonError {
  constructor(key: string, value: string, why: string, data: Record<string, unknown> = {}, hint?: string) {
    super(
      "E_UNSUPPORTED_REPOSITORY",
      1,
      `This repository sets ${key} = ${value} (${why}), which Pantheon cannot honour, so it does not use this repository (nothing was written)`,
      hint ?? "pantheon doctor lists what this repository uses; Pantheon needs a SHA-1 repository with the files ref backend (git init --object-format=sha1)",
      { key, value, ...data },
    );
  }
}

/** Lost the compare-and-swap race for longer than the retry budget: exit 3. */
export class ContentionError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_CONTENTION", 3, message, hint, data);
  }
}

/** The ref's lock file is held (possibly left behind by a killed process): exit 3. */
export class LockedError extends PantheonError {
  constructor(readonly lockPath: string, readonly ageMs: number) {
    super(
      "E_LOCKED",
      3,
      `Unable to lock '${lockPath}': file exists (${formatAge(ageMs)} old). Another pantheon or git process seems to be running; if none is, a process was killed while writing`,
      "pantheon doctor --break-lock",
      { lockPath, ageMs },
    );
  }
}

/** Sync could not complete (transport error, remote kept moving). */
export class SyncError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_SYNC", 3, message, hint, data);
  }
}

/** The remote's state and this clone's share no history this clone can see (DESIGN §3.2): exit 3, nothing merged. */
export class NoMergeBaseError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_NO_MERGE_BASE", 3, message, hint, data);
  }
}

/** The remote's new tip does not contain the last tip this clone synced with it (DESIGN §3.2): exit 3 until `sync --accept-rewrite`. */
export class RemoteRewrittenError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_REMOTE_REWRITTEN", 3, message, hint, data);
  }
}

/**
 * `init` would start a second, unrelated state while the project's `.pantheon/` is committed and
 * no reachable remote has its state (DESIGN §3.5): exit 3 unless `--new-state`.
 */
export class ForkRefusedError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_WOULD_FORK", 3, message, hint, data);
  }
}

/** The person pressed Ctrl-C in a prompt. */
export class CancelledError extends PantheonError {
  constructor() {
    super("E_CANCELLED", 130, "Cancelled", undefined);
  }
}

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  return `${Math.round(m / 60)} h`;
}
