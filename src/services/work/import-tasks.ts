import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { PantheonError, UsageError } from "../../errors.js";
import { planImport } from "../../domain/import-plan.js";
import { taskId } from "../../domain/ids.js";
import type { Task } from "../../domain/schemas/task.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { linkableEpic } from "./epics.js";
import { findTask, loadRefs } from "../kernel/find-task.js";
import type { Refs } from "../../domain/refs.js";
import { TaskIndex } from "../../domain/task-index.js";
import { parseYamlFile } from "../kernel/yaml-module.js";
import { newCriterion } from "../../domain/acceptance.js";
import { newTask } from "../../domain/new-task.js";

/** Parses a YAML or JSON file (JSON is read without loading yaml). */
async function readDocument(path: string, file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new UsageError(`Cannot read ${file}`, "pantheon task import tasks.yaml");
  }
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch (e) {
      if (file.endsWith(".json"))
        throw new UsageError(`Invalid JSON in ${file}: ${(e as Error).message}`, "check the file with: jq . FILE");
    }
  }
  return parseYamlFile(text, file, "check the indentation and quoting of that line");
}

/**
 * One frozen empty list for the empty fields of every task created: at 100,000 tasks, three
 * lists apiece were ~10 MB the import held to the end. Nothing here changes a list in place.
 */
const NONE = Object.freeze([]) as never[];

/** Names the file's entry in a refusal that comes from resolving one of its ids. */
async function inEntry<T>(f: () => Promise<T>, at: string): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof PantheonError) e.message = `${at}: ${e.message}`;
    throw e;
  }
}

/**
 * Creates every task of a file, in file order, in ONE commit: all of it is validated first
 * (entries, roles, dependencies, epics), so a bad entry writes nothing.
 */
export async function importTasks(ctx: Context, file: string): Promise<{ tasks: Task[]; refs: Refs }> {
  const plan = planImport(await readDocument(resolve(ctx.cwd, file), file), file);
  if (plan.length === 0)
    throw new UsageError(`${file} has no tasks`, "a list of entries, each with at least title and role");
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const actor = await resolveActor(ctx, tx);
    // Ids in the file resolve as on the command line (DESIGN §1.2): a foreign prefix is "No task".
    const taskDeps: number[][] = [];
    const epics: Array<number | null> = [];
    for (const [i, p] of plan.entries()) {
      const entry = <T>(f: () => Promise<T>) => inEntry(f, `${file} entry ${i + 1}`);
      const deps: number[] = [];
      for (const ref of p.taskDeps) deps.push((await entry(() => findTask(tx, ref, ctx))).number);
      taskDeps.push(deps.length > 0 ? deps : NONE);
      epics.push(p.epic === null ? null : (await entry(() => linkableEpic(tx, p.epic!, ctx))).number);
    }
    const at = isoNow(ctx);
    // Numbers first, in file order: an entry may depend on one further down.
    const numbers: number[] = [];
    for (let i = 0; i < plan.length; i++) numbers.push(await tx.allocate("tasks"));
    const created: Task[] = [];
    for (const [i, p] of plan.entries()) {
      const task = newTask({
        uid: ctx.ids.uid(),
        number: numbers[i]!,
        title: p.title,
        description: p.description,
        role: p.role,
        priority: p.priority,
        dependencies:
          p.entryDeps.length + taskDeps[i]!.length === 0
            ? NONE
            : [...new Set([...p.entryDeps.map((k) => numbers[k]!), ...taskDeps[i]!])],
        epic: epics[i]!,
        labels: p.labels.length === 0 ? NONE : p.labels,
        acceptance:
          p.acceptance.length === 0
            ? NONE
            : p.acceptance.map((a) => ({ ...newCriterion(ctx.ids.noteId(), a.text, actor.name, at), done: a.done })),
        at,
        by: actor.name,
        empty: NONE,
      });
      tx.put("tasks", task);
      created.push(task);
    }
    const span = created.length === 1 ? taskId(created[0]!) : `${taskId(created[0]!)}..${taskId(created.at(-1)!)}`;
    // The tasks created, looked up by position: no Map entry for each of 100,000.
    const refs: Refs = { tasks: new TaskIndex(created), epics: new Map() };
    for (const t of created) await loadRefs(tx, t, refs);
    return {
      result: { tasks: created, refs },
      commit: {
        ...commitInfo("task.import", `tasks ${span}`, actor),
        summary: `task import of ${created.length} tasks (${span}) by ${actor.name}`,
      },
    };
  });
  return result;
}
