import { epicId, missionId, reviewId, taskId } from "../domain/ids.js";
import type { Priority } from "../domain/priority.js";
import type { TaskRole } from "../domain/roles.js";

/**
 * What `pantheon __complete KIND PREFIX` offers for an id argument (shell completion): the kind
 * of record and which of them make sense there (`task claim` offers TODO and READY tasks).
 */
export const ID_KINDS = ["task", "task-open", "task-claimable", "task-closed", "epic", "mission", "mission-active", "review", "review-pending", "persona"] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** The record kind of the read cache an id kind reads. */
export function recordKind(kind: IdKind): "tasks" | "epics" | "missions" | "reviews" {
  if (kind.startsWith("task")) return "tasks";
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
}

const TASK_STATUSES: Record<string, readonly string[] | null> = {
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
  const want = prefix.toUpperCase();
  const digits = /^\d+$/.test(prefix) ? String(Number(prefix)) : null;
  const out: Array<[number, string]> = [];
  for (const r of rows) {
    let id: string;
    if (recordKind(kind) === "tasks") {
      const statuses = TASK_STATUSES[kind];
      if (statuses && !statuses.includes(r.status!)) continue;
      id = taskId(r as { role: TaskRole; priority: Priority; number: number });
    } else if (kind === "epic") id = epicId(r as { priority: Priority; number: number });
    else if (kind === "review" || kind === "review-pending") {
      if (kind === "review-pending" && r.status !== "PENDING") continue;
      id = reviewId(r.number);
    } else {
      if (kind !== "mission" && r.status !== "ACTIVE") continue;
      id = kind === "persona" ? r.persona! : missionId(r.number);
    }
    const matches = digits !== null ? String(r.number).startsWith(digits) : id.toUpperCase().startsWith(want);
    if (matches) out.push([r.number, id]);
  }
  return [...new Set(out.sort((a, b) => a[0] - b[0]).map(([, id]) => id))];
}
