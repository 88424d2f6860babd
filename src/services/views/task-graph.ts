import type { Refs } from "../../domain/refs.js";
import { taskGraph, type GraphScope, type TaskGraph } from "../../domain/task-graph.js";
import type { Context } from "../kernel/context.js";
import { findEpic } from "../work/epics.js";
import { findTask, loadAllRefs } from "../kernel/find-task.js";

/** What a graph request names: an epic's id, a task's id, or the blocked paths. */
export type GraphRequest = { epic: string } | { task: string } | { blocked: true };

/** Past this many tasks a layout stops being readable (and costs the browser seconds). */
export const GRAPH_CAP = 150;

/** The part of the dependency graph a request names, ids resolved as the CLI resolves them. */
export async function dependencyGraph(
  ctx: Context,
  r: GraphRequest,
  cap = GRAPH_CAP,
): Promise<TaskGraph & { refs: Refs; scope: GraphScope }> {
  const snap = await (await ctx.store()).snapshot();
  const scope: GraphScope =
    "epic" in r
      ? { kind: "epic", epic: (await findEpic(snap, r.epic, ctx)).number }
      : "task" in r
        ? { kind: "task", task: (await findTask(snap, r.task, ctx)).number }
        : { kind: "blocked" };
  const refs = await loadAllRefs(snap);
  return { ...taskGraph(refs.tasks, scope, cap), refs, scope };
}
