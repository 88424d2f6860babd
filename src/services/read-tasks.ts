import { sameName } from "../domain/actor.js";
import { isBlocked, isReady } from "../domain/blocking.js";
import { allowedActions } from "../domain/task-lifecycle.js";
import type { Priority } from "../domain/priority.js";
import type { TaskRole } from "../domain/roles.js";
import type { Task, TaskSummary } from "../domain/schemas/task.js";
import { isOpen, type TaskStatus } from "../domain/task-status.js";
import type { Context } from "./context.js";
import type { Refs } from "../domain/refs.js";
import { findTask, loadAllRefs } from "./find-task.js";
import { resolveActor } from "./resolve-actor.js";
import { transitionFacts } from "./transition-task.js";

export interface TaskDetail {
  task: Task;
  refs: Refs;
  allowedActions: string[];
}

/** One task with what the current actor may do with it; reads the task and its dependencies only. */
export async function showTask(ctx: Context, id: string): Promise<TaskDetail> {
  const snap = await (await ctx.store()).snapshot();
  const task = await findTask(snap, id, ctx.warn);
  const actor = await resolveActor(ctx, snap);
  const { facts, refs } = await transitionFacts(snap, task, actor, false);
  return { task, refs, allowedActions: allowedActions(task, facts) };
}

export interface TaskFilters {
  status?: TaskStatus[];
  role?: TaskRole[];
  priority?: Priority[];
  epic?: number;
  claimedBy?: string;
  blocked?: boolean;
  ready?: boolean;
  limit?: number;
  offset?: number;
}

export interface TaskPage {
  tasks: TaskSummary[];
  /** Every task and epic loaded (for naming references by id). */
  refs: Refs;
  total: number;
}

/** Tasks matching every given filter, by number; without `limit`, every match. */
export async function listTasks(ctx: Context, f: TaskFilters): Promise<TaskPage> {
  const snap = await (await ctx.store()).snapshot();
  const refs = await loadAllRefs(snap);
  const offset = f.offset ?? 0;
  // Without a filter, a page is positions offset… of the tasks by number: from the read cache,
  // only the page's tasks (and those they name) are read.
  const unfiltered = !f.status && !f.role && !f.priority && f.epic === undefined && f.claimedBy === undefined && !f.blocked && !f.ready;
  const page = unfiltered && f.limit !== undefined ? refs.tasks.range?.(offset, f.limit) : null;
  if (page) return { tasks: page, refs, total: refs.tasks.size };
  const lookup = (n: number) => refs.tasks.get(n);
  const matches = [...refs.tasks.values()].filter((t) => {
    if (f.status && !f.status.includes(t.status)) return false;
    if (f.role && !f.role.includes(t.role)) return false;
    if (f.priority && !f.priority.includes(t.priority)) return false;
    if (f.epic !== undefined && t.epic !== f.epic) return false;
    if (f.claimedBy !== undefined && !sameName(t.claimedBy, f.claimedBy)) return false;
    if (f.blocked && !(isOpen(t.status) && isBlocked(t, lookup))) return false;
    if (f.ready && !isReady(t, lookup)) return false;
    return true;
  });
  return { tasks: matches.slice(offset, f.limit === undefined ? undefined : offset + f.limit), refs, total: matches.length };
}
