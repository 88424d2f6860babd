import type { Command } from "commander";
import { parsePriority } from "../../domain/priority.js";
import { parseTaskRole } from "../../domain/roles.js";
import { parseTaskStatus } from "../../domain/task-status.js";
import { parseLabels } from "../../domain/labels.js";
import { taskDetailView, taskRowView, taskSummaryView } from "../../render/task-view.js";
import { taskDetailText, taskTable } from "../../render/task-text.js";
import { listTasks, showTask } from "../../services/views/read-tasks.js";
import type { App } from "../app.js";
import { collect, examples, intOption, list, run } from "../command-kit.js";
import { MappedList, view } from "../view.js";

interface ListOptions {
  status?: string[];
  role?: string[];
  priority?: string[];
  epic?: string;
  claimedBy?: string;
  blocked?: boolean;
  ready?: boolean;
  label?: string[];
  limit?: number;
  offset?: number;
}

export function registerTaskReadCommands(task: Command, app: App): void {
  examples(
    task
      .command("show <id>")
      .description("Show a task, its notes and what you may do with it")
      .action(
        run(app, async (id: string) => {
          const r = await showTask(app.context(), id);
          const data = taskDetailView(r.task, r.refs, r.allowedActions);
          return view("task", data, (s) => taskDetailText(data, s));
        }),
      ),
    ["pantheon task show ENG-H-0007", "pantheon task show 7 --json | jq .data.allowedActions"],
  );

  examples(
    task
      .command("list")
      .description("List tasks by number; every filter narrows the list")
      .option(
        "--status <s>",
        "TODO, READY, UNDERWAY, REVIEW, BLOCKED, COMPLETE, ABORTED (repeatable or comma-separated)",
        collect,
      )
      .option("--role <r>", "task role (repeatable)", collect)
      .option("--priority <p>", "priority (repeatable)", collect)
      .option("--epic <id>", "tasks of this epic")
      .option("--claimed-by <persona>", "tasks claimed by this persona")
      .option("--blocked", "open tasks with an unfinished dependency")
      .option("--ready", "TODO or READY tasks with nothing blocking them")
      .option("--label <label>", "tasks with this label (repeatable or comma-separated: all of them)", collect)
      .option("--limit <n>", "at most n tasks", intOption("--limit", 1))
      .option("--offset <n>", "skip the first n matches", intOption("--offset"))
      .action(
        run(app, async (o: ListOptions) => {
          const page = await listTasks(app.context(), {
            status: list(o.status, (s) => parseTaskStatus(s)),
            role: list(o.role, (r) => parseTaskRole(r)),
            priority: list(o.priority, (p) => parsePriority(p)),
            ...(o.epic !== undefined && { epic: o.epic }),
            ...(o.claimedBy !== undefined && { claimedBy: o.claimedBy }),
            ...(o.blocked && { blocked: true }),
            ...(o.ready && { ready: true }),
            ...(o.label !== undefined && { label: parseLabels(o.label) }),
            ...(o.limit !== undefined && { limit: o.limit }),
            ...(o.offset !== undefined && { offset: o.offset }),
          });
          const data = new MappedList(page.tasks, (t) => taskSummaryView(t, page.refs));
          return view("tasks", data, (s) => {
            const body = taskTable(
              page.tasks.map((t) => taskRowView(t, page.refs)),
              s,
            );
            const more =
              page.total > data.length && s.tty
                ? `\n${s.paint.dim(`${data.length} of ${page.total} shown (--limit, --offset)`)}`
                : "";
            return body + more;
          });
        }),
      ),
    [
      "pantheon task list --status underway,review",
      "pantheon task list --role eng --ready --limit 10",
      "pantheon task list --label api --label auth",
      "pantheon task list --json | jq -r '.data[].id'",
    ],
  );
}
