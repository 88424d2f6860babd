/**
 * The files of `<commondir>/pantheon/live/` (summon records, live states, the hook's log), read and
 * written without following symbolic links. Whoever may write the git dir may write this folder,
 * and that includes a persona in its sandbox (codex gets `pantheon/` as a writable root), while
 * `summon` and the session hooks that write here may run outside it: a link planted here must
 * never make Pantheon write, truncate or remove a file elsewhere, nor read a FIFO or a device.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

// Windows has neither flag (nor symbolic links an unprivileged process can plant).
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** The most a live file or summon record is read: each is a few hundred bytes. */
export const LIVE_FILE_LIMIT = 64 * 1024;

export function liveDir(commonDir: string): string {
  return join(commonDir, "pantheon", "live");
}

/**
 * The live folder when it is a real folder, else null. With `make` (summon, the folder's owner),
 * a missing folder is made and anything else standing in its place, a link to a folder
 * elsewhere included, is replaced by one (removing a link never touches its target).
 */
export function liveDirReady(commonDir: string, make: boolean): string | null {
  const dir = liveDir(commonDir);
  try {
    if (lstatSync(dir).isDirectory()) return dir;
    if (!make) return null;
    unlinkSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT" || !make) return null;
  }
  mkdirSync(join(commonDir, "pantheon"), { recursive: true });
  mkdirSync(dir);
  return dir;
}

/** A regular file's text and permission bits, never through a link, up to LIVE_FILE_LIMIT bytes; throws otherwise. */
export function readLiveText(path: string): { text: string; mode: number } {
  // O_NONBLOCK: a FIFO planted here must not hold the reader up (it is refused below).
  const fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > LIVE_FILE_LIMIT) throw new Error(`${path} is not a live file`);
    const buf = Buffer.alloc(st.size);
    let got = 0;
    for (let n = -1; got < buf.length && n !== 0; got += n) n = readSync(fd, buf, got, buf.length - got, got);
    return { text: buf.subarray(0, got).toString("utf8"), mode: st.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

let written = 0;

/**
 * Replaces `dir/name` with `text`, atomically: a new temporary file (created exclusively, never
 * through a link standing at its name), then a rename, which replaces a link at `name` rather
 * than writing through it. `mode`: the exact bits (core.sharedRepository's, as the record's).
 */
export function replaceLiveFile(dir: string, name: string, text: string, mode?: number): void {
  const path = join(dir, name);
  // Created exclusively, so a name planted beforehand makes the write fail, never go elsewhere;
  // the time and a counter keep a killed writer's leftover (same pid, later) out of the way.
  const tmp = `${path}.tmp-${process.pid}-${Date.now().toString(36)}-${++written}`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o666);
  try {
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // renamed already, or never there
    }
    throw e;
  }
}

/** Appends a line to a log in the live folder, emptied first past `limit` bytes; never through a link. */
export function appendLiveLog(dir: string, name: string, line: string, limit: number): void {
  const fd = openSync(
    join(dir, name),
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK,
    0o666,
  );
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return;
    if (st.size > limit) ftruncateSync(fd, 0);
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}
