import { UsageError } from "../../errors.js";
import { reviewId, taskId } from "../../domain/ids.js";
import { checkReviewDecision, decideReview, mayDecide } from "../../domain/review-rules.js";
import type { Review } from "../../domain/schemas/review.js";
import { applyTaskEvent } from "../../domain/task-lifecycle.js";
import type { Task } from "../../domain/schemas/task.js";
import { commitInfo } from "../kernel/commit-info.js";
import { publishedMutation } from "../sync/publish.js";
import { isoNow, type Context } from "../kernel/context.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { loadRefs } from "../kernel/find-task.js";
import { findReview, reviewRefs, type ReviewResult } from "./reviews.js";
import { applyTaskSideEffects } from "./task-side-effects.js";
import { checkText } from "../kernel/validate-input.js";
import { confirmOpenCriteria, NONE_ACCEPTED, refuseOpenCriteria, type AcceptedOpen } from "./criteria-guard.js";

export interface DecisionResult extends ReviewResult {
  /** The task the decision moved (REVIEW → COMPLETE or UNDERWAY), if it was in REVIEW. */
  task: Task | null;
  changed: string[];
}

/**
 * Approves or rejects a PENDING review. When its task is in REVIEW, the task moves in the same
 * commit: approve → COMPLETE (completedBy = the claimant), reject → UNDERWAY with the reason as
 * a note. A task in any other state is left alone; only the review changes.
 */
async function decide(
  ctx: Context,
  o: { id: string; notes?: string | undefined; force?: boolean | undefined },
  verdict: "approve" | "reject",
): Promise<DecisionResult> {
  const notes = o.notes === undefined ? null : checkText(o.notes, verdict === "approve" ? "--notes" : "--reason");
  const force = Boolean(o.force || ctx.force);
  const acceptedOpen = verdict === "reject" ? NONE_ACCEPTED : force ? "all" : await askAboutCriteria(ctx, o);
  // Two reviewers may decide at once: made on the remote's latest state and published (DESIGN §3.5).
  const { result } = await publishedMutation(ctx, async (tx) => {
    const actor = await resolveActor(ctx, tx);
    // A review the actor may not decide (its own request) is not one it can have meant by the number.
    const reviewable = (r: Review) => mayDecide(r, actor, false);
    const before = await findReview(tx, o.id, { warn: (m) => ctx.warn(m), force: ctx.force, reviewable });
    checkReviewDecision(before, actor, o.force ?? false, verdict);
    const at = isoNow(ctx);
    const review = decideReview(before, actor, at, verdict === "approve" ? "APPROVED" : "REJECTED", notes);
    tx.put("reviews", review);
    let task: Task | null = null;
    const changed: string[] = [];
    const current = before.task === null ? null : await tx.get("tasks", before.task);
    if (current && current.status === "REVIEW") {
      const facts = { actor, force: true, blockedBy: [], claimMissionActive: false };
      const note =
        verdict === "reject"
          ? { id: ctx.ids.noteId(), text: `${reviewId(review.number)} rejected: ${notes ?? ""}` }
          : undefined;
      task = applyTaskEvent(current, verdict, facts, at, note);
      // Approving completes the task: the same rule as task close (criteria-guard.ts).
      if (verdict === "approve")
        refuseOpenCriteria(current, acceptedOpen, `pantheon review approve ${reviewId(review.number)} --force`);
      tx.put("tasks", task);
      changed.push(
        taskId(task),
        ...(await applyTaskSideEffects(ctx, tx, {
          before: current,
          after: task,
          event: verdict,
          actor,
          at,
          noReview: true,
        })),
      );
    }
    const refs = await reviewRefs(tx, [review]);
    if (task) {
      refs.tasks.set(task.number, task);
      await loadRefs(tx, task, refs);
    }
    return {
      result: { review, refs, task, changed },
      commit: commitInfo(`review.${verdict}`, `review ${reviewId(review.number)}`, actor),
    };
  });
  return result;
}

/**
 * At a terminal, before the commit: when approving would complete a task with unchecked
 * criteria, and the decision itself is allowed, the Director is asked (criteria-guard.ts).
 */
async function askAboutCriteria(ctx: Context, o: { id: string; force?: boolean | undefined }): Promise<AcceptedOpen> {
  if (!ctx.prompter?.interactive) return NONE_ACCEPTED;
  const quiet: Context = { ...ctx, warn: () => {} };
  const snap = await (await ctx.store()).snapshot();
  const actor = await resolveActor(quiet, snap);
  const reviewable = (r: Review) => mayDecide(r, actor, false);
  const review = await findReview(snap, o.id, { warn: () => {}, force: ctx.force, reviewable });
  checkReviewDecision(review, actor, false, "approve");
  const task = review.task === null ? null : await snap.get("tasks", review.task);
  if (!task || task.status !== "REVIEW") return NONE_ACCEPTED;
  const id = reviewId(review.number);
  return confirmOpenCriteria(
    ctx,
    task,
    `Approve ${id}, completing ${taskId(task)},`,
    `pantheon review approve ${id} --force`,
  );
}

export function approveReview(
  ctx: Context,
  o: { id: string; notes?: string | undefined; force?: boolean | undefined },
): Promise<DecisionResult> {
  return decide(ctx, o, "approve");
}

/**
 * `review reject`: what must change, as `--notes` (the word every task command uses) or
 * `--reason` (the older one); both at once is a usage error, since one would be lost.
 */
export function rejectReview(
  ctx: Context,
  o: { id: string; reason?: string | undefined; notes?: string | undefined; force?: boolean | undefined },
): Promise<DecisionResult> {
  const example = `pantheon review reject ${o.id} --notes "add tests for expiry"`;
  if (o.reason !== undefined && o.notes !== undefined)
    return Promise.reject(new UsageError("--notes and --reason are the same; give one", example));
  const flag = o.notes !== undefined ? "--notes" : "--reason";
  const text = o.notes ?? o.reason;
  if (text === undefined)
    return Promise.reject(new UsageError("A rejection needs --notes (or --reason): what must change", example));
  if (text.trim() === "") return Promise.reject(new UsageError(`${flag} must say what to change`, example));
  return decide(ctx, { id: o.id, notes: text, force: o.force }, "reject");
}
