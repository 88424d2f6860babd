import { sameName } from "../../domain/actor.js";
import { blockedFlags, READY_CODES } from "../../domain/blocking.js";
import { columnsOf, positions, PRIORITY_CODE, ROLE_CODE, STATUS_CODE, withLabels } from "../../domain/task-columns.js";
import { allowedActions } from "../../domain/task-lifecycle.js";
import type { Priority } from "../../domain/priority.js";
import type { TaskRole } from "../../domain/roles.js";
import type { Task, TaskSummary } from "../../domain/schemas/task.js";
import { OPEN_STATUSES, type TaskStatus } from "../../domain/task-status.js";
import type { Context } from "../kernel/context.js";
import type { Refs } from "../../domain/refs.js";
import { findTask, loadAllRefs } from "../kernel/find-task.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { findEpic } from "../work/epics.js";
import { transitionFacts } from "../work/transition-task.js";
import type { RecordStore } from "../../store/store.js";

export interface TaskDetail {
  task: Task;
  refs: Refs;
  allowedActions: string[];
}

/** One task with what the current actor may do with it; reads the task and its dependencies only. */
export async function showTask(ctx: Context, id: string): Promise<TaskDetail> {
  const snap = await (await ctx.store()).snapshot();
  const task = await findTask(snap, id, ctx);
  const actor = await resolveActor(ctx, snap);
  const { facts, refs } = await transitionFacts(snap, task, actor, false);
  return { task, refs, allowedActions: allowedActions(task, facts) };
}

export interface TaskFilters {
  status?: TaskStatus[];
  role?: TaskRole[];
  priority?: Priority[];
  /** An epic id (`EPC-H-0001`, `1`), resolved as every id is (DESIGN §1.2). */
  epic?: string;
  claimedBy?: string;
  blocked?: boolean;
  ready?: boolean;
  /** Tasks carrying every one of these labels (parsed: lowercase words). */
  label?: string[];
  limit?: number;
  offset?: number;
}

export interface TaskPage {
  tasks: TaskSummary[];
  /** Every task and epic loaded (for naming references by id). */
  refs: Refs;
  total: number;
}

const OPEN = new Set(OPEN_STATUSES.map((s) => STATUS_CODE[s]));

/** Tasks matching every given filter, by number; without `limit`, every match. */
export async function listTasks(ctx: Context<RecordStore>, f: TaskFilters): Promise<TaskPage> {
  const snap = await (await ctx.store()).snapshot();
  const epic = f.epic === undefined ? undefined : (await findEpic(snap, f.epic, ctx)).number;
  const refs = await loadAllRefs(snap);
  const offset = f.offset ?? 0;
  // Filters read the columns; only the page's tasks are built (from the read cache, a page of
  // 50 reads 50 rows, whatever the filter).
  const cols = columnsOf(refs.tasks);
  const blocked = f.blocked || f.ready ? blockedFlags(cols) : null;
  const codes = <T extends string>(list: T[] | undefined, code: Record<T, number>) =>
    list ? new Set(list.map((v) => code[v])) : null;
  const [status, role, priority] = [
    codes(f.status, STATUS_CODE),
    codes(f.role, ROLE_CODE),
    codes(f.priority, PRIORITY_CODE),
  ];
  const labelled = f.label && f.label.length > 0 ? withLabels(cols, f.label) : null;
  const filtered =
    status || role || priority || epic !== undefined || f.claimedBy !== undefined || f.blocked || f.ready || labelled;
  // Unfiltered, the page is positions offset… themselves: no task is looked at but the page's.
  const matches = !filtered
    ? null
    : positions(cols, (i) => {
        if (status && !status.has(cols.status[i]!)) return false;
        if (role && !role.has(cols.role[i]!)) return false;
        if (priority && !priority.has(cols.priority[i]!)) return false;
        if (epic !== undefined && cols.epic[i] !== epic) return false;
        if (f.claimedBy !== undefined && !sameName(cols.names[cols.claimedBy[i]! - 1], f.claimedBy)) return false;
        if (f.blocked && !(OPEN.has(cols.status[i]!) && blocked![i] === 1)) return false;
        if (f.ready && !(READY_CODES.has(cols.status[i]!) && blocked![i] === 0)) return false;
        if (labelled && !labelled(i)) return false;
        return true;
      });
  const total = matches ? matches.length : cols.count;
  const end = f.limit === undefined ? total : Math.min(total, offset + f.limit);
  const tasks: TaskSummary[] = [];
  for (let k = offset; k < end; k++) tasks.push(cols.task(matches ? matches[k]! : k));
  return { tasks, refs, total };
}
