import { ConflictError, UsageError } from "../../errors.js";
import { activeClaimant, type Actor } from "../../domain/actor.js";
import { describePath, findPath } from "../../domain/dependency-graph.js";
import { taskId } from "../../domain/ids.js";
import type { Priority } from "../../domain/priority.js";
import { roleSet, type TaskRole } from "../../domain/roles.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Tx } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { emptyRefs } from "../../domain/refs.js";
import { findTask, loadRefs } from "../kernel/find-task.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import type { TaskResult } from "./create-task.js";
import { checkText, checkTitle } from "../kernel/validate-input.js";
import type { RecordStore } from "../../store/store.js";

type Edit = (task: Task, tx: Tx, actor: Actor) => Promise<Task>;

export interface EditResult extends TaskResult {
  before: Task;
  /** The edit returned the task itself: nothing was written, no commit made. */
  unchanged: boolean;
}

/**
 * Loads one task, applies an edit (pure apart from reading related records), writes it. An
 * edit that returns the very task it was given changes nothing: no commit.
 */
export async function editTask(ctx: Context<RecordStore>, id: string, op: string, edit: Edit): Promise<EditResult> {
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const actor = await resolveActor(ctx, tx);
    const before = await findTask(tx, id, ctx);
    const edited = await edit(before, tx, actor);
    const unchanged = edited === before;
    const task = unchanged ? before : { ...edited, updatedAt: isoNow(ctx) };
    if (!unchanged) tx.put("tasks", task);
    const refs = await loadRefs(tx, task, emptyRefs());
    return { result: { task, refs, before, unchanged }, commit: commitInfo(op, `task ${taskId(task)}`, actor) };
  });
  return result;
}

/** Appends a note (allowed in every state: notes are history). */
export function noteTask(ctx: Context<RecordStore>, o: { id: string; text: string }): Promise<TaskResult> {
  if (o.text.trim() === "")
    return Promise.reject(new UsageError("The note is empty", `pantheon task note ${o.id} "what happened"`));
  const text = checkText(o.text, "note");
  return editTask(ctx, o.id, "task.note", async (t, _tx, actor) => {
    return { ...t, notes: [...t.notes, { id: ctx.ids.noteId(), at: isoNow(ctx), by: actor.name, kind: "note", text }] };
  });
}

/** Adds dependencies; a self-dependency or one that would close a cycle is refused. */
export function dependTask(ctx: Context<RecordStore>, o: { id: string; deps: string[] }): Promise<TaskResult> {
  return editTask(ctx, o.id, "task.depend", async (t, tx) => {
    const deps = new Set(t.dependencies);
    for (const ref of o.deps) {
      const dep = await findTask(tx, ref, ctx);
      if (dep.number === t.number)
        throw new ConflictError(`${taskId(t)} cannot depend on itself`, `pantheon task show ${taskId(t)}`);
      // Adding t → dep closes a cycle exactly when t is already reachable from dep.
      const path = await pathBetween(tx, dep.number, t.number);
      if (path) {
        const ids = [taskId(t), ...path];
        const size = ids.length > 12 ? ` of ${(ids.length - 1).toLocaleString("en-US")} tasks` : "";
        throw new ConflictError(
          `${taskId(t)} cannot depend on ${taskId(dep)}: that would make a cycle${size} (${describePath(ids)})`,
          `pantheon task prereqs ${taskId(dep)}`,
        );
      }
      deps.add(dep.number);
    }
    return { ...t, dependencies: [...deps] };
  });
}

/** BFS over dependencies reading one record per visited task; the path comes back as ids. */
async function pathBetween(tx: Tx, from: number, to: number): Promise<string[] | null> {
  const graph = new Map<number, { deps: readonly number[]; id: string }>();
  const frontier = [from];
  while (frontier.length > 0) {
    const n = frontier.pop()!;
    if (graph.has(n)) continue;
    const task = await tx.get("tasks", n);
    graph.set(n, { deps: task?.dependencies ?? [], id: task ? taskId(task) : String(n) });
    for (const d of task?.dependencies ?? []) if (!graph.has(d)) frontier.push(d);
  }
  return findPath(from, to, (n) => graph.get(n)?.deps)?.map((n) => graph.get(n)!.id) ?? null;
}

/** Removes dependencies (the hint for an ABORTED dependency that blocks). */
export function undependTask(ctx: Context<RecordStore>, o: { id: string; deps: string[] }): Promise<TaskResult> {
  return editTask(ctx, o.id, "task.undepend", async (t, tx) => {
    const drop = new Set<number>();
    for (const ref of o.deps) {
      const dep = await findTask(tx, ref, ctx);
      if (!t.dependencies.includes(dep.number))
        throw new ConflictError(`${taskId(t)} does not depend on ${taskId(dep)}`, `pantheon task show ${taskId(t)}`);
      drop.add(dep.number);
    }
    return { ...t, dependencies: t.dependencies.filter((n) => !drop.has(n)) };
  });
}

/** Changes the priority, and with it the id's letter. */
export function setTaskPriority(
  ctx: Context<RecordStore>,
  o: { id: string; priority: Priority },
): Promise<TaskResult & { before: Task }> {
  return editTask(ctx, o.id, "task.priority", async (t) => ({ ...t, priority: o.priority }));
}

/** Edits title, description or role (a role change needs the task unclaimed). */
export function editTaskFields(
  ctx: Context<RecordStore>,
  o: { id: string; title?: string; description?: string; role?: TaskRole },
): Promise<TaskResult & { before: Task }> {
  if (o.title === undefined && o.description === undefined && o.role === undefined) {
    return Promise.reject(
      new UsageError("Nothing to edit", `pantheon task edit ${o.id} --title "..." (or --description, --role)`),
    );
  }
  const title = o.title !== undefined ? checkTitle(o.title) : undefined;
  const description = o.description !== undefined ? checkText(o.description, "--description") : undefined;
  return editTask(ctx, o.id, "task.edit", async (t) => {
    if (o.role && o.role !== t.role && activeClaimant(t)) {
      throw new ConflictError(
        `${taskId(t)} is claimed by ${t.claimedBy}; its role cannot change under a claim`,
        `pantheon task unassign ${taskId(t)} --notes "changing its role"`,
      );
    }
    const role = o.role ?? t.role;
    // Ids with the old prefix were handed out (DESIGN §1.2): they keep naming this task.
    const formerRoles =
      role !== t.role && !t.formerRoles.includes(t.role) ? roleSet(t.formerRoles, [t.role]) : t.formerRoles;
    return { ...t, title: title ?? t.title, description: description ?? t.description, role, formerRoles };
  });
}
