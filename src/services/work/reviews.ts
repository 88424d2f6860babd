import { NotFoundError } from "../../errors.js";
import type { Actor } from "../../domain/actor.js";
import { parseReviewRef, printable, reviewId, taskId } from "../../domain/ids.js";
import { checkRenumbered, writtenNumber, type IdLookup } from "../kernel/renumbered.js";
import { emptyRefs, type Refs } from "../../domain/refs.js";
import type { Note } from "../../domain/schemas/note.js";
import type { Review } from "../../domain/schemas/review.js";
import { reviewActions, type ReviewActions } from "../../domain/review-rules.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Snapshot, Tx } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { findTask } from "../kernel/find-task.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { checkText, checkTitle } from "../kernel/validate-input.js";
import { newReview } from "../../domain/new-review.js";

export interface ReviewResult {
  review: Review;
  refs: Refs;
}

/** Resolves `RVW-001` or `1`; a number a sync gave to another review follows DESIGN §1.2. */
export async function findReview(snap: Snapshot, input: string, look: IdLookup): Promise<Review> {
  const n = parseReviewRef(input);
  const review = await snap.get("reviews", n);
  if (!review) throw new NotFoundError(`No review ${printable(input)}`, "pantheon review list", { number: n });
  await checkRenumbered(snap, "reviews", review, writtenNumber(input), look);
  return review;
}

/** Loads the task a review is about, so views can name it by id. */
export async function reviewRefs(snap: Snapshot, reviews: readonly Review[], refs: Refs = emptyRefs()): Promise<Refs> {
  for (const r of reviews) {
    if (r.task === null || refs.tasks.has(r.task)) continue;
    const t = await snap.get("tasks", r.task).catch(() => null);
    if (t) refs.tasks.set(t.number, t);
  }
  return refs;
}

/** Adds a PENDING review record inside a mutation (also used when a task goes to REVIEW). */
export async function requestReview(
  ctx: Context<unknown>,
  tx: Tx,
  actor: Actor,
  o: { title: string; type: Review["type"]; task: Task | null; artifact?: string | null },
): Promise<Review> {
  const at = isoNow(ctx);
  const review = newReview({
    uid: ctx.ids.uid(),
    number: await tx.allocate("reviews"),
    title: o.title,
    type: o.type,
    task: o.task?.number ?? null,
    artifact: o.artifact ?? null,
    at,
    by: actor.name,
  });
  tx.put("reviews", review);
  return review;
}

export async function createReview(
  ctx: Context,
  o: { title: string; type?: Review["type"]; task?: string; artifact?: string },
): Promise<ReviewResult> {
  const title = checkTitle(o.title);
  const artifact = o.artifact === undefined ? null : checkText(o.artifact, "--artifact");
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const actor = await resolveActor(ctx, tx);
    const task = o.task === undefined ? null : await findTask(tx, o.task, ctx);
    const review = await requestReview(ctx, tx, actor, {
      title,
      type: o.type ?? (task ? "task_completion" : "general"),
      task,
      artifact,
    });
    const refs = emptyRefs();
    if (task) refs.tasks.set(task.number, task);
    return {
      result: { review, refs },
      commit: commitInfo(
        "review.create",
        `review ${reviewId(review.number)}${task ? ` of ${taskId(task)}` : ""}`,
        actor,
      ),
    };
  });
  return result;
}

/** Notes of a review's task `review show` gives: the latest, where the work's story is. */
const SHOWN_NOTES = 5;

export interface ReviewDetail extends ReviewResult {
  actions: ReviewActions;
  /** The latest notes of the review's task (oldest first), and how many it has in all. */
  taskNotes: Note[];
  taskNoteCount: number;
}

/** A review, what the actor may do with it, and the latest notes of its task. */
export async function showReview(ctx: Context, id: string): Promise<ReviewDetail> {
  const snap = await (await ctx.store()).snapshot();
  const review = await findReview(snap, id, ctx);
  const [refs, actor, task] = await Promise.all([
    reviewRefs(snap, [review]),
    resolveActor(ctx, snap),
    review.task === null ? null : snap.get("tasks", review.task).catch(() => null),
  ]);
  const notes = task?.notes ?? [];
  return {
    review,
    refs,
    actions: reviewActions(review, actor),
    taskNotes: notes.slice(-SHOWN_NOTES),
    taskNoteCount: notes.length,
  };
}

export async function listReviews(
  ctx: Context,
  o: { status?: Review["status"][] },
): Promise<{ reviews: Review[]; refs: Refs }> {
  const snap = await (await ctx.store()).snapshot();
  const reviews = (await snap.all("reviews")).filter((r) => !o.status || o.status.includes(r.status));
  return { reviews, refs: await reviewRefs(snap, reviews) };
}
