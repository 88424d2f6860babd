import { epicId } from "../domain/ids.js";
import type { EpicProgress, EpicStatus } from "../domain/epic-progress.js";
import type { Refs } from "../domain/refs.js";
import type { Epic } from "../domain/schemas/epic.js";
import type { TaskSummary as Task } from "../domain/schemas/task.js";
import { bar } from "./bar.js";
import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";
import { taskSummaryView, type TaskSummaryView } from "./task-view.js";

export interface EpicView {
  id: string;
  number: number;
  title: string;
  description: string;
  priority: Epic["priority"];
  status: EpicStatus;
  aborted: string | null;
  progress: EpicProgress;
  tasks: TaskSummaryView[];
  createdAt: string;
  updatedAt: string;
}

export function epicView(d: {
  epic: Epic;
  status: EpicStatus;
  progress: EpicProgress;
  tasks: Task[];
  refs: Refs;
}): EpicView {
  return {
    id: epicId(d.epic),
    number: d.epic.number,
    title: d.epic.title,
    description: d.epic.description,
    priority: d.epic.priority,
    status: d.status,
    aborted: d.epic.aborted,
    progress: d.progress,
    tasks: d.tasks.map((t) => taskSummaryView(t, d.refs)),
    createdAt: d.epic.createdAt,
    updatedAt: d.epic.updatedAt,
  };
}

/** `EPC-H-0001 "Login" [HIGH, UNDERWAY] 1/3`. */
export function epicLabel(e: EpicView): string {
  return `${e.id} "${escapeText(e.title)}" [${e.priority}, ${e.status}] ${e.progress.complete}/${e.progress.total}`;
}

/** One line per epic with its bar. */
export function epicTable(epics: EpicView[], style: Style): string {
  return table(
    [
      { header: "ID" },
      { header: "STATUS" },
      { header: "PROGRESS", raw: true },
      { header: "DONE" },
      { header: "TITLE", flex: true, min: 24 },
    ],
    epics.map((e) => [
      e.id,
      e.status,
      bar(e.progress.percent / 100, 16, style),
      `${e.progress.complete}/${e.progress.total} ${e.progress.percent}%`,
      e.title,
    ]),
    style,
    "No epics: pantheon epic create --title ...",
  );
}
