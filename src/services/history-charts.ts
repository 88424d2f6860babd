import { historyCharts, type HistoryCharts, type TaskEvent } from "../domain/history-charts.js";
import { epicId } from "../domain/ids.js";
import { recordNumbers } from "../domain/record-keys.js";
import { columnsOf } from "../domain/task-columns.js";
import type { Context } from "./context.js";
import { findEpic } from "./epics.js";
import { loadAllRefs } from "./find-task.js";

/** The history walk of one tip; a long-lived reader (pantheon web) keeps it between requests. */
export interface EventMemo {
  tip: string | null;
  events: TaskEvent[];
}

/**
 * The task events of the whole history of refs/coordination/main, oldest first: one walk of the
 * commit log (commit objects only, never a tree), reused while the tip has not moved.
 */
export async function taskEvents(ctx: Context, memo?: EventMemo): Promise<TaskEvent[]> {
  const store = await ctx.store();
  const tip = await store.tip();
  if (memo && memo.tip === tip && tip !== null) return memo.events;
  const log = tip === null ? [] : await store.log({});
  const events: TaskEvent[] = [];
  for (let i = log.length - 1; i >= 0; i--) {
    const c = log[i]!;
    const tasks = recordNumbers(c.trailers["Pantheon-Records"] ?? [], "tasks");
    if (tasks.length > 0) events.push({ at: c.date, op: c.trailers["Pantheon-Op"]?.[0] ?? "", tasks });
  }
  if (memo) Object.assign(memo, { tip, events });
  return events;
}

/** Opened and closed per day, an epic's burn-down and claim-to-COMPLETE times per role. */
export async function chartHistory(
  ctx: Context,
  o: { epic?: string },
  memo?: EventMemo,
): Promise<HistoryCharts & { epic: string | null }> {
  const snap = await (await ctx.store()).snapshot();
  const focus = o.epic === undefined ? null : await findEpic(snap, o.epic, ctx);
  const epic = focus?.number ?? null;
  const [events, refs] = await Promise.all([taskEvents(ctx, memo), loadAllRefs(snap)]);
  const cols = columnsOf(refs.tasks);
  const tasks = Array.from({ length: cols.count }, (_, i) => cols.task(i));
  return {
    ...historyCharts(events, tasks, { epic, today: ctx.now().toISOString() }),
    epic: focus ? epicId(focus) : null,
  };
}
