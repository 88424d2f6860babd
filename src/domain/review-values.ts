import { UsageError } from "../errors.js";
import { REVIEW_STATUSES, REVIEW_TYPES } from "./constants.js";

export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export type ReviewType = (typeof REVIEW_TYPES)[number];

/** `pending`, `PENDING`: a review status in any case. */
export function parseReviewStatus(s: string): ReviewStatus {
  const v = s.trim().toUpperCase();
  const found = REVIEW_STATUSES.find((x) => x === v);
  if (!found) throw new UsageError(`Unknown review status "${s}"`, `statuses: ${REVIEW_STATUSES.join(", ")}`);
  return found;
}

/** `design`, `TASK-COMPLETION`: a review type in any case, `-` for `_`. */
export function parseReviewType(s: string): ReviewType {
  const v = s.trim().toLowerCase().replace(/-/g, "_");
  const found = REVIEW_TYPES.find((x) => x === v);
  if (!found) throw new UsageError(`Unknown review type "${s}"`, `types: ${REVIEW_TYPES.join(", ")}`);
  return found;
}
