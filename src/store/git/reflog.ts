/**
 * The state ref's reflog (DESIGN §2.3): every update of refs/coordination/main is appended to
 * `logs/refs/coordination/main` in git's own format, so `git reflog refs/coordination/main`
 * shows it, `git gc` keeps the commits it names, and a deleted or damaged ref can be restored
 * (`pantheon doctor --recover`). `git update-ref -d` deletes a ref's reflog together with the
 * ref, so the same lines also go to `<commondir>/pantheon/reflog`, which git never touches: the
 * candidates for a recovery survive the very accident they are for.
 */
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync, writeSync, renameSync } from "node:fs";
import { join } from "node:path";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "./shared-perm.js";

export const ZERO_OID = "0".repeat(40);

/** Pantheon's copy is trimmed to its newest lines past this size (git's own reflog is gc's to expire). */
const MAX_COPY_BYTES = 1 << 20;
const KEEP_LINES = 4000;

export interface ReflogEntry {
  old: string;
  next: string;
  /** "Name <email>" */
  who: string;
  /** Seconds since the epoch. */
  time: number;
  tz: string;
  message: string;
}

export function gitReflogPath(commonDir: string, ref: string): string {
  return join(commonDir, "logs", ...ref.split("/"));
}

export function pantheonReflogPath(commonDir: string): string {
  return join(commonDir, "pantheon", "reflog");
}

/**
 * git's copy_reflog_msg (whitespace runs become one space, leading and trailing ones go), and
 * control characters too: a summary quotes record titles, and `git reflog` prints it raw.
 */
export function reflogMessage(text: string): string {
  return text.replace(/[\s\x00-\x1f\x7f]+/g, " ").trim();
}

/** "+HHMM" / "-HHMM" from minutes east of UTC. */
export function tzString(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

/** One line, exactly as refs/files-backend.c writes it. */
export function formatReflogLine(e: ReflogEntry): string {
  return `${e.old} ${e.next} ${e.who} ${e.time} ${e.tz}\t${reflogMessage(e.message)}\n`;
}

const LINE = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.*) (\d+) ([+-]\d{4})\t?(.*)$/;

export function parseReflog(text: string): ReflogEntry[] {
  const out: ReflogEntry[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (m) out.push({ old: m[1]!, next: m[2]!, who: m[3]!, time: Number(m[4]), tz: m[5]!, message: m[6]! });
  }
  return out;
}

/**
 * Appends the update to git's reflog and to Pantheon's copy. Called while holding the ref's
 * lock, before the rename, as git does: a reflog that cannot be written fails the update (git's
 * rule), Pantheon's copy never does.
 */
export function appendReflog(commonDir: string, ref: string, entry: ReflogEntry): void {
  const line = formatReflogLine(entry);
  appendCreating(commonDir, gitReflogPath(commonDir, ref), line);
  try {
    const copy = pantheonReflogPath(commonDir);
    appendCreating(commonDir, copy, line);
    if (statSync(copy).size > MAX_COPY_BYTES) trim(commonDir, copy);
  } catch {
    // the copy is a second chance, not a requirement
  }
}

/** Creates the reflog with its first line (doctor --fix on a ref made before reflogs were kept). */
export function startReflog(commonDir: string, ref: string, entry: ReflogEntry): boolean {
  if (existsSync(gitReflogPath(commonDir, ref))) return false;
  appendReflog(commonDir, ref, entry);
  return true;
}

function appendCreating(commonDir: string, path: string, text: string): void {
  const perm = sharedPermOf(commonDir);
  let fd: number;
  let created = false;
  try {
    fd = openSync(path, "wx", 0o666);
    created = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") fd = openSync(path, "a");
    else if (code === "ENOENT") {
      ensureParentDir(commonDir, path);
      return appendCreating(commonDir, path, text);
    } else throw err;
  }
  try {
    // O_APPEND: concurrent appends (git's own update-ref holds the same lock) land whole.
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  if (created) adjustSharedPerm(path, perm);
}

function trim(commonDir: string, path: string): void {
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${lines.slice(-KEEP_LINES).join("\n")}\n`);
  adjustSharedPerm(tmp, sharedPermOf(commonDir));
  renameSync(tmp, path);
}

/** Both logs' entries (git's, then the copy's), for recovery; unreadable files give nothing. */
export function readReflogs(commonDir: string, ref: string): { git: ReflogEntry[] | null; copy: ReflogEntry[] } {
  const read = (p: string) => {
    try {
      return parseReflog(readFileSync(p, "utf8"));
    } catch {
      return null;
    }
  };
  return { git: read(gitReflogPath(commonDir, ref)), copy: read(pantheonReflogPath(commonDir)) ?? [] };
}
