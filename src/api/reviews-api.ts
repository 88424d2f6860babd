import { parseReviewStatus, parseReviewType } from "../domain/review-values.js";
import { reviewDetailView, reviewView, type ReviewDetailView, type ReviewView } from "../render/review-view.js";
import { approveReview, rejectReview, type DecisionResult } from "../services/work/decide-review.js";
import { createReview, listReviews, showReview } from "../services/work/reviews.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import { defined, oneOrMany, type ReviewStatusInput, type ReviewTypeInput } from "./inputs.js";

/** Reviews: a task moved to REVIEW requests one by itself; deciding it moves the task. */
export interface ReviewsApi {
  /** `review create`: type defaults to task_completion with a task, else general. */
  create(
    input: CallOptions & { title: string; type?: ReviewTypeInput; task?: string; artifact?: string },
  ): Promise<ReviewView>;
  /** `review list`. */
  list(o?: CallOptions & { status?: ReviewStatusInput | ReviewStatusInput[] }): Promise<ReviewView[]>;
  /** `review show`: with what the actor may do (`allowedActions`, else `notAllowed`) and its task's latest notes. */
  show(id: string, o?: CallOptions): Promise<ReviewDetailView>;
  /** `review approve`: its task, if in REVIEW, becomes COMPLETE in the same commit. */
  approve(id: string, o?: CallOptions & { notes?: string; force?: boolean }): Promise<ReviewView>;
  /**
   * `review reject`: its task, if in REVIEW, goes back to UNDERWAY with what must change as a
   * note: `notes` (as every task command), or `reason`, its older name; not both.
   */
  reject(
    id: string,
    o: CallOptions & ({ notes: string; reason?: never } | { reason: string; notes?: never }) & { force?: boolean },
  ): Promise<ReviewView>;
}

const decided = (r: DecisionResult): ReviewView => reviewView(r.review, r.refs);

export function reviewsApi(contexts: ContextFactory): ReviewsApi {
  return {
    async create(i) {
      const r = await createReview(
        contexts.for(i),
        defined({
          title: i.title,
          type: i.type === undefined ? undefined : parseReviewType(i.type),
          task: i.task,
          artifact: i.artifact,
        }),
      );
      return reviewView(r.review, r.refs);
    },
    async list(o = {}) {
      const r = await listReviews(contexts.for(o), { status: oneOrMany(o.status, parseReviewStatus) });
      return r.reviews.map((x) => reviewView(x, r.refs));
    },
    show: async (id, o) => reviewDetailView(await showReview(contexts.for(o), id)),
    approve: async (id, o = {}) =>
      decided(await approveReview(contexts.for(o), { id, notes: o.notes, force: o.force })),
    reject: async (id, o) =>
      decided(await rejectReview(contexts.for(o), { id, notes: o.notes, reason: o.reason, force: o.force })),
  };
}
