import type { Actor } from "../../domain/actor.js";
import { reviewId, taskId } from "../../domain/ids.js";
import { withdrawReview } from "../../domain/review-rules.js";
import type { TaskEvent } from "../../domain/task-lifecycle.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Tx } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { requestReview } from "./reviews.js";

export interface SideEffectInput {
  before: Task;
  after: Task;
  event: TaskEvent;
  actor: Actor;
  at: string;
  noReview: boolean;
}

/**
 * Changes other records make in the same commit as a task's transition (DESIGN §1.6: one
 * command is one commit): moving to REVIEW requests a task_completion review unless one is
 * pending; closing a task withdraws its pending reviews. Returns the ids it changed.
 */
export async function applyTaskSideEffects(ctx: Context<unknown>, tx: Tx, i: SideEffectInput): Promise<string[]> {
  if (i.after.status === i.before.status) return [];
  if (i.after.status === "REVIEW") {
    if (i.noReview) return [];
    const pending = (await tx.all("reviews")).some((r) => r.task === i.after.number && r.status === "PENDING");
    if (pending) return [];
    const review = await requestReview(ctx, tx, i.actor, {
      title: `Review ${taskId(i.after)}: ${i.after.title}`.slice(0, 200),
      type: "task_completion",
      task: i.after,
    });
    return [reviewId(review.number)];
  }
  if (i.after.status === "COMPLETE" || i.after.status === "ABORTED") {
    const changed: string[] = [];
    for (const listed of await tx.all("reviews")) {
      if (listed.task !== i.after.number || listed.status !== "PENDING") continue;
      // The list may come from the read cache: what is written starts from the record itself.
      const r = (await tx.get("reviews", listed.number)) ?? listed;
      tx.put("reviews", withdrawReview(r, i.at, `${taskId(i.after)} was closed as ${i.after.status}`));
      changed.push(reviewId(r.number));
    }
    return changed;
  }
  return [];
}
