import type { GitErrorCode } from "./error-codes.js";
import { PantheonError } from "./pantheon-error.js";

/** Not inside a git repository, no coordination state yet, or a git operation that failed. */
export class RepositoryError extends PantheonError {
  constructor(
    code: "E_NOT_A_REPO" | "E_NOT_INITIALIZED" | "E_CORRUPT_RECORD" | GitErrorCode,
    message: string,
    hint?: string,
  ) {
    super(code, message, hint);
  }
}

/**
 * The state ref is missing, but a reflog names a state it held (DESIGN §3.2: deleted by
 * mistake, not a fresh clone): commands refuse rather than adopt a remote's state or start a
 * new one over it, which would leave this clone's unpublished work unreachable.
 */
export class StateLostError extends PantheonError {
  constructor(tip: { commit: string; date: string; summary: string }) {
    super(
      "E_STATE_LOST",
      `refs/coordination/main is missing, but its reflog names the state it held (${tip.commit.slice(0, 12)}, ${tip.date.slice(0, 19).replace("T", " ")}: ${tip.summary}): this clone lost its ref, it is not a fresh clone; nothing was adopted or created`,
      "pantheon doctor --recover (lists the states; pantheon doctor --recover <commit> restores one, and a sync then merges the remote's)",
      { tip: tip.commit },
    );
  }
}

/** A git operation inside the store failed; the code says which kind (docs/errors.md). */
export class GitError extends RepositoryError {
  declare readonly code: GitErrorCode;
  constructor(code: GitErrorCode, message: string, hint?: string) {
    super(code, message, hint);
  }
}

/** A tree of the state over the size a state tree can have: read as a corrupt record. */
export class TreeTooLargeError extends RepositoryError {
  constructor(
    readonly oid: string,
    readonly bytes: number,
    limit: number,
  ) {
    super(
      "E_CORRUPT_RECORD",
      `Tree ${oid.slice(0, 12)} is ${bytes} bytes, over the ${limit}-byte limit for a tree of the state`,
      "pantheon doctor",
    );
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
      `This repository sets ${key} = ${value} (${why}), which Pantheon cannot honour, so it does not use this repository (nothing was written)`,
      hint ??
        "pantheon doctor lists what this repository uses; Pantheon needs a SHA-1 repository with the files ref backend (git init --object-format=sha1)",
      { key, value, ...data },
    );
  }
}

/**
 * core.sharedRepository holds a value git refuses. Never reaches the user as is: the store turns
 * it into an UnsupportedRepositoryError, or a doctor finding.
 */
export class SharedPermError extends Error {
  constructor(
    readonly value: string,
    readonly why: string,
  ) {
    super(`core.sharedRepository = ${value} is not valid: ${why}`);
  }
}
