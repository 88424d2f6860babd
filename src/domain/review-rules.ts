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
