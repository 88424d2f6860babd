import { epicId, missionId, taskId } from "../../domain/ids.js";
import { TaskSchema, type Task } from "../../domain/schemas/task.js";
import type { CommitEntry, Snapshot } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { findTask } from "../kernel/find-task.js";

export interface HistoryEvent {
  commit: string;
  date: string;
  actor: string;
  op: string;
  summary: string;
  /** What changed in the task, read from the record before and after the commit. */
  changes: string[];
}

/** Fields a history says in its own words below, or bookkeeping it does not show. */
export const HISTORY_OWN_WORDS: ReadonlySet<keyof Task> = new Set<keyof Task>([
  "uid",
  "number",
  "createdAt",
  "updatedAt",
  "createdBy",
  "formerNumbers",
  "formerRoles",
  "dependencies",
  "notes",
  "description",
  "labels",
  "acceptance",
]);
const FIRST: ReadonlyArray<keyof Task> = [
  "status",
  "claimedBy",
  "priority",
  "role",
  "title",
  "epic",
  "mission",
  "completedBy",
];

/**
 * The fields a history lists as `field: before → after`: read from the schema, so a field added
 * to a task is listed without a change here; the usual ones first, in the order people read.
 */
export const HISTORY_FIELDS: ReadonlyArray<keyof Task> = [
  ...FIRST,
  ...(Object.keys(TaskSchema.shape) as Array<keyof Task>).filter(
    (f) => !FIRST.includes(f) && !HISTORY_OWN_WORDS.has(f),
  ),
];

/** References read as ids (`MSN-0001`, `EPC-H-0002`, `ENG-H-0007`) at the commit they changed in. */
async function ids(snap: Snapshot) {
  const task = async (n: number) => {
    const t = await snap.get("tasks", n).catch(() => null);
    return t ? taskId(t) : `task ${n}`;
  };
  const epic = async (n: number) => {
    const e = await snap.get("epics", n).catch(() => null);
    return e ? epicId(e) : `epic ${n}`;
  };
  return { task, epic, mission: async (n: number) => missionId(n) };
}

async function describe(before: Task | null, after: Task | null, snap: Snapshot): Promise<string[]> {
  if (!after) return ["removed"];
  if (!before) return [`created ${taskId(after)} as ${after.status}`];
  const name = await ids(snap);
  const moved =
    before.number !== after.number
      ? [`renumbered ${taskId(before)} → ${taskId(after)} (its number was taken on the remote)`]
      : [];
  const show = async (f: keyof Task, v: unknown): Promise<string> => {
    if (v === null || v === undefined) return "—";
    if (f === "mission") return name.mission(v as number);
    if (f === "epic") return name.epic(v as number);
    return typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : String(v);
  };
  const out: string[] = [...moved];
  for (const f of HISTORY_FIELDS) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f]))
      out.push(`${f}: ${await show(f, before[f])} → ${await show(f, after[f])}`);
  }
  if (before.dependencies.join() !== after.dependencies.join()) {
    const list = async (ns: number[]) => (await Promise.all(ns.map(name.task))).join(", ");
    out.push(`dependencies: [${await list(before.dependencies)}] → [${await list(after.dependencies)}]`);
  }
  if (before.labels.join() !== after.labels.join())
    out.push(`labels: [${before.labels.join(", ")}] → [${after.labels.join(", ")}]`);
  out.push(...criteriaChanges(before, after));
  for (const n of after.notes.slice(before.notes.length)) out.push(`${n.kind}: ${n.text}`);
  if (before.description !== after.description) out.push("description edited");
  return out;
}

/** Acceptance criteria added, checked, unchecked, reworded or removed, by their number after the change. */
function criteriaChanges(before: Task, after: Task): string[] {
  const was = new Map(before.acceptance.map((c) => [c.id, c]));
  const out: string[] = [];
  for (const [i, c] of after.acceptance.entries()) {
    const b = was.get(c.id);
    const n = i + 1;
    if (!b) out.push(`criterion ${n} added: ${c.text}`);
    else {
      if (b.text !== c.text) out.push(`criterion ${n} reworded: ${c.text}`);
      if (b.done !== c.done) out.push(`criterion ${n} ${c.done ? "checked" : "unchecked"}: ${c.text}`);
    }
  }
  const now = new Set(after.acceptance.map((c) => c.id));
  for (const c of before.acceptance) if (!now.has(c.id)) out.push(`criterion removed: ${c.text}`);
  return out;
}

/**
 * This very record at a commit: found by its uid among the numbers it has had, never by number
 * alone, since after a collision another task holds its old number (DESIGN §3.4).
 */
async function byUid(snap: Snapshot, numbers: readonly number[], uid: string): Promise<Task | null> {
  for (const n of numbers) {
    const t = await snap.get("tasks", n).catch(() => null);
    if (t?.uid === uid) return t;
  }
  return null;
}

/**
 * The task's changes, oldest first, from the commits whose Pantheon-Records name one of its
 * numbers; a commit that touched only another task at one of those numbers is left out.
 */
export async function taskHistory(ctx: Context, id: string): Promise<{ task: Task; events: HistoryEvent[] }> {
  const store = await ctx.store();
  const task = await findTask(await store.snapshot(), id, ctx);
  const numbers = [task.number, ...task.formerNumbers];
  const keys = numbers.map((n) => `tasks/${n}`);
  // The log is newest first in commit order; dates have one-second resolution, so never sort by them.
  const commits: CommitEntry[] = (await store.log({ record: keys })).reverse();
  const events: HistoryEvent[] = [];
  for (const c of commits) {
    const at = await store.snapshotAt(c.oid);
    const after = await byUid(at, numbers, task.uid);
    const before = c.parents[0] ? await byUid(await store.snapshotAt(c.parents[0]), numbers, task.uid) : null;
    if (!after && !before) continue; // another record at one of these numbers
    events.push({
      commit: c.oid,
      date: c.date,
      actor: c.trailers["Pantheon-Actor"]?.[0] ?? c.author,
      op: c.trailers["Pantheon-Op"]?.[0] ?? "",
      summary: c.summary,
      changes: await describe(before, after, at),
    });
  }
  return { task, events };
}
