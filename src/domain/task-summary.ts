import type { Task } from "./schemas/task.js";

/**
 * What list-type questions need of a task: everything but its texts (description, notes) and
 * bookkeeping. The read cache keeps these for every task, so `list`, `next`, `report` and the
 * dashboard never load full records.
 */
export type TaskSummary = Omit<Task, (typeof SUMMARY_LEAVES_OUT)[number]>;

/** The task's fields a summary (a row of the read cache) does not carry. */
export const SUMMARY_LEAVES_OUT = ["description", "notes", "uid", "createdBy", "formerRoles"] as const;

// In its own module, without zod: the read cache builds summaries on start-up paths.
export function toTaskSummary(t: TaskSummary): TaskSummary {
  return {
    number: t.number,
    title: t.title,
    role: t.role,
    priority: t.priority,
    status: t.status,
    dependencies: t.dependencies,
    epic: t.epic,
    claimedBy: t.claimedBy,
    mission: t.mission,
    completedBy: t.completedBy,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    formerNumbers: t.formerNumbers,
    labels: t.labels,
    acceptance: t.acceptance,
  };
}
