import { sameName } from "../actor.js";
import { MAX_TEXT } from "../constants.js";
import { reviewId } from "../ids.js";
import { withdrawReview } from "../review-rules.js";
import { describeValue, later, mergeNote, withNotes } from "./conflict-notes.js";
import { isRecord } from "./merge-sides.js";
import type { MergeInput, MergeOutput, Touched, Write } from "./merge-state.js";

/**
 * What a merge owes records beside the one it merged (DESIGN §3.3, §3.5), once every record is
 * merged:
 * - a review this clone requested for a claim the merge dropped is WITHDRAWN, with a note on its
 *   task: the claimant no longer holds the task, and a PENDING request of theirs would be
 *   approved on a task someone else works (the soak found tasks with four approvals);
 * - a review decided differently on both sides (two reviewers at once) keeps the losing verdict,
 *   its reason whole, as a conflict note on the review's task: a review has no notes of its own,
 *   and the report says where the value went.
 */
export function mergeFollowUps(input: MergeInput, out: MergeOutput): void {
  const tasks = new Records(out.writes.tasks, input.touched.tasks, input.published?.tasks);
  const reviews = new Records(out.writes.reviews, input.touched.reviews);
  for (const d of out.droppedClaims) {
    // Only this clone's own changes are in the writes: a request published earlier was not made for this claim.
    for (const w of [...out.writes.reviews]) {
      const review = reviews.at(w.number);
      if (!review || review.task !== d.task || review.status !== "PENDING" || !sameName(review.requestedBy, d.local))
        continue;
      const task = tasks.at(d.task);
      const at = later(review.updatedAt, task?.updatedAt ?? review.updatedAt);
      const first = d.remote ? `${d.remote}'s claim reached ${input.remote} first` : `${input.remote} changed it first`;
      reviews.put(
        w.number,
        withdrawReview(
          review,
          at,
          `withdrawn at sync with ${input.remote}: ${d.local}'s claim of the task was dropped (${first})`,
        ),
      );
      out.withdrawn.push({ review: w.number, task: d.task, requester: d.local });
      if (task)
        tasks.put(
          d.task,
          withNotes(task, [
            mergeNote(
              task.uid,
              at,
              "conflict",
              `${reviewId(w.number)} requested by ${d.local} was withdrawn at sync with ${input.remote}: the claim it was for was dropped (${first})`,
            ),
          ]),
        );
    }
  }
  for (const c of out.conflicts) {
    if (c.kind !== "reviews" || !(c.fields.includes("status") || c.fields.includes("(whole record)"))) continue;
    const review = reviews.at(c.number);
    const task = review?.task != null ? tasks.at(review.task) : null;
    if (!review || !task) continue;
    const text = `${reviewId(c.number)}: sync with ${input.remote} kept ${describeValue(c.remote, MAX_TEXT)} from ${input.remote}; this clone had ${describeValue(c.local, MAX_TEXT)}`;
    tasks.put(
      task.number,
      withNotes(task, [mergeNote(task.uid, later(task.updatedAt, review.updatedAt), "conflict", text)]),
    );
    c.noted = { kind: "tasks", number: task.number };
  }
}

/** A kind's records as the merge leaves them: what it writes, else the published side's. */
class Records<T extends { number: number }> {
  constructor(
    private readonly writes: Write<T>[],
    private readonly touched: Touched<T>[],
    private readonly published?: ReadonlyMap<number, T>,
  ) {}

  at(n: number): T | null {
    const w = this.writes.find((x) => x.number === n);
    const t = this.touched.find((x) => x.number === n);
    if (w) {
      if ("value" in w) return w.value;
      if ("delete" in w) return null;
      return t && isRecord(t.local) ? t.local : null; // the local blob, as it is
    }
    if (t) return isRecord(t.remote) ? t.remote : null;
    return this.published?.get(n) ?? null;
  }

  put(n: number, value: T): void {
    const i = this.writes.findIndex((x) => x.number === n);
    if (i >= 0) this.writes[i] = { number: n, value };
    else this.writes.push({ number: n, value });
  }
}
