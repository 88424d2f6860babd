import type { Command } from "commander";
import { criteriaProgress } from "../../domain/acceptance.js";
import { escapeText } from "../../render/escape.js";
import { taskSummaryView } from "../../render/task-view.js";
import { taskLabel } from "../../render/task-text.js";
import type { EditResult } from "../../services/work/edit-task.js";
import { addCriterion, markTaskCriterion } from "../../services/work/task-criteria.js";
import { labelTask, unlabelTask } from "../../services/work/task-labels.js";
import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view, type View } from "../view.js";

/** `✓ <line>` naming the task, or `✓ … nothing to change` when the edit wrote nothing (no commit). */
function resultView(r: EditResult, line: (label: string) => string): View {
  const data = taskSummaryView(r.task, r.refs);
  const label = taskLabel(data);
  return view("task", data, (s) =>
    check(s, r.unchanged ? `${label} has those already: nothing to change` : line(label)),
  );
}

/** Labels (what a task is about) and acceptance criteria (when it is done): one commit each. */
export function registerTaskCriteriaCommands(task: Command, app: App): void {
  examples(
    task
      .command("label <id> <labels...>")
      .description("Add labels to a task: lowercase words, at most 20 a task")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, labels: string[]) => {
          const r = await labelTask(app.context(), { id, labels });
          return resultView(r, (l) => `Labelled ${l}: ${r.task.labels.join(", ")}`);
        }),
      ),
    ["pantheon task label ENG-H-0007 api auth", "pantheon task list --label api"],
  );

  examples(
    task
      .command("unlabel <id> <labels...>")
      .description("Remove labels from a task")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, labels: string[]) => {
          const r = await unlabelTask(app.context(), { id, labels });
          const left = r.task.labels.length > 0 ? r.task.labels.join(", ") : "no labels left";
          return resultView(r, (l) => `Unlabelled ${l}: ${left}`);
        }),
      ),
    ["pantheon task unlabel ENG-H-0007 auth"],
  );

  examples(
    task
      .command("ac <id> <text>")
      .description("Add an acceptance criterion to a task (one line; checked with task check)")
      .option("--force", FORCE_RENUMBERED)
      .action(
        run(app, async (id: string, text: string) => {
          const r = await addCriterion(app.context(), { id, text });
          return resultView(r, (l) => `Criterion ${r.n} on ${l}: ${escapeText(text.trim())}`);
        }),
      ),
    ['pantheon task ac ENG-H-0007 "returns 404 for unknown ids"'],
  );

  for (const done of [true, false]) {
    const verb = done ? "check" : "uncheck";
    examples(
      task
        .command(`${verb} <id> <n>`)
        .description(
          done
            ? "Check acceptance criterion N of a task (its number in task show)"
            : "Uncheck acceptance criterion N of a task (it is open again)",
        )
        .option("--force", FORCE_RENUMBERED)
        .action(
          run(app, async (id: string, n: string) => {
            const r = await markTaskCriterion(app.context(), { id, n, done });
            const c = r.task.acceptance[r.n - 1]!;
            const progress = criteriaProgress(r.task.acceptance);
            return resultView(
              r,
              (l) => `${done ? "Checked" : "Unchecked"} criterion ${r.n} of ${l} (${progress}): ${escapeText(c.text)}`,
            );
          }),
        ),
      done
        ? ["pantheon task check ENG-H-0007 1", "pantheon task show ENG-H-0007   # the criteria, numbered"]
        : ["pantheon task uncheck ENG-H-0007 1"],
    );
  }
}
