import type { Epic } from "../../domain/schemas/epic.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Review } from "../../domain/schemas/review.js";
import type { TaskSummary } from "../../domain/schemas/task.js";
import type { Context } from "../kernel/context.js";

/** Every record of a kind as list-type reads see it (tasks as summaries): what shell completion offers ids from. */
export async function recordRows(
  ctx: Context,
  kind: "tasks" | "epics" | "missions" | "reviews",
): Promise<Array<TaskSummary | Epic | Mission | Review>> {
  const snap = await (await ctx.store()).snapshot();
  return kind === "tasks" ? snap.taskSummaries() : snap.all(kind);
}
