import { statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";

/**
 * A full disk (ENOSPC) or a used-up quota (EDQUOT) is said as such, with where: a write that
 * fails for lack of space is neither a permissions problem nor the remote's fault, and the fix
 * (free space on that file system) is the user's to make. git reports it in words on stderr.
 */
const FULL_TEXT = /No space left on device|Disk quota exceeded|\bENOSPC\b|\bEDQUOT\b/i;

/** Whether an error (Node's errno code) or git's stderr says the disk or the quota is full. */
export function isDiskFull(e: unknown): boolean {
  if (typeof e === "string") return FULL_TEXT.test(e);
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" || (e instanceof Error && FULL_TEXT.test(e.message));
}

/** The mount point of the file system holding `path`: the last ancestor on the same device. */
function mountPoint(path: string): string {
  let dir = path;
  try {
    const dev = statSync(dir).dev;
    for (let up = dirname(dir); up !== dir && statSync(up).dev === dev; up = dirname(up)) dir = up;
  } catch {
    // an ancestor we cannot stat: the deepest one we could is as close as we get
  }
  return dir;
}

function freeSpace(path: string): string | null {
  try {
    const s = statfsSync(path);
    const free = s.bavail * s.bsize;
    return free < 1024 * 1024 ? `${Math.floor(free / 1024)} KiB free` : `${(free / (1024 * 1024)).toFixed(1)} MiB free`;
  } catch {
    return null;
  }
}

/**
 * "the disk is full (or your quota is used up) where <path> lives: the file system mounted at
 * <mount>, 12 KiB free" — what a message about a write that found no space says.
 */
export function diskFullAt(path: string): string {
  const free = freeSpace(path);
  return `the disk is full (or the disk quota is used up) where ${path} is: the file system mounted at ${mountPoint(path)}${free ? `, ${free}` : ""}`;
}

/** The hint of every such message: free space there, then run the command again. */
export function diskFullHint(path: string): string {
  return `free space on that file system (df -h ${mountPoint(path)}), then run the command again`;
}
