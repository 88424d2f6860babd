import { reviewId } from "../domain/ids.js";
import { taskRefId, type Refs } from "../domain/refs.js";
import type { Review } from "../domain/schemas/review.js";
import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";

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

export function reviewDetailText(r: ReviewView, style: Style): string {
  const p = style.paint;
  const field = (k: string, v: string) => `${p.dim(k.padEnd(13))} ${v}`;
  const lines = [`${p.bold(r.id)}  ${escapeText(r.title)}`, field("status", r.status), field("type", r.type)];
  if (r.task) lines.push(field("task", r.task));
  lines.push(field("requested by", escapeText(r.requestedBy)));
  if (r.reviewer) lines.push(field("reviewer", escapeText(r.reviewer)));
  if (r.reason) lines.push(field("reason", escapeText(r.reason)));
  if (r.artifact) lines.push(field("artifact", escapeText(r.artifact)));
  return lines.join("\n");
}
