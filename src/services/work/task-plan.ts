import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { fenceData, renderTemplate } from "../../assistants/render-template.js";
import { escapeInline } from "../../domain/control-chars.js";
import { taskId } from "../../domain/ids.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Context } from "../kernel/context.js";
import { findTask } from "../kernel/find-task.js";
import { projectVariables } from "../project/project-files.js";

export interface PlanResult {
  task: Task;
  /** Relative to the project root. */
  path: string;
  action: "created" | "exists" | "renamed";
  /** The old file name, when the id changed since the plan was written. */
  from?: string;
}

/**
 * `task plan ID`: `.pantheon/planning/<current id>.md`, from the planning template. The file is
 * found by the task's number, so after a priority or role change it is renamed, not duplicated.
 */
export async function planTask(ctx: Context, id: string): Promise<PlanResult> {
  const store = await ctx.store();
  if (!store.root)
    throw new UsageError(
      "task plan writes into the working tree; this repository has none",
      "run it in a clone with a working tree",
    );
  const snap = await store.snapshot();
  const task = await findTask(snap, id, ctx);
  const dir = join(store.root, ".pantheon", "planning");
  mkdirSync(dir, { recursive: true });
  const name = `${taskId(task)}.md`;
  const rel = `.pantheon/planning/${name}`;
  if (existsSync(join(dir, name))) return { task, path: rel, action: "exists" };
  const numbers = [task.number, ...task.formerNumbers].map((n) => String(n).padStart(4, "0"));
  const old = readdirSync(dir).find((f) => numbers.some((n) => new RegExp(`^[A-Z]{3}-[CHML]-${n}\\.md$`).test(f)));
  if (old) {
    renameSync(join(dir, old), join(dir, name));
    return { task, path: rel, action: "renamed", from: `.pantheon/planning/${old}` };
  }
  const template = readFileSync(join(ctx.templatesDir, "planning", "task-plan.md"), "utf8");
  const project = await snap.project();
  // The description is someone else's text: fenced as data before the template is filled. Record
  // text is escaped (renderTemplate, fenceData); the title sits on a heading line, so its line
  // breaks are escaped too.
  const description = task.description ? fenceData("Description", task.description) : "No description was recorded.\n";
  // The criteria are tracked on the task, not here: quoted as data, numbered as `task check` takes them.
  const acceptance =
    task.acceptance.length > 0
      ? fenceData(
          "Acceptance criteria",
          task.acceptance.map((c, i) => `${c.done ? "[x]" : "[ ]"} ${i + 1}. ${c.text}`).join("\n"),
        )
      : `(none recorded yet: add them with \`pantheon task ac ${taskId(task)} "..."\` so they are tracked)`;
  writeFileSync(
    join(dir, name),
    renderTemplate(template, {
      ...projectVariables(project),
      "task.id": taskId(task),
      "task.title": escapeInline(task.title),
      "task.description": description,
      "task.acceptance": acceptance,
      "task.role": task.role,
      "task.priority": task.priority,
    }),
  );
  return { task, path: rel, action: "created" };
}
