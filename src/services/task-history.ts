import { taskId } from "../domain/ids.js";
import type { Task } from "../domain/schemas/task.js";
import type { CommitEntry } from "../store/store.js";
import type { Context } from "./context.js";
import { findTask } from "./find-task.js";

export interface HistoryEvent {
  commit: string;
  date: string;
  actor: string;
  op: string;
  summary: string;
  /** What changed in the task, read from the record before and after the commit. */
  changes: string[];
}

const FIELDS: Array<keyof Task> = ["status", "claimedBy", "priority", "role", "title", "epic", "mission", "completedBy"];

function describe(before: Task | null, after: Task | null): string[] {
  if (!after) return ["removed"];
  if (!before) return [`created ${taskId(after)} as ${after.status}`];
  const out: string[] = [];
  for (const f of FIELDS) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) out.push(`${f}: ${before[f] ?? "—"} → ${after[f] ?? "—"}`);
  }
  if (before.dependencies.join() !== after.dependencies.join()) out.push(`dependencies: [${before.dependencies.join(", ")}] → [${after.dependencies.join(", ")}]`);
  for (const n of after.notes.slice(before.notes.length)) out.push(`${n.kind}: ${n.text}`);
  if (before.description !== after.description) out.push("description edited");
  return out;
}

/** The task's changes, oldest first, from the commits whose Pantheon-Records name it. */
export async function taskHistory(ctx: Context, id: string): Promise<{ task: Task; events: HistoryEvent[] }> {
  const store = await ctx.store();
  const task = await findTask(await store.snapshot(), id, ctx.warn);
  const keys = [task.number, ...task.formerNumbers].map((n) => `tasks/${n}`);
  const commits: CommitEntry[] = [];
  for (const key of keys) commits.push(...(await store.log({ record: key })));
  const events: HistoryEvent[] = [];
  for (const c of commits.sort((a, b) => a.date.localeCompare(b.date))) {
    const after = await (await store.snapshotAt(c.oid)).get("tasks", task.number).catch(() => null);
    const before = c.parents[0] ? await (await store.snapshotAt(c.parents[0])).get("tasks", task.number).catch(() => null) : null;
    events.push({
      commit: c.oid,
      date: c.date,
      actor: c.trailers["Pantheon-Actor"]?.[0] ?? c.author,
      op: c.trailers["Pantheon-Op"]?.[0] ?? "",
      summary: c.summary,
      changes: describe(before, after),
    });
  }
  return { task, events };
}
