import { ConflictError, NotFoundError, UsageError } from "../errors.js";
import { escapeChar, UNSAFE_CHARS } from "./control-chars.js";
import type { Criterion } from "./schemas/criterion.js";

// Acceptance criteria of a task (DESIGN §1.3), numbered 1…n on the command line by their place
// in the list. This module has no zod: the read cache and views use it on start-up paths.

/** A criterion is one line of at most this many characters. */
export const MAX_CRITERION = 500;
/** At most this many criteria on a task. */
export const MAX_CRITERIA = 50;
export const CRITERION_ID = /^[A-Za-z0-9_-]{4,64}$/;

// Not the /g table itself: test() on a global regex keeps a position between calls.
const UNSAFE = new RegExp(UNSAFE_CHARS.source);

/** Why a criterion's text is not valid (one line, no control characters, not blank, bounded), or null. */
export function criterionTextProblem(text: string): string | null {
  if (text.trim() === "") return "is blank";
  if (text.length > MAX_CRITERION) return `is ${text.length} characters; the limit is ${MAX_CRITERION}`;
  const bad = UNSAFE.exec(text);
  if (bad) return `holds ${escapeChar(bad[0])}: a criterion is one line of plain text`;
  return null;
}

/** A criterion as written on a command line or in a file; stored exactly (trimmed). */
export function parseCriterionText(input: string, hint: string): string {
  const text = input.trim();
  const problem = criterionTextProblem(text);
  if (problem) throw new UsageError(`The acceptance criterion ${problem}`, hint);
  return text;
}

/** A new, open criterion; its id is random (a sync joins criteria by id), so it comes in. */
export function newCriterion(id: string, text: string, by: string, at: string): Criterion {
  return { id, text, done: false, by, at };
}

/** The criteria not yet checked, with their numbers (1-based places in the list). */
export function openCriteria(list: readonly Criterion[]): Array<{ n: number; criterion: Criterion }> {
  return list.flatMap((criterion, i) => (criterion.done ? [] : [{ n: i + 1, criterion }]));
}

/** `2/3`: checked of all; empty when the task has none. */
export function criteriaProgress(list: readonly Pick<Criterion, "done">[]): string {
  return list.length === 0 ? "" : `${list.filter((c) => c.done).length}/${list.length}`;
}

/** Refuses a list past MAX_CRITERIA (a usage error when the command line alone asks for it). */
export function checkCriteriaCount(count: number, hint: string, o: { given: boolean }): void {
  if (count <= MAX_CRITERIA) return;
  const message = `A task has at most ${MAX_CRITERIA} acceptance criteria; this would make ${count}`;
  throw o.given ? new UsageError(message, hint) : new ConflictError(message, hint);
}

/**
 * The criterion numbered `written` (`2`, `#2`) in a task's list; a number the list does not
 * have is not found (exit 1), anything that is not a number a usage error (exit 2).
 */
export function criterionAt(list: readonly Criterion[], written: string, taskId: string): number {
  const m = /^#?(\d{1,6})$/.exec(written.trim());
  if (!m) throw new UsageError(`"${written.slice(0, 20)}" is not a criterion number`, `pantheon task show ${taskId}`);
  const n = Number(m[1]);
  if (n < 1 || n > list.length) {
    const has = list.length === 0 ? "has no acceptance criteria" : `has ${list.length} (1–${list.length})`;
    throw new NotFoundError(
      `${taskId} has no criterion ${n}: it ${has}`,
      list.length === 0 ? `pantheon task ac ${taskId} "what done means"` : `pantheon task show ${taskId}`,
      { task: taskId, criterion: n, count: list.length },
    );
  }
  return n - 1;
}

/**
 * Checks (done = true) or unchecks criterion `index`; refuses one already in that state, so a
 * persona that checked the wrong number hears about it instead of a silent no-op.
 */
export function markCriterion(
  list: readonly Criterion[],
  index: number,
  done: boolean,
  change: { by: string; at: string },
  taskId: string,
): Criterion[] {
  const c = list[index]!;
  if (c.done === done) {
    const state = done ? "already checked" : "not checked";
    throw new ConflictError(
      `Criterion ${index + 1} of ${taskId} is ${state}`,
      done ? `pantheon task uncheck ${taskId} ${index + 1} (to open it again)` : `pantheon task show ${taskId}`,
      { task: taskId, criterion: index + 1, done: c.done },
    );
  }
  return list.map((x, i) => (i === index ? { ...x, done, by: change.by, at: change.at } : x));
}
