import {
  closeSync,
  fstatSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { formatAge, SyncError } from "../../errors.js";
import { diskFullAt, diskFullHint, isDiskFull } from "../git/disk-full.js";
import { faultPoint } from "../git/ref-cas.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "../git/shared-perm.js";
import type { StaleSyncLock, SyncLock } from "../store.js";
import { currentOwner, ownerGone, parseOwner, type LockOwner } from "./lock-owner.js";

/**
 * One `pantheon sync` at a time per clone: two at once race on the tracking ref (git refuses
 * the second fetch's ref update) and on the last synced tips. The lock is git's protocol, a file
 * created exclusively (`<commondir>/pantheon/sync.lock`); a second sync waits for it within a
 * budget. The lock names its holder (lock-owner.ts): one that names a process of this host that
 * is gone (a sync killed with SIGKILL) is taken over at once. Otherwise it is judged stale by
 * age (an earlier version's lock, a holder on another host); the holder touches it between
 * steps, so a long sync is not mistaken for a dead one.
 */
export const SYNC_WAIT_MS = 30_000;
export const SYNC_STALE_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function create(path: string): number | null {
  try {
    return openSync(path, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw lockFailure(path, err);
  }
}

/** A full disk is said as such (a lock that cannot be written is no permissions problem). */
function lockFailure(path: string, err: unknown): unknown {
  if (!isDiskFull(err)) return err;
  return new SyncError(`Cannot take the sync lock ${path}: ${diskFullAt(dirname(path))}`, diskFullHint(dirname(path)), {
    lockPath: path,
    diskFull: true,
  });
}

/** Names this process in the lock it created; a lock that cannot be written is removed, never left empty. */
function writeOwner(fd: number, path: string): void {
  try {
    writeSync(fd, `${JSON.stringify(currentOwner())}\n`);
  } catch (err) {
    closeSync(fd);
    unlinkSync(path);
    throw lockFailure(path, err);
  }
  closeSync(fd);
}

const lockPath = (commonDir: string) => join(commonDir, "pantheon", "sync.lock");

/** The lock's inode, age and owner, read through one descriptor (so the three describe one file); null when absent. */
function inspect(path: string): { ino: number; ageMs: number; owner: LockOwner | null } | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return {
      ino: st.ino,
      ageMs: Math.max(0, Date.now() - st.mtimeMs),
      owner: parseOwner(buf.subarray(0, n).toString("utf8")),
    };
  } finally {
    closeSync(fd);
  }
}

/** The lock when it names a process of this host that is gone (doctor reports it), else null. */
export function staleSyncLock(commonDir: string): StaleSyncLock | null {
  const path = lockPath(commonDir);
  const held = inspect(path);
  if (!held?.owner || !ownerGone(held.owner)) return null;
  return { path, pid: held.owner.pid, ageMs: held.ageMs };
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
  const path = lockPath(commonDir);
  const waitMs = o.waitMs ?? SYNC_WAIT_MS;
  const staleMs = o.staleMs ?? SYNC_STALE_MS;
  // With core.sharedRepository, every member of the group must be able to take the lock here.
  mkdirShared(dir, sharedPermOf(commonDir));
  const started = Date.now();
  for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
    const fd = create(path);
    if (fd !== null) {
      writeOwner(fd, path);
      adjustSharedPerm(path, sharedPermOf(commonDir));
      const ino = statSync(path).ino;
      // Tests kill a sync here, holding the lock (test/e2e/sync-lock.serial.test.ts).
      await faultPoint("holding-sync-lock");
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
    const held = inspect(path);
    if (!held) continue; // released between our attempt and the read
    if (held.ageMs > staleMs || (held.owner && ownerGone(held.owner))) {
      breakStale(path, held.ino);
      continue;
    }
    if (Date.now() - started >= waitMs) {
      const who = held.owner ? `, held by process ${held.owner.pid} on ${held.owner.host}` : "";
      throw new SyncError(
        `Another pantheon sync is running in this clone (${path} is ${formatAge(held.ageMs)} old${who}); waited ${formatAge(Date.now() - started)}`,
        `run pantheon sync again when it ends; if no sync is running, remove ${path}`,
        { lockPath: path, ageMs: held.ageMs },
      );
    }
    await sleep(delay * (0.5 + Math.random()));
  }
}
