import { InvalidTransitionError } from "../errors.js";
import { IDENTIFY_HINT, sameName, type Actor } from "./actor.js";
import { reviewId } from "./ids.js";
import type { Review } from "./schemas/review.js";

/**
 * A PENDING review may be decided once. The requester may not approve or reject their own
 * request, unless they are the Director or use --force (DESIGN §1.4).
 */
export function checkReviewDecision(review: Review, actor: Actor, force: boolean, verb: "approve" | "reject"): void {
  const id = reviewId(review.number);
  if (review.status !== "PENDING") {
    throw new InvalidTransitionError(
      `Cannot ${verb} ${id}: it is ${review.status}${review.reviewer ? ` (by ${review.reviewer})` : ""}`,
      "pantheon review list --status pending",
    );
  }
  if (actor.kind === "unidentified") {
    throw new InvalidTransitionError(
      `Cannot ${verb} ${id} as ${actor.name}: a review is decided by a named reviewer`,
      IDENTIFY_HINT,
    );
  }
  if (!mayDecide(review, actor, force)) {
    throw new InvalidTransitionError(
      `Cannot ${verb} ${id} as ${actor.name}: ${actor.name} requested it; another persona should review it`,
      // Never "add --force" to the requester: the rule exists so that someone else looks at it.
      `another persona (an inspector, say) or the Director ${verb === "approve" ? "approves" : "rejects"} it; they find it with: pantheon review list --status pending`,
    );
  }
}

/** What `review show` says the actor may do with a review: its decisions, or why none. */
export interface ReviewActions {
  allowed: Array<"approve" | "reject">;
  /** Why the actor may not decide it (null when it may). */
  whyNot: string | null;
}

/** The decisions open to the actor, by the rules `checkReviewDecision` enforces (without --force). */
export function reviewActions(review: Review, actor: Actor): ReviewActions {
  if (review.status !== "PENDING")
    return { allowed: [], whyNot: `it is ${review.status}${review.reviewer ? ` (by ${review.reviewer})` : ""}` };
  if (actor.kind === "unidentified")
    return { allowed: [], whyNot: `a review is decided by a named reviewer, and ${actor.name} is not one` };
  if (!mayDecide(review, actor, false))
    return { allowed: [], whyNot: `${actor.name} requested it; another persona or the Director decides it` };
  return { allowed: ["approve", "reject"], whyNot: null };
}

/** Whether the actor may decide a review (not its own request, unless the Director or --force); not whether it is PENDING. */
export function mayDecide(review: Review, actor: Actor, force: boolean): boolean {
  if (actor.kind === "unidentified") return false;
  return actor.kind === "director" || force || !sameName(review.requestedBy, actor.name);
}

export function decideReview(
  review: Review,
  actor: Actor,
  at: string,
  status: "APPROVED" | "REJECTED",
  reason: string | null,
): Review {
  return { ...review, status, reviewer: actor.name, reason, updatedAt: at };
}

export function withdrawReview(review: Review, at: string, why: string): Review {
  return { ...review, status: "WITHDRAWN", reason: why, updatedAt: at };
}
