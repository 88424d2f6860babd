import { UsageError } from "../../errors.js";
import { IDENTIFY_HINT, sameName } from "../../domain/actor.js";
import type { Refs } from "../../domain/refs.js";
import type { TaskRole } from "../../domain/roles.js";
import type { Note } from "../../domain/schemas/note.js";
import type { TaskSummary as Task } from "../../domain/schemas/task.js";
import { claimantAt, columnsOf, positions, withLabels } from "../../domain/task-columns.js";
import {
  blockedTasks,
  columnsReport,
  epicPrerequisites,
  nextTasks,
  prerequisites,
  searchTasks,
  type Report,
} from "../../domain/task-questions.js";
import type { Context } from "../kernel/context.js";
import { findEpic } from "../work/epics.js";
import { epicId, taskId } from "../../domain/ids.js";
import { findTask, loadAllRefs } from "../kernel/find-task.js";
import { resolveActor } from "../kernel/resolve-actor.js";

export interface TaskAnswer {
  tasks: Task[];
  refs: Refs;
}

async function everything(ctx: Context) {
  const snap = await (await ctx.store()).snapshot();
  const refs = await loadAllRefs(snap);
  return { snap, refs, lookup: (n: number) => refs.tasks.get(n) };
}

/** Ready tasks by priority then age; inside a mission the role defaults to the mission's. */
export async function nextForRole(
  ctx: Context,
  o: { role?: TaskRole; count?: number; label?: string[] },
): Promise<TaskAnswer & { role: TaskRole | null; handoffs: Map<number, Note> }> {
  const snap = await (await ctx.store()).snapshot();
  const refs = await loadAllRefs(snap);
  let role: TaskRole | null = o.role ?? null;
  if (!role) {
    const actor = await resolveActor(ctx, snap);
    if (actor.role && actor.role !== "administrator") role = actor.role;
  }
  // From the read cache's columns: only the candidates are built.
  const cols = columnsOf(refs.tasks);
  const labelled = o.label && o.label.length > 0 ? withLabels(cols, o.label) : undefined;
  const picked = nextTasks(cols, role, o.count ?? 5, labelled);
  // The latest handoff note explains a READY task: read those few records in full.
  const handoffs = new Map<number, Note>();
  for (const t of picked.filter((x) => x.status === "READY")) {
    const note = [...((await snap.get("tasks", t.number))?.notes ?? [])].reverse().find((n) => n.kind === "handoff");
    if (note) handoffs.set(t.number, note);
  }
  return { tasks: picked, refs, role, handoffs };
}

export async function reportTasks(ctx: Context): Promise<Report> {
  const snap = await (await ctx.store()).snapshot();
  // From the read cache, the status column alone: no task is built.
  return columnsReport(columnsOf(await snap.taskMap()));
}

export async function listBlocked(ctx: Context): Promise<TaskAnswer> {
  const snap = await (await ctx.store()).snapshot();
  const refs = await loadAllRefs(snap);
  const cols = columnsOf(refs.tasks);
  return { tasks: blockedTasks(cols).map((i) => cols.task(i)), refs };
}

export async function search(
  ctx: Context,
  o: { words: string; limit?: number },
): Promise<TaskAnswer & { scores: number[] }> {
  if (o.words.trim() === "") throw new UsageError("Search needs words", 'pantheon task search "login token"');
  const { snap, refs } = await everything(ctx);
  // Search reads descriptions and notes: the one list-type question that needs full records.
  const tasks = await snap.all("tasks");
  const hits = searchTasks(tasks, o.words).slice(0, o.limit ?? 20);
  return { tasks: hits.map((h) => h.task), scores: hits.map((h) => h.score), refs };
}

/** What `task prereqs` was asked about: a task, or an epic (its open tasks are the goal). */
export interface PrereqGoal {
  kind: "task" | "epic";
  id: string;
  title: string;
}

/**
 * All unfinished transitive dependencies of a goal, in a workable order, with who holds each. An
 * epic's goal is its open tasks: they come in the list, after what each waits on.
 */
export async function prereqsOf(ctx: Context, id: string): Promise<TaskAnswer & { goal: PrereqGoal }> {
  const { snap, refs, lookup } = await everything(ctx);
  if (/^\s*EPC-/i.test(id)) {
    const epic = await findEpic(snap, id, ctx);
    refs.epics.set(epic.number, epic);
    const linked = [...refs.tasks.values()].filter((t) => t.epic === epic.number);
    return {
      goal: { kind: "epic", id: epicId(epic), title: epic.title },
      tasks: epicPrerequisites(linked, lookup),
      refs,
    };
  }
  const goal = await findTask(snap, id, ctx);
  return { goal: { kind: "task", id: taskId(goal), title: goal.title }, tasks: prerequisites(goal, lookup), refs };
}

/** The actor's live claims (a persona's, across its missions), most recently changed first. */
export async function myTasks(ctx: Context): Promise<TaskAnswer & { persona: string }> {
  const { snap, refs } = await everything(ctx);
  const actor = await resolveActor(ctx, snap);
  if (actor.kind === "director")
    throw new UsageError(
      "The Director claims no tasks; say who you are",
      "pantheon --as <persona> task mine (or --mission <id>)",
    );
  if (actor.kind === "unidentified")
    throw new UsageError("An unidentified persona claims no tasks; say who you are", IDENTIFY_HINT);
  const cols = columnsOf(refs.tasks);
  const mine = positions(cols, (i) => sameName(claimantAt(cols, i), actor.name))
    .map((i) => cols.task(i))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return { tasks: mine, refs, persona: actor.name };
}
