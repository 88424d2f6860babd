/**
 * The summon record (DESIGN §5): `<commondir>/pantheon/live/<mission uid>.json`, written by the
 * `summon` process that runs a persona's assistant and removed when it ends the mission. It
 * names that process (host, pid and the process's start time, so that a reused pid is not taken
 * for it), which lets the dashboard and `doctor` see that a mission's summon is gone without
 * having ended it. A mission started inside a running assistant (`/summon`, `mission start`)
 * gets the same record naming that assistant's process (`startedBy: "mission start"`), and the
 * next command of this clone ends it once that process is gone. It is local to this clone, never
 * committed: another clone's missions have none and are never judged by it.
 */
import { readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Mission } from "../../domain/schemas/mission.js";
import { liveDir, liveDirReady, readLiveText, replaceLiveFile } from "./live-files.js";

export { liveDir } from "./live-files.js";

export interface SummonRecord {
  mission: string;
  uid: string;
  host: string;
  pid: number;
  /** The process's start time as the OS tells it (Linux: clock ticks since boot), or null when unknown. */
  processStart: string | null;
  /**
   * The PID namespace the pid belongs to (Linux: `pid:[4026531836]`), or null when unknown. A
   * command in another one (codex's sandbox) sees other pids and judges no record by them.
   */
  pidNamespace?: string | null;
  /** Who wrote it: `summon` (absent in older records), or `mission start` inside an assistant. */
  startedBy?: "summon" | "mission start";
  assistant: string;
  /** The persona's name, for the desktop notification the session hooks send. */
  persona?: string;
  sessionId: string | null;
  /** When summon started the assistant (ISO-8601). */
  since: string;
}

function recordName(uid: string): string {
  // The uid is ours (hex), but a record from elsewhere must never name a path outside the folder.
  return `${uid.replace(/[^A-Za-z0-9_-]/g, "_")}.json`;
}

/**
 * The start time of a process, from `/proc/<pid>/stat` (field 22). Null where there is no
 * /proc (macOS, Windows): there only the pid is compared.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may contain spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** This process's PID namespace (Linux), or null where there is none to read. */
export function pidNamespace(): string | null {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return null;
  }
}

/**
 * Writes the record of the process that runs a mission's session (atomically, never through a
 * link): this process (summon), or the assistant a mission was started inside (`process`).
 */
export function writeSummonRecord(
  commonDir: string,
  m: Pick<Mission, "uid">,
  fields: Omit<SummonRecord, "uid" | "host" | "pid" | "processStart" | "pidNamespace">,
  proc: { pid: number; processStart: string | null } = {
    pid: process.pid,
    processStart: processStartTime(process.pid),
  },
): SummonRecord {
  const record: SummonRecord = {
    ...fields,
    uid: m.uid,
    host: hostname(),
    pid: proc.pid,
    processStart: proc.processStart,
    pidNamespace: pidNamespace(),
  };
  // A link planted in place of the folder is replaced by a folder: nothing is written through it.
  const dir = liveDirReady(commonDir, true)!;
  replaceLiveFile(dir, recordName(m.uid), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/**
 * Removes a mission's summon record. The live file its session hooks kept beside it stays (its
 * last state, `ended`, and how it got there) until the next summon sweeps ENDED missions' files.
 */
export function removeSummonRecord(commonDir: string, uid: string): void {
  // Not through a link standing for the folder: that would remove a file elsewhere.
  const dir = liveDirReady(commonDir, false);
  if (dir) rmSync(join(dir, recordName(uid)), { force: true });
}

/** Every readable record of this clone, by mission uid; unreadable files are skipped. */
export function readSummonRecords(commonDir: string): Map<string, SummonRecord> {
  const out = new Map<string, SummonRecord>();
  let names: string[];
  try {
    names = readdirSync(liveDir(commonDir));
  } catch {
    return out;
  }
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    try {
      const r = JSON.parse(readLiveText(join(liveDir(commonDir), name)).text) as SummonRecord;
      if (typeof r.uid === "string" && typeof r.pid === "number" && typeof r.host === "string") out.set(r.uid, r);
    } catch {
      // A torn or foreign file: not a record.
    }
  }
  return out;
}

/**
 * Whether the process a record names is still running here. A record from another host, or
 * from another PID namespace than this command's (a command inside codex's sandbox sees its own
 * pids), is never judged: its process cannot be seen from here, so it counts as alive.
 */
export function summonAlive(r: SummonRecord): boolean {
  if (r.host !== hostname()) return true;
  // Records written before namespaces were kept have none: judged as they always were.
  if (r.pidNamespace !== undefined && r.pidNamespace !== pidNamespace()) return true;
  try {
    process.kill(r.pid, 0);
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (r.processStart === null) return true;
  const now = processStartTime(r.pid);
  return now === null || now === r.processStart;
}
