import {
  checkCriteriaCount,
  criterionAt,
  markCriterion,
  newCriterion,
  parseCriterionText,
} from "../../domain/acceptance.js";
import { taskId } from "../../domain/ids.js";
import { isoNow, type Context } from "../kernel/context.js";
import { editTask, type EditResult } from "./edit-task.js";

export interface CriterionResult extends EditResult {
  /** The criterion's number (1-based place in the task's list). */
  n: number;
}

/** Adds an acceptance criterion at the end of the list (one commit). */
export async function addCriterion(ctx: Context, o: { id: string; text: string }): Promise<CriterionResult> {
  const text = parseCriterionText(o.text, `pantheon task ac ${o.id} "returns 404 for unknown ids" (one line)`);
  const r = await editTask(ctx, o.id, "task.ac", async (t, _tx, actor) => {
    checkCriteriaCount(t.acceptance.length + 1, `pantheon task show ${taskId(t)} (put the rest in its description)`, {
      given: false,
    });
    return { ...t, acceptance: [...t.acceptance, newCriterion(ctx.ids.noteId(), text, actor.name, isoNow(ctx))] };
  });
  return { ...r, n: r.task.acceptance.length };
}

/** Checks (or unchecks) criterion N of a task (one commit); one already in that state is refused. */
export async function markTaskCriterion(
  ctx: Context,
  o: { id: string; n: string; done: boolean },
): Promise<CriterionResult> {
  let index = -1;
  const r = await editTask(ctx, o.id, o.done ? "task.check" : "task.uncheck", async (t, _tx, actor) => {
    index = criterionAt(t.acceptance, o.n, taskId(t));
    const acceptance = markCriterion(t.acceptance, index, o.done, { by: actor.name, at: isoNow(ctx) }, taskId(t));
    return { ...t, acceptance };
  });
  return { ...r, n: index + 1 };
}
