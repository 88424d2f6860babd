import { taskId, missionId } from "../domain/ids.js";
import { blockingState } from "../domain/blocking.js";
import { epicRefId, taskRefId, type Refs } from "../domain/refs.js";
import type { Note } from "../domain/schemas/note.js";
import type { Task, TaskSummary } from "../domain/schemas/task.js";

/** The task summary of DESIGN §4.2: what list-type commands return. */
export interface TaskSummaryView {
  id: string;
  number: number;
  title: string;
  role: Task["role"];
  priority: Task["priority"];
  status: Task["status"];
  dependencies: string[];
  blockedBy: string[];
  waitingOnReview: string[];
  epic: string | null;
  claimedBy: string | null;
  mission: string | null;
  completedBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** Lowercase words, sorted. */
  labels: string[];
  /** Acceptance criteria, numbered by their place (`task check ID N`). */
  acceptance: CriterionView[];
}

export interface CriterionView {
  id: string;
  text: string;
  done: boolean;
}

/** What a task table shows of a task (render/task-text.ts's taskTable). */
export type TaskRowView = Pick<
  TaskSummaryView,
  "id" | "status" | "title" | "claimedBy" | "blockedBy" | "labels" | "acceptance"
>;

/**
 * Just a table row of a task: a list of 50,000 in human form built every whole view (ids of
 * every dependency, review waits, epic) only to print five columns, ~40% of its time.
 */
export function taskRowView(task: TaskSummary, refs: Refs): TaskRowView {
  return {
    id: taskId(task),
    status: task.status,
    title: task.title,
    claimedBy: task.claimedBy,
    blockedBy: blockingState(task, (n) => refs.tasks.get(n)).blockedBy.map((n) => taskRefId(refs, n)),
    labels: task.labels,
    acceptance: task.acceptance,
  };
}

export interface TaskDetailView extends TaskSummaryView {
  description: string;
  notes: Note[];
  formerIds: string[];
  allowedActions: string[];
}

export function taskSummaryView(task: TaskSummary, refs: Refs): TaskSummaryView {
  const b = blockingState(task, (n) => refs.tasks.get(n));
  return {
    id: taskId(task),
    number: task.number,
    title: task.title,
    role: task.role,
    priority: task.priority,
    status: task.status,
    dependencies: task.dependencies.map((n) => taskRefId(refs, n)),
    blockedBy: b.blockedBy.map((n) => taskRefId(refs, n)),
    waitingOnReview: b.waitingOnReview.map((n) => taskRefId(refs, n)),
    epic: task.epic === null ? null : epicRefId(refs, task.epic),
    claimedBy: task.claimedBy,
    mission: task.mission === null ? null : missionId(task.mission),
    completedBy: task.completedBy,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    labels: [...task.labels],
    acceptance: task.acceptance.map((c) => ({ id: c.id, text: c.text, done: c.done })),
  };
}

export function taskDetailView(task: Task, refs: Refs, allowedActions: string[]): TaskDetailView {
  return {
    ...taskSummaryView(task, refs),
    description: task.description,
    notes: task.notes,
    // Ids that named this task before: its former numbers (renumbered at a sync), then its number
    // with each role it had (edit --role). Letters follow today's priority: they are not identity.
    formerIds: [
      ...task.formerNumbers.map((n) => taskId({ ...task, number: n })),
      ...task.formerRoles.filter((r) => r !== task.role).map((role) => taskId({ ...task, role })),
    ],
    allowedActions,
  };
}

/** `task link`: the task the link moved, or null when it was already linked (nothing changed). */
export function linkedTaskView(r: {
  tasks: readonly TaskSummary[];
  changed: readonly TaskSummary[];
  refs: Refs;
}): TaskSummaryView | null {
  const t = r.tasks.find((x) => x.number === (r.changed[0]?.number ?? -1)) ?? r.changed[0];
  return t ? taskSummaryView(t, r.refs) : null;
}

export interface PlanView {
  task: string;
  /** Relative to the project root. */
  path: string;
  action: "created" | "exists" | "renamed";
  from: string | null;
}

export function planView(r: {
  task: Task;
  path: string;
  action: PlanView["action"];
  from?: string | undefined;
}): PlanView {
  return { task: taskId(r.task), path: r.path, action: r.action, from: r.from ?? null };
}
