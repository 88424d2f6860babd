import type { Command } from "commander";
import { taskId } from "../../domain/ids.js";
import { parsePriority } from "../../domain/priority.js";
import { escapeText } from "../../render/escape.js";
import { bar } from "../../render/bar.js";
import { epicLabel, epicTable, epicView } from "../../render/epic-view.js";
import { taskTable } from "../../render/task-text.js";
import { taskSummaryView } from "../../render/task-view.js";
import {
  abortEpic,
  createEpic,
  editEpic,
  linkTasks,
  listEpics,
  showEpic,
  unlinkTasks,
  type EpicDetail,
} from "../../services/work/epics.js";
import type { Task } from "../../domain/schemas/task.js";
import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view, type View } from "../view.js";

/** A mutation's view: the epic, with the tasks it changed under `changed`. */
export function epicMutationView(r: EpicDetail & { changed: Task[] }, line: (label: string) => string): View {
  const data = epicView(r);
  const changed = r.changed.map((t) => taskSummaryView(t, r.refs));
  return view(
    "epic",
    data,
    (s) =>
      [
        check(s, line(epicLabel(data))),
        ...r.changed.map((t) => `  ${taskId(t)} ${t.epic === null ? "unlinked" : "linked"}`),
      ].join("\n"),
    changed,
  );
}

export function registerEpicCommands(program: Command, app: App): void {
  const epic = program.command("epic").description("Group tasks into epics; status and progress follow the tasks");

  examples(
    epic
      .command("create")
      .description("Create an epic")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--title <text>", "its name")
      .option("--priority <p>", "CRITICAL, HIGH, MEDIUM (default) or LOW", "MEDIUM")
      .option("--description <text>", "details")
      .action(
        run(app, async (o: { title: string; priority: string; description?: string }) =>
          epicMutationView(
            await createEpic(app.context(), {
              title: o.title,
              priority: parsePriority(o.priority),
              ...(o.description !== undefined && { description: o.description }),
            }),
            (l) => `Created ${l}`,
          ),
        ),
      ),
    ['pantheon epic create --title "User login" --priority high'],
  );

  examples(
    epic
      .command("show <id>")
      .description("An epic's status, progress bar and tasks")
      .action(
        run(app, async (id: string) => {
          const data = epicView(await showEpic(app.context(), id));
          return view("epic", data, (s) => {
            const lines = [`${s.paint.bold(data.id)}  ${escapeText(data.title)}  [${data.priority}, ${data.status}]`];
            if (data.aborted) lines.push(s.paint.dim(`aborted: ${escapeText(data.aborted)}`));
            if (data.description) lines.push(escapeText(data.description));
            lines.push(
              `${bar(data.progress.percent / 100, 30, s)} ${data.progress.complete}/${data.progress.total} ${data.progress.percent}%`,
              "",
            );
            lines.push(taskTable(data.tasks, s, `No tasks linked yet: pantheon epic link ${data.id} TASK...`));
            return lines.join("\n");
          });
        }),
      ),
    ["pantheon epic show EPC-H-0001", "pantheon epic show 1 --json | jq .data.progress"],
  );

  examples(
    epic
      .command("list")
      .description("Every epic with its progress")
      .action(
        run(app, async () => {
          const data = (await listEpics(app.context())).map(epicView);
          return view("epics", data, (s) => epicTable(data, s));
        }),
      ),
    ["pantheon epic list"],
  );

  examples(
    epic
      .command("link <epic> <tasks...>")
      .description("Link tasks to an epic (a task moves from its previous epic)")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, tasks: string[]) =>
          epicMutationView(await linkTasks(app.context(), { epic: id, tasks }), (l) => `Linked to ${l}`),
        ),
      ),
    ["pantheon epic link EPC-H-0001 ENG-H-0002 TST-M-0003"],
  );

  examples(
    epic
      .command("unlink <epic> <tasks...>")
      .description("Unlink tasks from an epic")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, tasks: string[]) =>
          epicMutationView(await unlinkTasks(app.context(), { epic: id, tasks }), (l) => `Unlinked from ${l}`),
        ),
      ),
    ["pantheon epic unlink EPC-H-0001 TST-M-0003"],
  );

  examples(
    epic
      .command("edit <id>")
      .description("Edit an epic's title, priority or description")
      .option("--force", FORCE_RENUMBERED)
      .option("--title <text>", "new title")
      .option("--priority <p>", "new priority")
      .option("--description <text>", "new description")
      .action(
        run(app, async (id: string, o: { title?: string; priority?: string; description?: string }) =>
          epicMutationView(
            await editEpic(app.context(), {
              id,
              ...(o.title !== undefined && { title: o.title }),
              ...(o.priority !== undefined && { priority: parsePriority(o.priority) }),
              ...(o.description !== undefined && { description: o.description }),
            }),
            (l) => `Edited ${l}`,
          ),
        ),
      ),
    ["pantheon epic edit EPC-M-0001 --priority high"],
  );

  examples(
    epic
      .command("abort <id>")
      .description("Abort an epic (its tasks are left as they are)")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--reason <text>", "why")
      .action(
        run(app, async (id: string, o: { reason: string }) =>
          epicMutationView(await abortEpic(app.context(), { id, reason: o.reason }), (l) => `Aborted ${l}`),
        ),
      ),
    ['pantheon epic abort EPC-H-0001 --reason "descoped for 1.0"'],
  );
}
