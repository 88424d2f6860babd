import type { Priority } from "./priority.js";
import type { TaskRole } from "./roles.js";
import type { Task } from "./schemas/task.js";

/** What a new task is made of; the rest is what every new task starts with. */
export interface NewTask {
  uid: string;
  number: number;
  title: string;
  description: string;
  role: TaskRole;
  priority: Priority;
  dependencies: number[];
  epic: number | null;
  labels: string[];
  acceptance: Task["acceptance"];
  /** ISO-8601: created and updated. */
  at: string;
  by: string;
  /**
   * The list every empty list of the task is (notes, former numbers and roles): an import of
   * 100,000 tasks shares one frozen list instead of holding 300,000 (its peak memory budget).
   */
  empty?: never[];
}

/**
 * A TODO task, unclaimed, with no notes and no history: the one place a task record is built
 * (`task create`, `task import`), so a new field gets its starting value here once.
 */
export function newTask(t: NewTask): Task {
  return {
    uid: t.uid,
    number: t.number,
    title: t.title,
    description: t.description,
    role: t.role,
    priority: t.priority,
    status: "TODO",
    dependencies: t.dependencies,
    epic: t.epic,
    claimedBy: null,
    mission: null,
    completedBy: null,
    notes: t.empty ?? [],
    formerNumbers: t.empty ?? [],
    formerRoles: t.empty ?? [],
    labels: t.labels,
    acceptance: t.acceptance,
    createdAt: t.at,
    updatedAt: t.at,
    createdBy: t.by,
  };
}
