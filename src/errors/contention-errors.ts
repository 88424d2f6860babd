import { PantheonError } from "./pantheon-error.js";

/** Lost the compare-and-swap race for longer than the retry budget: exit 3. */
export class ContentionError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_CONTENTION", message, hint, data);
  }
}

/** The ref's lock file is held (possibly left behind by a killed process): exit 3. */
export class LockedError extends PantheonError {
  constructor(
    readonly lockPath: string,
    readonly ageMs: number,
  ) {
    super(
      "E_LOCKED",
      `Unable to lock '${lockPath}': file exists (${formatAge(ageMs)} old). Another pantheon or git process seems to be running; if none is, a process was killed while writing`,
      "pantheon doctor --break-lock",
      { lockPath, ageMs },
    );
  }
}

/** Sync could not complete (transport error, remote kept moving). */
export class SyncError extends PantheonError {
  constructor(message: string, hint?: string, data: Record<string, unknown> = {}) {
    super("E_SYNC", message, hint, data);
  }
}

/** The remote's state and this clone's share no history this clone can see (DESIGN §3.2): exit 3, nothing merged. */
export class NoMergeBaseError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_NO_MERGE_BASE", message, hint, data);
  }
}

/** The remote's new tip does not contain the last tip this clone synced with it (DESIGN §3.2): exit 3 until `sync --accept-rewrite`. */
export class RemoteRewrittenError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_REMOTE_REWRITTEN", message, hint, data);
  }
}

/**
 * `init` would start a second, unrelated state while the project's `.pantheon/` is committed and
 * no reachable remote has its state (DESIGN §3.5): exit 3 unless `--new-state`.
 */
export class ForkRefusedError extends PantheonError {
  constructor(message: string, hint: string, data: Record<string, unknown> = {}) {
    super("E_WOULD_FORK", message, hint, data);
  }
}

/** An age for a message: seconds, then minutes, then hours. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  return `${Math.round(m / 60)} h`;
}
