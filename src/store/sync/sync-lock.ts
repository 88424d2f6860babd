import { closeSync, linkSync, openSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { join } from "node:path";
import { formatAge, SyncError } from "../../errors.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "../git/shared-perm.js";
import type { SyncLock } from "../store.js";

/**
 * One `pantheon sync` at a time per clone: two at once race on the tracking ref (git refuses
 * the second fetch's ref update) and on the last synced tips. The lock is git's protocol, a file
 * created exclusively (`<commondir>/pantheon/sync.lock`); a second sync waits for it within a
 * budget. A killed sync leaves it behind, so a lock is judged stale by age; the holder touches
 * it between steps, so a long sync is not mistaken for a dead one.
 */
export const SYNC_WAIT_MS = 30_000;
export const SYNC_STALE_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function create(path: string): number | null {
  try {
    return openSync(path, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw err;
  }
}

/** Removes a stale lock without removing a fresh one another process created in between. */
function breakStale(path: string, ino: number): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke it first
  }
  try {
    if (statSync(aside).ino !== ino) linkSync(aside, path); // a live lock: put it back (fails if replaced again)
  } catch {
    // the live lock's holder will find it gone and still release cleanly
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

export async function acquireSyncLock(
  commonDir: string,
  o: { waitMs?: number; staleMs?: number } = {},
): Promise<SyncLock> {
  const dir = join(commonDir, "pantheon");
  const path = join(dir, "sync.lock");
  const waitMs = o.waitMs ?? SYNC_WAIT_MS;
  const staleMs = o.staleMs ?? SYNC_STALE_MS;
  // With core.sharedRepository, every member of the group must be able to take the lock here.
  mkdirShared(dir, sharedPermOf(commonDir));
  const started = Date.now();
  for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
    const fd = create(path);
    if (fd !== null) {
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      adjustSharedPerm(path, sharedPermOf(commonDir));
      const ino = statSync(path).ino;
      const mine = () => {
        try {
          return statSync(path).ino === ino;
        } catch {
          return false;
        }
      };
      // Best effort both: a lock broken as stale meanwhile is someone else's to remove.
      const quietly = (f: () => void) => {
        try {
          if (mine()) f();
        } catch {
          // gone between the check and the call
        }
      };
      return {
        touch: () => quietly(() => utimesSync(path, new Date(), new Date())),
        release: () => quietly(() => unlinkSync(path)),
      };
    }
    let held: { ino: number; ageMs: number } | null = null;
    try {
      const st = statSync(path);
      held = { ino: st.ino, ageMs: Math.max(0, Date.now() - st.mtimeMs) };
    } catch {
      continue; // released between our attempt and the stat
    }
    if (held.ageMs > staleMs) {
      breakStale(path, held.ino);
      continue;
    }
    if (Date.now() - started >= waitMs) {
      throw new SyncError(
        `Another pantheon sync is running in this clone (${path} is ${formatAge(held.ageMs)} old); waited ${formatAge(Date.now() - started)}`,
        `run pantheon sync again when it ends; if no sync is running, remove ${path}`,
        { lockPath: path, ageMs: held.ageMs },
      );
    }
    await sleep(delay * (0.5 + Math.random()));
  }
}
