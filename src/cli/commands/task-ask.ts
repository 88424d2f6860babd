import type { Command } from "commander";
import { TASK_STATUSES } from "../../domain/task-status.js";
import { parseTaskRole } from "../../domain/roles.js";
import { escapeText } from "../../render/escape.js";
import { bar, percent } from "../../render/bar.js";
import { nextText, nextView, prereqText, searchResultView } from "../../render/question-views.js";
import { taskSummaryView } from "../../render/task-view.js";
import { taskTable } from "../../render/task-text.js";
import { listBlocked, myTasks, nextForRole, prereqsOf, reportTasks, search } from "../../services/views/ask-tasks.js";
import { taskHistory } from "../../services/views/task-history.js";
import type { App } from "../app.js";
import { collect, examples, intOption, run } from "../command-kit.js";
import { parseLabels } from "../../domain/labels.js";
import { view } from "../view.js";

export function registerTaskAskCommands(task: Command, app: App): void {
  examples(
    task
      .command("next")
      .description("What to work on: ready tasks of a role by priority then age, each with a reason")
      .option("--role <role>", "the role (default: your mission's)")
      .option("--count <n>", "how many (default 5)", intOption("--count", 1))
      .option("--label <label>", "only tasks with this label (repeatable: all of them)", collect)
      .action(
        run(app, async (o: { role?: string; count?: number; label?: string[] }) => {
          const r = await nextForRole(app.context(), {
            ...(o.role !== undefined && { role: parseTaskRole(o.role) }),
            ...(o.count !== undefined && { count: o.count }),
            ...(o.label !== undefined && { label: parseLabels(o.label) }),
          });
          const now = app.context().now();
          const data = r.tasks.map((t) => nextView(t, r.refs, now, r.handoffs.get(t.number) ?? null));
          return view("tasks", data, (s) => nextText(data, s, r.role));
        }),
      ),
    [
      "pantheon task next --role engineer",
      "pantheon task next --label api",
      "pantheon --mission MSN-0003 task next --count 1 --json",
    ],
  );

  examples(
    task
      .command("report")
      .description("Counts per status and the completion rate (COMPLETE / (total − ABORTED))")
      .action(
        run(app, async () => {
          const data = await reportTasks(app.context());
          return view("report", data, (s) =>
            [
              `${data.total} tasks, ${percent(data.completionRate)} complete  ${bar(data.completionRate, 20, s)}`,
              ...TASK_STATUSES.map((st) => `  ${st.padEnd(9)} ${String(data.byStatus[st]).padStart(5)}`),
            ].join("\n"),
          );
        }),
      ),
    ["pantheon task report --json | jq .data.completionRate"],
  );

  examples(
    task
      .command("blocked")
      .description("Open tasks with unfinished dependencies, and what blocks them")
      .action(
        run(app, async () => {
          const r = await listBlocked(app.context());
          const data = r.tasks.map((t) => taskSummaryView(t, r.refs));
          return view("tasks", data, (s) => taskTable(data, s, "Nothing is blocked."));
        }),
      ),
    ["pantheon task blocked"],
  );

  examples(
    task
      .command("search <words...>")
      .description("Ranked full-text search over titles, labels, descriptions, acceptance criteria and notes")
      .option("--limit <n>", "at most n results (default 20)", intOption("--limit", 1))
      .action(
        run(app, async (words: string[], o: { limit?: number }) => {
          const r = await search(app.context(), {
            words: words.join(" "),
            ...(o.limit !== undefined && { limit: o.limit }),
          });
          const data = r.tasks.map((t, i) => searchResultView(t, r.refs, r.scores[i]!));
          return view("tasks", data, (s) => taskTable(data, s, "No task matches."));
        }),
      ),
    ["pantheon task search login token", 'pantheon task search "rate limit" --json'],
  );

  examples(
    task
      .command("prereqs <id>")
      .description(
        "Everything unfinished that a task (or an epic's open tasks) depends on, in an order that can be worked, with who holds each",
      )
      .action(
        run(app, async (id: string) => {
          const r = await prereqsOf(app.context(), id);
          const data = r.tasks.map((t) => taskSummaryView(t, r.refs));
          return view("tasks", data, (s) => prereqText(r.goal, data, s));
        }),
      ),
    ["pantheon task prereqs OPR-H-0012", "pantheon task prereqs EPC-H-0001   # what must be done before the release"],
  );

  examples(
    task
      .command("mine")
      .description("Your live claims (as --as, --mission or PANTHEON_MISSION)")
      .action(
        run(app, async () => {
          const r = await myTasks(app.context());
          const data = r.tasks.map((t) => taskSummaryView(t, r.refs));
          return view("tasks", data, (s) => taskTable(data, s, `${r.persona} holds no task: pantheon task next`));
        }),
      ),
    ["pantheon --mission MSN-0003 task mine"],
  );

  examples(
    task
      .command("history <id>")
      .description("A task's changes, from the commit log")
      .action(
        run(app, async (id: string) => {
          const r = await taskHistory(app.context(), id);
          const data = r.events;
          return view("history", data, (s) =>
            data
              .map(
                (e) =>
                  `${s.paint.dim(e.date.replace("T", " ").slice(0, 16))} ${s.paint.bold(escapeText(e.actor))} ${e.op}\n${e.changes.map((c) => `    ${escapeText(c)}`).join("\n")}`,
              )
              .join("\n"),
          );
        }),
      ),
    ["pantheon task history ENG-H-0007"],
  );
}
