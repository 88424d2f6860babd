import { UsageError } from "../errors.js";
import { PRIORITY_LETTERS, priorityForLetter, type Priority } from "./priority.js";
import { ROLE_CODES, roleForCode, type TaskRole } from "./roles.js";

/** Numbers are zero-padded to a width and grow past it (`ENG-H-10000`, `RVW-1000`). */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

export function taskId(t: { role: TaskRole; priority: Priority; number: number }): string {
  return `${ROLE_CODES[t.role]}-${PRIORITY_LETTERS[t.priority]}-${pad(t.number, 4)}`;
}
export function epicId(e: { priority: Priority; number: number }): string {
  return `EPC-${PRIORITY_LETTERS[e.priority]}-${pad(e.number, 4)}`;
}
export function reviewId(n: number): string {
  return `RVW-${pad(n, 3)}`;
}
export function missionId(n: number): string {
  return `MSN-${pad(n, 4)}`;
}

/** A parsed task reference: the number is identity; role and priority are what the caller wrote. */
export interface TaskRef {
  number: number;
  written: string;
  role?: TaskRole;
  priority?: Priority;
}

/** The largest number an id can name; allocation stops here rather than make a record no command can address. */
export const MAX_NUMBER = 1e9;

function parseNumber(digits: string, input: string, what: string): number {
  const n = Number(digits);
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_NUMBER) {
    throw new UsageError(
      `Invalid ${what} id "${printable(input)}": the number must be between 1 and ${MAX_NUMBER}`,
      `list them with: pantheon ${what} list`,
    );
  }
  return n;
}

/** Escapes anything unprintable so an id with a newline or ESC is shown, not obeyed. */
export function printable(s: string): string {
  const cut = s.length > 60 ? `${s.slice(0, 60)}…` : s;
  return JSON.stringify(cut).slice(1, -1);
}

/** `ENG-H-0007`, `eng-m-7`, `7`, `0007` all name task number 7. Anything else is a usage error. */
export function parseTaskRef(input: string): TaskRef {
  const raw = input.trim();
  const bare = /^#?(\d{1,10})$/.exec(raw);
  if (bare) return { number: parseNumber(bare[1]!, input, "task"), written: raw };
  const full = /^([A-Za-z]{3})-([A-Za-z])-(\d{1,10})$/.exec(raw);
  if (full) {
    const role = roleForCode(full[1]!);
    const priority = priorityForLetter(full[2]!);
    if (role && priority)
      return { number: parseNumber(full[3]!, input, "task"), written: raw.toUpperCase(), role, priority };
  }
  throw new UsageError(
    `Invalid task id "${printable(input)}"`,
    "a task id looks like ENG-H-0007 (or just its number, 7); list them with: pantheon task list",
  );
}

/** A parsed epic reference: the number is identity; the letter is what the caller wrote. */
export interface EpicRef {
  number: number;
  written: string;
  priority?: Priority;
}

/** Parses `EPC-H-0001`, `1`, or `EPC-1`. */
export function parseEpicRef(input: string): EpicRef {
  const raw = input.trim();
  const m = /^(?:EPC-(?:([A-Za-z])-)?)?#?(\d{1,10})$/i.exec(raw);
  const priority = m?.[1] ? priorityForLetter(m[1]) : undefined;
  if (!m || (m[1] && !priority))
    throw new UsageError(
      `Invalid epic id "${printable(input)}"`,
      "an epic id looks like EPC-H-0001; list them with: pantheon epic list",
    );
  return { number: parseNumber(m[2]!, input, "epic"), written: raw.toUpperCase(), ...(priority && { priority }) };
}

/** Parses `RVW-001` or `1`. */
export function parseReviewRef(input: string): number {
  const m = /^(?:RVW-)?#?(\d{1,10})$/i.exec(input.trim());
  if (!m)
    throw new UsageError(
      `Invalid review id "${printable(input)}"`,
      "a review id looks like RVW-001; list them with: pantheon review list",
    );
  return parseNumber(m[1]!, input, "review");
}

/** A mission reference: `MSN-0003`, `3`, `silent-phoenix`, or the renumbering-proof `MSN-0003:silent-phoenix`. */
export interface MissionRef {
  number?: number;
  codename?: string;
}

export function parseMissionRef(input: string): MissionRef {
  const raw = input.trim();
  // After a number any word is taken as a codename, so `MSN-0099:typo` is "No mission", not a
  // usage error; alone, a codename must look like one (`silent-phoenix`).
  const m =
    /^(?:MSN-)?#?(\d{1,10})(?:[:/ ]?\(?([a-z][a-z0-9-]{0,40})\)?)?$/i.exec(raw) ??
    /^()\(?([a-z]+-[a-z]+)\)?$/i.exec(raw);
  if (!m || (!m[1] && !m[2])) {
    throw new UsageError(
      `Invalid mission id "${printable(input)}"`,
      "a mission id looks like MSN-0003 or MSN-0003:silent-phoenix; list them with: pantheon mission list",
    );
  }
  const ref: MissionRef = {};
  if (m[1]) ref.number = parseNumber(m[1], input, "mission");
  if (m[2]) ref.codename = m[2].toLowerCase();
  return ref;
}

/** The form a running assistant is given: it still finds the mission after a sync renumbers it. */
export function missionHandle(m: { number: number; codename: string }): string {
  return `${missionId(m.number)}:${m.codename}`;
}
