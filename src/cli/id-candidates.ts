import { epicId, missionId, pad, reviewId, taskId } from "../domain/ids.js";
import { PRIORITIES, PRIORITY_LETTERS, type Priority } from "../domain/priority.js";
import { ROLE_CODES, TASK_ROLES, type TaskRole } from "../domain/roles.js";
import type { TaskColumns } from "../domain/task-columns.js";
import { TASK_STATUSES } from "../domain/task-status.js";
import { isPersonaName } from "../domain/persona-names.js";
import { LABEL_PATTERN } from "../domain/labels.js";

/**
 * What `pantheon __complete KIND PREFIX` offers for an id argument (shell completion): the kind
 * of record and which of them make sense there (`task claim` offers TODO and READY tasks).
 */
export const ID_KINDS = [
  "task",
  "task-open",
  "task-claimable",
  "task-closed",
  "epic",
  "mission",
  "mission-active",
  "review",
  "review-pending",
  "persona",
  "label",
] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** The record kind of the read cache an id kind reads. */
export function recordKind(kind: IdKind): "tasks" | "epics" | "missions" | "reviews" {
  if (kind.startsWith("task") || kind === "label") return "tasks";
  if (kind === "epic") return "epics";
  if (kind === "review" || kind === "review-pending") return "reviews";
  return "missions";
}

/** The fields completion reads: a task summary, an epic, a mission or a review has them. */
export interface CandidateRow {
  number: number;
  status?: string;
  role?: TaskRole | string;
  priority?: Priority;
  persona?: string;
  aborted?: string | null;
  labels?: readonly string[];
}

const TASK_STATUSES_OF: Record<string, readonly string[] | null> = {
  task: null,
  "task-open": ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"],
  "task-claimable": ["TODO", "READY"],
  "task-closed": ["COMPLETE", "ABORTED"],
};

/**
 * The ids (or persona names) of `rows` that fit `kind` and start with `prefix`, case-insensitively;
 * a prefix of digits matches the number (`7` → `ENG-H-0007`). In number order.
 */
export function idCandidates(kind: IdKind, rows: Iterable<CandidateRow>, prefix: string): string[] {
  if (kind === "label") {
    const all = new Set<string>();
    for (const r of rows) for (const l of r.labels ?? []) all.add(l);
    return labelsStarting(all, prefix);
  }
  const want = prefix.toUpperCase();
  const digits = /^\d+$/.test(prefix) ? String(Number(prefix)) : null;
  const out: Array<[number, string]> = [];
  for (const r of rows) {
    let id: string;
    if (recordKind(kind) === "tasks") {
      const statuses = TASK_STATUSES_OF[kind];
      if (statuses && !statuses.includes(r.status!)) continue;
      id = taskId(r as { role: TaskRole; priority: Priority; number: number });
    } else if (kind === "epic") id = epicId(r as { priority: Priority; number: number });
    else if (kind === "review" || kind === "review-pending") {
      if (kind === "review-pending" && r.status !== "PENDING") continue;
      id = reviewId(r.number);
    } else {
      if (kind !== "mission" && r.status !== "ACTIVE") continue;
      // A persona name comes from a record anyone with push access may write: one that is not a
      // valid name (control characters, shell syntax, a look-alike of the Director's) is never
      // offered to the shell or terminal.
      if (kind === "persona" && !isPersonaName(r.persona ?? "")) continue;
      id = kind === "persona" ? r.persona! : missionId(r.number);
    }
    const matches = digits !== null ? String(r.number).startsWith(digits) : id.toUpperCase().startsWith(want);
    if (matches) out.push([r.number, id]);
  }
  return [...new Set(out.sort((a, b) => a[0] - b[0]).map(([, id]) => id))];
}

/**
 * The labels in use that start with `prefix`, sorted. A label comes from a record anyone with
 * push access may write: only a word of the label format is offered to the shell (the schema
 * refuses others, and this is said here again, where the text meets a command line).
 */
function labelsStarting(labels: Iterable<string>, prefix: string): string[] {
  const want = prefix.toLowerCase();
  return [...labels].filter((l) => LABEL_PATTERN.test(l) && l.startsWith(want)).sort();
}

/** The labels some task of the columns carries (a table's names may include ones no task has any more). */
export function labelCandidates(cols: TaskColumns, prefix: string): string[] {
  const used = new Set<number>();
  const { labelValues } = cols;
  for (let k = 0; k < labelValues.length; k++) used.add(labelValues[k]!);
  return labelsStarting(
    [...used].map((c) => cols.labelNames[c]!),
    prefix,
  );
}

/**
 * idCandidates for tasks, read off the columns (codes and numbers in typed arrays): at 10,000
 * tasks, building a row object and an id for every task cost ~25 ms of a TAB; here an id is
 * built only for a task that can match. Same answer, in the same (number) order.
 */
export function taskIdCandidates(kind: IdKind, cols: TaskColumns, prefix: string): string[] {
  const statuses = TASK_STATUSES_OF[kind] ?? null;
  const allowed = TASK_STATUSES.map((s) => statuses === null || statuses.includes(s));
  const want = prefix.toUpperCase();
  const digits = /^\d+$/.test(prefix) ? String(Number(prefix)) : null;
  // Each role and priority gives an id's head ("ENG-H-"): one that cannot start the prefix is skipped whole.
  const heads = TASK_ROLES.flatMap((r) =>
    PRIORITIES.map((p) => {
      const head = `${ROLE_CODES[r]}-${PRIORITY_LETTERS[p]}-`;
      return digits !== null || head.startsWith(want) || want.startsWith(head) ? head : null;
    }),
  );
  const out: string[] = [];
  const P = PRIORITIES.length;
  // Read once: patched columns are getters, and a getter per task per field cost ~25 ms at 10,000.
  const { count, status, role, priority, number } = cols;
  for (let i = 0; i < count; i++) {
    if (!allowed[status[i]!]) continue;
    const head = heads[role[i]! * P + priority[i]!];
    if (head == null) continue;
    const n = number[i]!;
    if (digits !== null) {
      if (String(n).startsWith(digits)) out.push(head + pad(n, 4));
    } else {
      const id = head + pad(n, 4);
      if (want.length <= head.length || id.startsWith(want)) out.push(id);
    }
  }
  return out;
}
