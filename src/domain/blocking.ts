import type { Task } from "./schemas/task.js";
import { STATUS_CODE, statusCodeOf, type StatusByNumber, type TaskColumns } from "./task-columns.js";
import type { TaskStatus } from "./task-status.js";

/** Looks a task up by number; the service decides whether that reads one record or an index. */
export type TaskLookup = (n: number) => Pick<Task, "number" | "status"> | undefined;

export interface BlockingState {
  /** Dependencies neither COMPLETE nor in REVIEW (an ABORTED or missing one blocks too). */
  blockedBy: number[];
  /** Dependencies in REVIEW: they do not block (the Engineer → Tester pattern). */
  waitingOnReview: number[];
}

export function blockingState(task: Pick<Task, "dependencies">, lookup: TaskLookup): BlockingState {
  const blockedBy: number[] = [];
  const waitingOnReview: number[] = [];
  for (const n of task.dependencies) {
    const status = lookup(n)?.status;
    if (status === "REVIEW") waitingOnReview.push(n);
    else if (blocks(status)) blockedBy.push(n);
  }
  return { blockedBy, waitingOnReview };
}

/** Ready = TODO or READY with nothing blocking it. */
export function isReady(task: Pick<Task, "status" | "dependencies">, lookup: TaskLookup): boolean {
  return (task.status === "TODO" || task.status === "READY") && !isBlocked(task, lookup);
}

/** Whether any dependency blocks the task: `blockingState(...).blockedBy.length > 0` without building the lists (asked of every task by list questions). */
export function isBlocked(task: Pick<Task, "dependencies">, lookup: TaskLookup): boolean {
  for (const n of task.dependencies) if (blocks(lookup(n)?.status)) return true;
  return false;
}

/** The blocking rule itself: a dependency blocks unless COMPLETE or in REVIEW (undefined: missing). */
const NOT_BLOCKING: readonly TaskStatus[] = ["COMPLETE", "REVIEW"];

export function blocks(status: TaskStatus | undefined): boolean {
  return status === undefined || !NOT_BLOCKING.includes(status);
}

const [DONE, IN_REVIEW] = NOT_BLOCKING.map((s) => STATUS_CODE[s]);
const [TODO, READY] = [STATUS_CODE.TODO, STATUS_CODE.READY];

/** isBlocked for the task at position i of columns, building no task. */
export function blockedAt(cols: TaskColumns, statusOf: StatusByNumber, i: number): boolean {
  const end = cols.depStart[i + 1]!;
  for (let k = cols.depStart[i]!; k < end; k++) {
    const code = statusCodeOf(statusOf, cols.depValues[k]!);
    if (code !== DONE && code !== IN_REVIEW) return true;
  }
  return false;
}

/** isReady for the task at position i of columns. */
export function readyAt(cols: TaskColumns, statusOf: StatusByNumber, i: number): boolean {
  const code = cols.status[i];
  return (code === TODO || code === READY) && !blockedAt(cols, statusOf, i);
}
