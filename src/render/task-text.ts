import { criteriaProgress } from "../domain/acceptance.js";
import { displayWidth, escapeText, truncate } from "./escape.js";
import type { Style } from "./paint.js";
import { fitIds, table, tableFits, type Column } from "./table.js";
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

/** A title keeps at least this much on a terminal: other columns give way first. */
const TITLE_MIN = 40;

const claimant = (t: TaskRowView) =>
  t.claimedBy && ["UNDERWAY", "REVIEW", "BLOCKED"].includes(t.status) ? t.claimedBy : "";

/**
 * A task table; with no tasks a terminal shows `empty`, a pipe the header row. On a terminal too
 * narrow for both CLAIMED BY and BLOCKED BY beside a legible title, they share one column (a
 * claimed task rarely waits, a waiting one is rarely claimed): `Athena`, `← ENG-H-0003 +2`.
 * LABELS and AC (criteria checked/total) follow only when some listed task has them, so the
 * columns of projects without them stay as they were for scripts that cut them; LABELS gives
 * way before the title does.
 */
export function taskTable(tasks: readonly TaskRowView[], style: Style, empty = "No tasks match."): string {
  const labels = tasks.some((t) => t.labels.length > 0);
  const criteria = tasks.some((t) => t.acceptance.length > 0);
  const head: Column[] = [
    { header: "ID" },
    { header: "STATUS", color: (v) => statusColor(style, v) },
    { header: "TITLE", flex: true, min: TITLE_MIN },
  ];
  const tail: Column[] = [...(labels ? [{ header: "LABELS", min: 8 }] : []), ...(criteria ? [{ header: "AC" }] : [])];
  const extra = (t: TaskRowView) => [
    ...(labels ? [t.labels.join(",")] : []),
    ...(criteria ? [criteriaProgress(t.acceptance)] : []),
  ];
  const columns: Column[] = [
    ...head,
    { header: "CLAIMED BY" },
    { header: "BLOCKED BY", min: 13, fit: fitIds },
    ...tail,
  ];
  const rows = tasks.map((t) => [t.id, t.status, t.title, claimant(t), t.blockedBy.join(","), ...extra(t)]);
  if (tableFits(columns, rows, style)) return table(columns, rows, style, empty);
  const merged: Column = { header: "HELD/BLOCKED BY", min: 15, fit: fitHeldBlocked };
  const cell = (t: TaskRowView) =>
    [claimant(t), t.blockedBy.length > 0 ? `← ${t.blockedBy.join(",")}` : ""].filter(Boolean).join(" ");
  return table(
    [...head, merged, ...tail],
    tasks.map((t) => [t.id, t.status, t.title, cell(t), ...extra(t)]),
    style,
    empty,
  );
}

/** `Athena ← ENG-H-0003 +2` cut to a width: the ids give way first, then the name. */
function fitHeldBlocked(value: string, w: number): string {
  const at = value.indexOf("← ");
  if (at < 0) return truncate(value, w);
  const name = value.slice(0, at);
  const ids = value.slice(at + 2);
  const room = w - displayWidth(name) - 2;
  const count = ids.split(",").length;
  if (room >= 10) return `${name}← ${fitIds(ids, room)}`;
  return name === ""
    ? `← ${fitIds(ids, w - 2)}`
    : `${truncate(name.trimEnd(), Math.max(1, w - 4 - String(count).length))} ←+${count}`;
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
  if (t.labels.length > 0) lines.push(field("labels", t.labels.map(escapeText).join(", ")));
  if (t.formerIds.length > 0) lines.push(field("formerly", t.formerIds.join(", ")));
  lines.push(
    field("created", t.createdAt.replace("T", " ").slice(0, 16)),
    field("updated", t.updatedAt.replace("T", " ").slice(0, 16)),
  );
  if (t.description) lines.push("", ...t.description.split("\n").map(escapeText));
  if (t.acceptance.length > 0) {
    lines.push("", p.bold(`Acceptance criteria (${criteriaProgress(t.acceptance)})`));
    for (const [i, c] of t.acceptance.entries())
      lines.push(`  ${c.done ? p.green("[x]") : "[ ]"} ${i + 1}. ${escapeText(c.text)}`);
  }
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
