import type { Command } from "commander";
import { taskId } from "../../domain/ids.js";
import { linkedTaskView, planView, taskSummaryView } from "../../render/task-view.js";
import { taskLabel } from "../../render/task-text.js";
import { linkTasks, unlinkTasks } from "../../services/work/epics.js";

import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, MappedList, view } from "../view.js";

export function registerTaskOrganizeCommands(task: Command, app: App): void {
  examples(
    task
      .command("import <file>")
      .description("Create many tasks from a YAML or JSON list, in file order, in one commit")
      .option("--force", FORCE_RENUMBERED)
      .addHelpText(
        "after",
        "\nEach entry: title, role, priority?, description?, depends_on? (the key of another entry, earlier or later, or an existing task id/number), epic?, labels? (a list of words), acceptance? (a list of one-line criteria, or {text, done}), key?\n",
      )
      .action(
        run(app, async (file: string) => {
          // Loaded here only: import brings the YAML parser and the entry schema.
          const { importTasks } = await import("../../services/work/import-tasks.js");
          const { tasks: created, refs } = await importTasks(app.context(), file);
          // Views made as the JSON is written: an import of 100,000 tasks holds no second copy.
          const data = new MappedList(created, (t) => taskSummaryView(t, refs));
          return view("tasks", data, (s) => {
            const head = check(
              s,
              `Imported ${created.length} task${created.length === 1 ? "" : "s"}: ${taskId(created[0]!)}${created.length > 1 ? ` … ${taskId(created.at(-1)!)}` : ""}`,
            );
            return created.length <= 20 ? [head, ...data.toJSON().map((t) => `  ${taskLabel(t)}`)].join("\n") : head;
          });
        }),
      ),
    ["pantheon task import plan.yaml"],
  );

  examples(
    task
      .command("plan <id>")
      .description("Write (or find) the task's planning note: .pantheon/planning/<id>.md")
      .action(
        run(app, async (id: string) => {
          const { planTask } = await import("../../services/work/task-plan.js");
          const r = await planTask(app.context(), id);
          const data = planView(r);
          const what = r.action === "created" ? "Wrote" : r.action === "renamed" ? `Renamed ${r.from} to` : "Found";
          return view("plan", data, (s) => check(s, `${what} ${r.path} for ${taskId(r.task)}`));
        }),
      ),
    ["pantheon task plan ENG-H-0007"],
  );

  examples(
    task
      .command("link <id> <epic>")
      .description("Link a task to an epic")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, epic: string) => {
          const r = await linkTasks(app.context(), { epic, tasks: [id] });
          const data = linkedTaskView(r);
          return view("task", data, (s) =>
            check(s, data ? `Linked ${taskLabel(data)} to ${data.epic}` : `Already linked`),
          );
        }),
      ),
    ["pantheon task link ENG-H-0002 EPC-H-0001"],
  );

  examples(
    task
      .command("unlink <id>")
      .description("Unlink a task from its epic")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string) => {
          const r = await unlinkTasks(app.context(), { tasks: [id] });
          const data = taskSummaryView(r.changed[0]!, r.refs);
          return view("task", data, (s) => check(s, `Unlinked ${taskLabel(data)} from ${r.epic.title}`));
        }),
      ),
    ["pantheon task unlink ENG-H-0002"],
  );
}
