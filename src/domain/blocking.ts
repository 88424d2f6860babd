import type { Task } from "./schemas/task.js";

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
    const dep = lookup(n);
    if (dep?.status === "COMPLETE") continue;
    if (dep?.status === "REVIEW") waitingOnReview.push(n);
    else blockedBy.push(n);
  }
  return { blockedBy, waitingOnReview };
}

/** Ready = TODO or READY with nothing blocking it. */
export function isReady(task: Pick<Task, "status" | "dependencies">, lookup: TaskLookup): boolean {
  return (task.status === "TODO" || task.status === "READY") && !isBlocked(task, lookup);
}

/** Whether any dependency blocks the task: `blockingState(...).blockedBy.length > 0` without building the lists (asked of every task by list questions). */
export function isBlocked(task: Pick<Task, "dependencies">, lookup: TaskLookup): boolean {
  for (const n of task.dependencies) {
    const status = lookup(n)?.status;
    if (status !== "COMPLETE" && status !== "REVIEW") return true;
  }
  return false;
}
