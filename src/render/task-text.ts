import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";
import { table, type Column } from "./table.js";
import type { TaskDetailView, TaskRowView, TaskSummaryView } from "./task-view.js";

/** Colour per status, shared by every task table and the dashboard. */
export function statusColor(style: Style, status: string): ((s: string) => string) | undefined {
  const p = style.paint;
  switch (status) {
    case "TODO":
      return undefined;
    case "READY":
      return p.cyan;
    case "UNDERWAY":
      return p.yellow;
    case "REVIEW":
      return p.magenta;
    case "BLOCKED":
      return p.red;
    case "COMPLETE":
      return p.green;
    case "ABORTED":
      return p.gray;
    default:
      return undefined;
  }
}

/** `ENG-H-0007 "Add login" [HIGH, engineer, TODO]`: the record a ✓ line names. */
export function taskLabel(t: Pick<TaskSummaryView, "id" | "title" | "priority" | "role" | "status">): string {
  return `${t.id} "${escapeText(t.title)}" [${t.priority}, ${t.role}, ${t.status}]`;
}

/** A task table; with no tasks a terminal shows `empty`, a pipe the header row. */
export function taskTable(tasks: readonly TaskRowView[], style: Style, empty = "No tasks match."): string {
  const columns: Column[] = [
    { header: "ID" },
    { header: "STATUS", color: (v) => statusColor(style, v) },
    { header: "TITLE", flex: true },
    { header: "CLAIMED BY" },
    { header: "BLOCKED BY" },
  ];
  const rows = tasks.map((t) => [
    t.id,
    t.status,
    t.title,
    t.claimedBy && ["UNDERWAY", "REVIEW", "BLOCKED"].includes(t.status) ? t.claimedBy : "",
    t.blockedBy.join(","),
  ]);
  return table(columns, rows, style, empty);
}

/** The human view of `task show`. */
export function taskDetailText(t: TaskDetailView, style: Style): string {
  const p = style.paint;
  const color = statusColor(style, t.status) ?? ((s: string) => s);
  const field = (k: string, v: string) => `${p.dim(k.padEnd(12))} ${v}`;
  const lines = [
    `${p.bold(t.id)}  ${escapeText(t.title)}`,
    field(
      "status",
      color(t.status) +
        (t.claimedBy && ["UNDERWAY", "REVIEW", "BLOCKED"].includes(t.status)
          ? ` (claimed by ${escapeText(t.claimedBy)}${t.mission ? `, ${t.mission}` : ""})`
          : ""),
    ),
    field("role", t.role),
    field("priority", t.priority),
  ];
  if (t.epic) lines.push(field("epic", t.epic));
  if (t.dependencies.length > 0) lines.push(field("depends on", t.dependencies.join(", ")));
  if (t.blockedBy.length > 0) lines.push(field("blocked by", p.red(t.blockedBy.join(", "))));
  if (t.waitingOnReview.length > 0) lines.push(field("in review", t.waitingOnReview.join(", ")));
  if (t.completedBy) lines.push(field("completed by", escapeText(t.completedBy)));
  if (t.formerIds.length > 0) lines.push(field("formerly", t.formerIds.join(", ")));
  lines.push(
    field("created", t.createdAt.replace("T", " ").slice(0, 16)),
    field("updated", t.updatedAt.replace("T", " ").slice(0, 16)),
  );
  if (t.description) lines.push("", ...t.description.split("\n").map(escapeText));
  if (t.notes.length > 0) {
    lines.push("", p.bold("Notes"));
    for (const n of t.notes)
      lines.push(
        `  ${p.dim(n.at.replace("T", " ").slice(0, 16))} ${escapeText(n.by)} ${p.cyan(`[${n.kind}]`)} ${escapeText(n.text)}`,
      );
  }
  if (t.allowedActions.length > 0) lines.push("", p.dim(`You may: ${t.allowedActions.join(" · ")}`));
  return lines.join("\n");
}
