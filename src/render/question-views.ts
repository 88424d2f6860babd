import type { Refs } from "../domain/refs.js";
import type { Note } from "../domain/schemas/note.js";
import type { TaskSummary } from "../domain/schemas/task.js";
import { escapeText } from "./escape.js";
import { fitLine } from "./fit-line.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";
import { taskSummaryView, type TaskSummaryView } from "./task-view.js";
import { wrapLine } from "./wrap-text.js";

export type NextView = TaskSummaryView & { reason: string };

function age(fromIso: string, now: Date): string {
  const days = Math.floor((now.getTime() - Date.parse(fromIso)) / 86_400_000);
  return days <= 0 ? "today" : days === 1 ? "1 day" : `${days} days`;
}

/** Why `task next` offers a task: priority, readiness, age, and any dependency still in review. */
export function nextView(task: TaskSummary, refs: Refs, now: Date, handoff: Note | null = null): NextView {
  const v = taskSummaryView(task, refs);
  const parts = [
    `${task.priority} priority`,
    task.status === "READY" ? "handed off and ready" : "ready",
    `waiting ${age(task.createdAt, now)}`,
  ];
  if (v.waitingOnReview.length > 0) parts.push(`${v.waitingOnReview.join(", ")} still in review: its work may change`);
  if (handoff) parts.push(`handoff note by ${handoff.by}: ${handoff.text.slice(0, 80)}`);
  return { ...v, reason: parts.join("; ") };
}

/** `task next`: each task on a line cut to the terminal, its reason wrapped at words beneath. */
export function nextText(tasks: NextView[], style: Style, role: string | null): string {
  if (tasks.length === 0)
    return style.paint.dim(`Nothing ready${role ? ` for ${role}` : ""}: see pantheon task blocked`);
  return tasks
    .map((t, i) =>
      [
        fitLine(style, [{ text: `${i + 1}. ${t.id}`, color: style.paint.bold }, "  ", t.title]),
        ...wrapLine(style, `   ${escapeText(t.reason)}`)
          .split("\n")
          .map((l) => style.paint.dim(l)),
      ].join("\n"),
    )
    .concat(
      wrapLine(style, CHECK_CLAIM)
        .split("\n")
        .map((l) => style.paint.dim(l)),
    )
    .join("\n");
}

/**
 * Said under the offer (DESIGN §3.5): a claim that did not reach the remote may be held by
 * another persona too, and is dropped by the next sync if theirs got there first.
 */
export const CHECK_CLAIM =
  "Claim one with pantheon task claim ID; before starting, check it did not say `not published yet` (else pantheon sync first)";

/**
 * `task prereqs`: the chain in workable order, with who holds each. For an epic the chain ends
 * with its own open tasks: what must be done before it is.
 */
export function prereqText(
  goal: { kind: "task" | "epic"; id: string; title: string },
  chain: TaskSummaryView[],
  style: Style,
): string {
  if (chain.length === 0)
    return goal.kind === "epic" ? `${goal.id} has no open task` : `${goal.id} has no unfinished prerequisites`;
  const rows = chain.map((t, i) => [
    String(i + 1),
    t.id,
    t.status,
    t.claimedBy && ["UNDERWAY", "REVIEW", "BLOCKED"].includes(t.status) ? t.claimedBy : "—",
    t.title,
  ]);
  const columns = [
    { header: "#" },
    { header: "ID" },
    { header: "STATUS" },
    { header: "HELD BY" },
    { header: "TITLE", flex: true, min: 40 },
  ];
  const lead = goal.kind === "epic" ? "To finish" : "Before";
  return `${lead} ${goal.id} "${escapeText(goal.title)}", in order:\n${table(columns, rows, style)}`;
}

export type SearchResultView = TaskSummaryView & { score: number };

/** `task search`: a summary with its rank, rounded to three decimals. */
export function searchResultView(task: TaskSummary, refs: Refs, score: number): SearchResultView {
  return { ...taskSummaryView(task, refs), score: Math.round(score * 1000) / 1000 };
}
