import { taskId } from "../../domain/ids.js";
import type { Priority } from "../../domain/priority.js";
import type { TaskRole } from "../../domain/roles.js";
import type { Task } from "../../domain/schemas/task.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { emptyRefs, type Refs } from "../../domain/refs.js";
import { findTask, loadRefs } from "../kernel/find-task.js";
import { linkableEpic } from "./epics.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { checkCriteria, checkLabels, checkText, checkTitle } from "../kernel/validate-input.js";
import { newCriterion } from "../../domain/acceptance.js";
import type { RecordStore } from "../../store/store.js";
import { newTask } from "../../domain/new-task.js";

export interface CreateTaskInput {
  title: string;
  role: TaskRole;
  priority?: Priority;
  description?: string;
  dependsOn?: string[];
  epic?: string;
  /** Labels as written (`API` is `api`; comma-separated lists split). */
  labels?: string[];
  /** Acceptance criteria, one line each. */
  acceptance?: string[];
}

export interface TaskResult {
  task: Task;
  /** Records the task refers to (dependencies, epic), so views can name them by id. */
  refs: Refs;
}

/** Creates a TODO task; its number comes from counters.json inside the same commit. */
export async function createTask(ctx: Context<RecordStore>, input: CreateTaskInput): Promise<TaskResult> {
  const title = checkTitle(input.title);
  const description = checkText(input.description, "--description");
  const labels = checkLabels(input.labels ?? [], "--label");
  const criteria = checkCriteria(input.acceptance ?? [], "--ac");
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const actor = await resolveActor(ctx, tx);
    const refs = emptyRefs();
    const deps: number[] = [];
    for (const ref of input.dependsOn ?? []) {
      const dep = await findTask(tx, ref, ctx);
      if (!deps.includes(dep.number)) deps.push(dep.number);
    }
    const epicNumber = input.epic !== undefined ? (await linkableEpic(tx, input.epic, ctx)).number : null;
    const number = await tx.allocate("tasks");
    const at = isoNow(ctx);
    const task = newTask({
      uid: ctx.ids.uid(),
      number,
      title,
      description,
      role: input.role,
      priority: input.priority ?? "MEDIUM",
      dependencies: deps,
      epic: epicNumber,
      labels,
      acceptance: criteria.map((text) => newCriterion(ctx.ids.noteId(), text, actor.name, at)),
      at,
      by: actor.name,
    });
    tx.put("tasks", task);
    await loadRefs(tx, task, refs);
    return { result: { task, refs }, commit: commitInfo("task.create", `task ${taskId(task)}`, actor) };
  });
  return result;
}
