import { ConflictError, NotFoundError, UsageError } from "../../errors.js";
import type { Actor } from "../../domain/actor.js";
import { epicId, parseEpicRef, printable, taskId } from "../../domain/ids.js";
import { checkRenumbered, type IdLookup } from "../kernel/renumbered.js";
import type { EpicDetail } from "../../domain/dashboard.js";
import { epicProgress, epicStatus } from "../../domain/epic-progress.js";
import type { Priority } from "../../domain/priority.js";
import { emptyRefs, epicRefId, type Refs } from "../../domain/refs.js";
import type { Epic } from "../../domain/schemas/epic.js";
import type { Task, TaskSummary } from "../../domain/schemas/task.js";
import type { Snapshot, Tx } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { findTask } from "../kernel/find-task.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { checkText, checkTitle } from "../kernel/validate-input.js";
import { newEpic } from "../../domain/new-epic.js";

export type { EpicDetail };

/** An epic tasks may join: it exists and is not ABORTED. */
export async function linkableEpic(snap: Snapshot, input: string, look: IdLookup): Promise<Epic> {
  const epic = await findEpic(snap, input, look);
  if (epic.aborted !== null)
    throw new ConflictError(`${epicId(epic)} is ABORTED (${epic.aborted}); tasks cannot join it`, "pantheon epic list");
  return epic;
}

/**
 * Resolves `EPC-H-0001`, `EPC-1` or `1` (DESIGN §1.2): the number is the identity; a stale
 * priority letter resolves with a one-line notice naming the current id.
 */
export async function findEpic(snap: Snapshot, input: string, look: IdLookup): Promise<Epic> {
  const ref = parseEpicRef(input);
  const epic = await snap.get("epics", ref.number);
  if (!epic) throw new NotFoundError(`No epic ${printable(input)}`, "pantheon epic list", { number: ref.number });
  // After the renumbering check: a stale letter may be the renumbered epic's, whose notice says more.
  const said = await checkRenumbered(
    snap,
    "epics",
    epic,
    { text: ref.written, full: ref.priority !== undefined },
    look,
  );
  if (!said && ref.priority && ref.priority !== epic.priority) look.warn(`note: ${ref.written} is now ${epicId(epic)}`);
  return epic;
}

/** An epic with its derived status and progress, computed from its linked tasks right now. */
export function epicDetail(epic: Epic, all: readonly TaskSummary[], refs: Refs = emptyRefs()): EpicDetail {
  const tasks = all.filter((t) => t.epic === epic.number);
  refs.epics.set(epic.number, epic);
  return { epic, status: epicStatus(epic, tasks), progress: epicProgress(tasks), tasks, refs };
}

async function withTasks(snap: Snapshot, epic: Epic): Promise<EpicDetail> {
  const all = await snap.taskSummaries();
  return epicDetail(epic, all, { tasks: new Map(all.map((t) => [t.number, t])), epics: new Map() });
}

async function mutateEpic(
  ctx: Context,
  op: string,
  fn: (tx: Tx, actor: Actor) => Promise<{ epic: Epic; changed?: Task[] }>,
): Promise<EpicDetail & { changed: Task[] }> {
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const actor = await resolveActor(ctx, tx);
    const r = await fn(tx, actor);
    return {
      result: { ...(await withTasks(tx, r.epic)), changed: r.changed ?? [] },
      commit: commitInfo(op, `epic ${epicId(r.epic)}`, actor),
    };
  });
  return result;
}

export function createEpic(
  ctx: Context,
  o: { title: string; priority?: Priority; description?: string },
): Promise<EpicDetail & { changed: Task[] }> {
  const title = checkTitle(o.title);
  const description = checkText(o.description, "--description");
  return mutateEpic(ctx, "epic.create", async (tx, actor) => {
    const at = isoNow(ctx);
    const epic = newEpic({
      uid: ctx.ids.uid(),
      number: await tx.allocate("epics"),
      title,
      description,
      priority: o.priority ?? "MEDIUM",
      at,
      by: actor.name,
    });
    tx.put("epics", epic);
    return { epic };
  });
}

export async function showEpic(ctx: Context, id: string): Promise<EpicDetail> {
  const snap = await (await ctx.store()).snapshot();
  return withTasks(snap, await findEpic(snap, id, ctx));
}

