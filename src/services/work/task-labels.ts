import { ConflictError, UsageError } from "../../errors.js";
import { taskId } from "../../domain/ids.js";
import { checkLabelCount, labelSet, parseLabels } from "../../domain/labels.js";
import type { Context } from "../kernel/context.js";
import { editTask, type EditResult } from "./edit-task.js";

/** The labels as written (`API`, `api,db`), parsed before anything is read; at least one. */
function given(labels: readonly string[], command: string, id: string): string[] {
  const parsed = parseLabels(labels);
  if (parsed.length === 0) throw new UsageError("Name at least one label", `pantheon task ${command} ${id} api`);
  return parsed;
}

/** Adds labels (one commit); those the task has already are left as they are, none new is no commit. */
export function labelTask(ctx: Context, o: { id: string; labels: string[] }): Promise<EditResult> {
  const add = given(o.labels, "label", o.id);
  return editTask(ctx, o.id, "task.label", async (t) => {
    const labels = labelSet(t.labels, add);
    if (labels.length === t.labels.length) return t;
    checkLabelCount(labels, `pantheon task unlabel ${taskId(t)} LABEL (it has ${t.labels.join(", ")})`, {
      given: false,
    });
    return { ...t, labels };
  });
}

/** Removes labels (one commit); a label the task does not have is refused, naming the ones it has. */
export function unlabelTask(ctx: Context, o: { id: string; labels: string[] }): Promise<EditResult> {
  const drop = given(o.labels, "unlabel", o.id);
  return editTask(ctx, o.id, "task.unlabel", async (t) => {
    const missing = drop.filter((l) => !t.labels.includes(l));
    if (missing.length > 0)
      throw new ConflictError(
        `${taskId(t)} has no label ${missing.join(", ")}${t.labels.length > 0 ? ` (it has ${t.labels.join(", ")})` : " (it has none)"}`,
        `pantheon task show ${taskId(t)}`,
        { task: taskId(t), missing },
      );
    return { ...t, labels: t.labels.filter((l) => !drop.includes(l)) };
  });
}
