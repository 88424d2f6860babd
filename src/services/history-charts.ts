import { historyCharts, type HistoryCharts } from "../domain/history-charts.js";
import { epicId } from "../domain/ids.js";
import { columnsOf } from "../domain/task-columns.js";
import type { Context } from "./context.js";
import { findEpic } from "./epics.js";
import { loadAllRefs } from "./find-task.js";

/**
 * Opened and closed per day, an epic's burn-down and claim-to-COMPLETE times per role. The
 * history's part comes from the store's history index (DESIGN §2.4a: closings per day and each
 * task's facts, kept up to the ref commit by commit), so it costs the same at any history length.
 */
export async function chartHistory(
  ctx: Context,
  o: { epic?: string },
): Promise<HistoryCharts & { epic: string | null }> {
  const store = await ctx.store();
  const snap = await store.snapshot();
  const focus = o.epic === undefined ? null : await findEpic(snap, o.epic, ctx);
  const epic = focus?.number ?? null;
  const [facts, refs] = await Promise.all([store.historyFacts(), loadAllRefs(snap)]);
  const cols = columnsOf(refs.tasks);
  const tasks = Array.from({ length: cols.count }, (_, i) => cols.task(i));
  return {
    ...historyCharts(facts, tasks, { epic, today: ctx.now().toISOString() }),
    epic: focus ? epicId(focus) : null,
  };
}

/** Brings the history index up to the ref (a long-lived reader calls it when the ref moves). */
export async function refreshHistory(ctx: Context): Promise<void> {
  const store = await ctx.store();
  if (await store.exists()) await store.historyFacts();
}
