import type { Review } from "./schemas/review.js";

/**
 * A PENDING review, with no reviewer yet: the one place a review record is built (`review
 * create`, and a task going to REVIEW).
 */
export function newReview(r: {
  uid: string;
  number: number;
  title: string;
  type: Review["type"];
  task: number | null;
  artifact: string | null;
  /** ISO-8601: created and updated. */
  at: string;
  /** Who asks: requester and creator. */
  by: string;
}): Review {
  return {
    uid: r.uid,
    number: r.number,
    title: r.title,
    type: r.type,
    status: "PENDING",
    task: r.task,
    requestedBy: r.by,
    reviewer: null,
    reason: null,
    artifact: r.artifact,
    formerNumbers: [],
    createdAt: r.at,
    updatedAt: r.at,
    createdBy: r.by,
  };
}
