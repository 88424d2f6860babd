import type { Command } from "commander";
import { taskId } from "../../domain/ids.js";
import { parsePriority } from "../../domain/priority.js";
import { parseTaskRole } from "../../domain/roles.js";
import { taskSummaryView } from "../../render/task-view.js";
import { taskLabel } from "../../render/task-text.js";
import type { TaskResult } from "../../services/work/create-task.js";
import { dependTask, editTaskFields, noteTask, setTaskPriority, undependTask } from "../../services/work/edit-task.js";
import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view, type View } from "../view.js";

function editView(r: TaskResult, line: (label: string) => string, extra: string[] = []): View {
  const data = taskSummaryView(r.task, r.refs);
  return view("task", data, (s) => [check(s, line(taskLabel(data))), ...extra].join("\n"));
}

export function registerTaskEditCommands(task: Command, app: App): void {
  examples(
    task
      .command("note <id> <text>")
      .description("Add a note to a task (any state)")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, text: string) =>
          editView(await noteTask(app.context(), { id, text }), (l) => `Noted on ${l}`),
        ),
      ),
    ['pantheon task note ENG-H-0007 "token refresh needs a lock; see ADR-3"'],
  );

  examples(
    task
      .command("depend <id> <deps...>")
      .description("Make a task depend on others (a cycle or a self-dependency is refused)")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, deps: string[]) => {
          const r = await dependTask(app.context(), { id, deps });
          return editView(
            r,
            (l) =>
              `${l} now depends on ${r.task.dependencies.map((n) => (r.refs.tasks.get(n) ? taskId(r.refs.tasks.get(n)!) : `#${n}`)).join(", ")}`,
          );
        }),
      ),
    ["pantheon task depend TST-M-0008 ENG-H-0007", "pantheon task depend 9 7 8"],
  );

  examples(
    task
      .command("undepend <id> <deps...>")
      .description("Remove dependencies (for example an ABORTED one that blocks)")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, deps: string[]) =>
          editView(await undependTask(app.context(), { id, deps }), (l) => `Removed dependencies of ${l}`),
        ),
      ),
    ["pantheon task undepend TST-M-0008 ENG-H-0007"],
  );

  examples(
    task
      .command("priority <id> <priority>")
      .description("Change a task's priority (its id's letter follows)")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, p: string) => {
          const r = await setTaskPriority(app.context(), { id, priority: parsePriority(p, "priority") });
          const was = taskId(r.before);
          return editView(r, (l) => (was === taskId(r.task) ? `Priority of ${l} unchanged` : `${was} is now ${l}`));
        }),
      ),
    ["pantheon task priority ENG-M-0007 high"],
  );

  examples(
    task
      .command("edit <id>")
      .description("Edit a task's title, description or role")
      .option("--force", FORCE_RENUMBERED)
      .option("--title <text>", "new title")
      .option("--description <text>", "new description")
      .option("--role <role>", "new role (only while unclaimed)")
      .action(
        run(app, async (id: string, o: { title?: string; description?: string; role?: string }) => {
          const r = await editTaskFields(app.context(), {
            id,
            ...(o.title !== undefined && { title: o.title }),
            ...(o.description !== undefined && { description: o.description }),
            ...(o.role !== undefined && { role: parseTaskRole(o.role) }),
          });
          const was = taskId(r.before);
          return editView(r, (l) => (was === taskId(r.task) ? `Edited ${l}` : `Edited ${was}, now ${l}`));
        }),
      ),
    [
      'pantheon task edit ENG-H-0007 --title "Implement login with refresh tokens"',
      "pantheon task edit 7 --role tester",
    ],
  );
}
