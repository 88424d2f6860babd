/**
 * The formats of record fields that leave Pantheon for a place that parses them: an assistant's
 * argv (session ids, assistant names), a git argument or a working directory (worktree path,
 * branch, commit ids), an environment variable or a file name (uids), a prompt (timestamps a
 * kickoff quotes). Anyone who can push the ref writes every record, so the schemas check these
 * formats when a record is read as well as before it is written: a record that fails is corrupt
 * (DESIGN §2.1). No format here admits a value that begins with "-" (an option to any parser).
 * Kept free of zod so that the hook's fast path can use them without loading it.
 */

/**
 * An assistant's own session id (DESIGN §5): a UUID for claude and gemini, codex's thread ids,
 * opencode's `ses_…`. It becomes the value of `--resume`/`--session` or a positional of
 * `codex resume`, so it starts with a letter or a digit.
 */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * An assistant's name as a record keeps it: a lowercase word. The known names are checked where
 * one is started (assistants/registry.ts): a name a newer version knows keeps its record readable.
 */
export const ASSISTANT_WORD = /^[a-z][a-z0-9-]{0,31}$/;

/** A model name as `summon --model` passes it (`opus`, `gpt-5-codex`, `anthropic/claude-sonnet-4-5`). */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;

/** A record's uid: 32 hex digits as made here; it names the live files and PANTHEON_LIVE. */
export const RECORD_UID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$/;

/** A full git object id (SHA-1, or SHA-256 for a repository git made with it). */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** ISO-8601 as Date.toISOString writes it (a date alone is accepted, as older imports had). */
export const TIMESTAMP = /^[+-]?\d{4,6}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A persona theme's name: the file `templates/themes/<name>.yaml`. */
export const THEME_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/**
 * A branch Pantheon makes or removes for a persona's worktree: letters, digits and `._/-`, not
 * `..`, not ending in `/` or `.lock` (git refuses those), at most 100 characters.
 */
export function isBranchName(branch: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(branch) &&
    !branch.includes("..") &&
    !branch.includes("//") &&
    !branch.endsWith(".lock") &&
    !branch.endsWith("/")
  );
}

// C0 and C1 controls and DEL: a path with one cannot be printed or passed on safely.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * An absolute path (a persona's worktree): it becomes a working directory and an assistant's
 * project argument, so it is absolute (`/…`, or `C:\…` on Windows), at most 4,096 characters,
 * without control characters.
 */
export function isAbsolutePath(path: string): boolean {
  return path.length <= 4096 && (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) && !CONTROL.test(path);
}
