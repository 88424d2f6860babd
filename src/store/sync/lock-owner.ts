import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Who holds the sync lock: the process that created it, named by host, pid and the process's
 * start time (as the summon record names its process), so that a pid the system reused for
 * another process is not taken for the holder. Written into the lock as one line of JSON.
 */
export interface LockOwner {
  host: string;
  pid: number;
  /** The start time the OS gives (Linux: clock ticks since boot), or null where it cannot tell. */
  start: string | null;
}

/** A process's state (field 3) and start time (field 22) from `/proc/<pid>/stat`; null without /proc or when it is gone. */
function procStat(pid: number): { state: string; start: string | null } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", start: fields[19] ?? null };
  } catch {
    return null;
  }
}

export function currentOwner(): LockOwner {
  return { host: hostname(), pid: process.pid, start: procStat(process.pid)?.start ?? null };
}

/** The owner a lock's text names, or null (empty while its creator is still writing it, or an earlier version's bare pid). */
export function parseOwner(text: string): LockOwner | null {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.host !== "string" || !Number.isSafeInteger(o.pid) || (o.pid as number) <= 0) return null;
    return { host: o.host, pid: o.pid as number, start: typeof o.start === "string" ? o.start : null };
  } catch {
    return null;
  }
}

/**
 * Whether the owner is certainly gone: a process of this host that no longer runs, or whose pid
 * now belongs to a process started at another time. A process of another host (a common dir on
 * a network file system) cannot be seen from here and is never judged gone.
 */
export function ownerGone(o: LockOwner): boolean {
  if (o.host !== hostname()) return false;
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    // EPERM: it runs, as another user (a shared repository).
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
  const now = procStat(o.pid);
  // A zombie (killed, not yet reaped by its parent) still answers kill(0) but holds nothing.
  if (now?.state === "Z") return true;
  return o.start !== null && now?.start != null && now.start !== o.start;
}