export async function listEpics(ctx: Context): Promise<EpicDetail[]> {
  const snap = await (await ctx.store()).snapshot();
  const [epics, tasks] = await Promise.all([snap.all("epics"), snap.taskSummaries()]);
  return epics.map((e) => epicDetail(e, tasks));
}

/** Links tasks to an epic (a task belongs to at most one; linking moves it). */
export function linkTasks(
  ctx: Context,
  o: { epic: string; tasks: string[] },
): Promise<EpicDetail & { changed: Task[] }> {
  if (o.tasks.length === 0)
    return Promise.reject(new UsageError("Name at least one task to link", `pantheon epic link ${o.epic} ENG-H-0007`));
  return mutateEpic(ctx, "epic.link", async (tx) => {
    const epic = await linkableEpic(tx, o.epic, ctx);
    const changed: Task[] = [];
    for (const ref of o.tasks) {
      const task = await findTask(tx, ref, ctx);
      if (task.epic === epic.number) continue;
      if (task.epic !== null) {
        const from = await tx.get("epics", task.epic).catch(() => null);
        ctx.warn(
          `note: ${taskId(task)} moves from ${from ? epicId(from) : epicRefId(emptyRefs(), task.epic)} to ${epicId(epic)}`,
        );
      }
      const next = { ...task, epic: epic.number, updatedAt: isoNow(ctx) };
      tx.put("tasks", next);
      changed.push(next);
    }
    return { epic, changed };
  });
}

/** Unlinks tasks from an epic; a task not linked to it is refused. */
export function unlinkTasks(
  ctx: Context,
  o: { epic?: string; tasks: string[] },
): Promise<EpicDetail & { changed: Task[] }> {
  return mutateEpic(ctx, "epic.unlink", async (tx) => {
    const changed: Task[] = [];
    let epic: Epic | null = o.epic !== undefined ? await findEpic(tx, o.epic, ctx) : null;
    for (const ref of o.tasks) {
      const task = await findTask(tx, ref, ctx);
      if (task.epic === null || (epic && task.epic !== epic.number)) {
        throw new ConflictError(
          `${taskId(task)} is not linked to ${epic ? epicId(epic) : "an epic"}`,
          `pantheon task show ${taskId(task)}`,
        );
      }
      epic ??= await tx.get("epics", task.epic);
      const next = { ...task, epic: null, updatedAt: isoNow(ctx) };
      tx.put("tasks", next);
      changed.push(next);
    }
    if (!epic) throw new NotFoundError("The task's epic no longer exists", "pantheon doctor");
    return { epic, changed };
  });
}

export function editEpic(
  ctx: Context,
  o: { id: string; title?: string; priority?: Priority; description?: string },
): Promise<EpicDetail & { changed: Task[]; before?: Epic }> {
  if (o.title === undefined && o.priority === undefined && o.description === undefined) {
    return Promise.reject(
      new UsageError("Nothing to edit", `pantheon epic edit ${o.id} --title "..." (or --priority, --description)`),
    );
  }
  const title = o.title === undefined ? undefined : checkTitle(o.title);
  const description = o.description === undefined ? undefined : checkText(o.description, "--description");
  return mutateEpic(ctx, "epic.edit", async (tx) => {
    const before = await findEpic(tx, o.id, ctx);
    const epic = {
      ...before,
      title: title ?? before.title,
      priority: o.priority ?? before.priority,
      description: description ?? before.description,
      updatedAt: isoNow(ctx),
    };
    tx.put("epics", epic);
    return { epic };
  });
}

export function abortEpic(ctx: Context, o: { id: string; reason: string }): Promise<EpicDetail & { changed: Task[] }> {
  if (o.reason.trim() === "")
    return Promise.reject(new UsageError("--reason must say why", `pantheon epic abort ${o.id} --reason "descoped"`));
  const reason = checkText(o.reason, "--reason");
  return mutateEpic(ctx, "epic.abort", async (tx) => {
    const before = await findEpic(tx, o.id, ctx);
    if (before.aborted !== null)
      throw new ConflictError(`${epicId(before)} is already ABORTED (${before.aborted})`, "pantheon epic list");
    const epic = { ...before, aborted: reason, updatedAt: isoNow(ctx) };
    tx.put("epics", epic);
    return { epic };
  });
}
