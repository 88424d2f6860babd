import { reviewId } from "../domain/ids.js";
import { taskRefId, type Refs } from "../domain/refs.js";
import type { Note } from "../domain/schemas/note.js";
import type { Review } from "../domain/schemas/review.js";
import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";
import { wrapLine } from "./wrap-text.js";

export interface ReviewView {
  id: string;
  number: number;
  title: string;
  type: Review["type"];
  status: Review["status"];
  task: string | null;
  requestedBy: string;
  reviewer: string | null;
  reason: string | null;
  artifact: string | null;
  createdAt: string;
  updatedAt: string;
}

export function reviewView(r: Review, refs: Refs): ReviewView {
  return {
    id: reviewId(r.number),
    number: r.number,
    title: r.title,
    type: r.type,
    status: r.status,
    task: r.task === null ? null : taskRefId(refs, r.task),
    requestedBy: r.requestedBy,
    reviewer: r.reviewer,
    reason: r.reason,
    artifact: r.artifact,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function reviewLabel(r: ReviewView): string {
  return `${r.id} "${escapeText(r.title)}" [${r.type}, ${r.status}]${r.task ? ` for ${r.task}` : ""}`;
}

export function reviewTable(reviews: ReviewView[], style: Style): string {
  const color = (v: string) =>
    v === "PENDING"
      ? style.paint.yellow
      : v === "APPROVED"
        ? style.paint.green
        : v === "REJECTED"
          ? style.paint.red
          : style.paint.gray;
  return table(
    [
      { header: "ID" },
      { header: "STATUS", color },
      // On a narrow terminal the type goes first, then the reviewer (review show has both).
      { header: "TYPE", drop: 1 },
      { header: "TASK" },
      { header: "REQUESTED BY" },
      { header: "REVIEWER", drop: 2 },
      { header: "TITLE", flex: true, min: 30 },
    ],
    reviews.map((r) => [r.id, r.status, r.type, r.task ?? "", r.requestedBy, r.reviewer ?? "", r.title]),
    style,
    "No reviews: pantheon review create --title ... (a task moved to REVIEW requests one)",
  );
}

/** `review show`: the review, what the actor may do with it (or why not), its task's latest notes. */
export type ReviewDetailView = ReviewView & {
  allowedActions: string[];
  /** Why the actor may not decide it; null when it may. */
  notAllowed: string | null;
  /** The latest notes of its task, oldest first; `taskNoteCount` says how many it has in all. */
  taskNotes: Note[];
  taskNoteCount: number;
};

export function reviewDetailView(d: {
  review: Review;
  refs: Refs;
  actions: { allowed: string[]; whyNot: string | null };
  taskNotes: Note[];
  taskNoteCount: number;
}): ReviewDetailView {
  return {
    ...reviewView(d.review, d.refs),
    allowedActions: d.actions.allowed,
    notAllowed: d.actions.whyNot,
    taskNotes: d.taskNotes,
    taskNoteCount: d.taskNoteCount,
  };
}

export function reviewDetailText(r: ReviewDetailView, style: Style): string {
  const p = style.paint;
  const field = (k: string, v: string) => `${p.dim(k.padEnd(13))} ${v}`;
  const lines = [`${p.bold(r.id)}  ${escapeText(r.title)}`, field("status", r.status), field("type", r.type)];
  if (r.task) lines.push(field("task", r.task));
  lines.push(field("requested by", escapeText(r.requestedBy)));
  if (r.reviewer) lines.push(field("reviewer", escapeText(r.reviewer)));
  if (r.reason) lines.push(field("reason", escapeText(r.reason)));
  if (r.artifact) lines.push(field("artifact", escapeText(r.artifact)));
  if (r.task && r.taskNotes.length > 0) {
    const count = r.taskNoteCount > r.taskNotes.length ? ` (latest ${r.taskNotes.length} of ${r.taskNoteCount})` : "";
    lines.push("", p.bold(`Notes on ${r.task}${count}`));
    // Whole, as task show gives them: a note is what the reviewer reads; wrapped at words.
    for (const n of r.taskNotes)
      lines.push(
        wrapLine(
          style,
          `  ${p.dim(n.at.replace("T", " ").slice(0, 16))} ${escapeText(n.by)} ${p.cyan(`[${n.kind}]`)} ${escapeText(n.text)}`,
          4,
        ),
      );
  }
  lines.push(
    "",
    p.dim(
      r.allowedActions.length > 0
        ? `You may: ${r.allowedActions.join(" · ")}`
        : `You may not decide it: ${escapeText(r.notAllowed ?? "")}`,
    ),
  );
  return lines.join("\n");
}
