import { chartTask, historyCharts, type ChartTask, type HistoryCharts } from "../../domain/history-charts.js";
import { epicId } from "../../domain/ids.js";
import { TASK_ROLES } from "../../domain/roles.js";
import { columnsOf, type TaskColumns } from "../../domain/task-columns.js";
import { TASK_STATUSES } from "../../domain/task-status.js";
import type { Context } from "../kernel/context.js";
import { findEpic } from "../work/epics.js";
import { loadAllRefs } from "../kernel/find-task.js";

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
  return {
    ...historyCharts(facts, chartTasks(columnsOf(refs.tasks)), { epic, today: ctx.now().toISOString() }),
    epic: focus ? epicId(focus) : null,
  };
}

/**
 * Every task as the charts see it, off the columns: the creation day from the creation-time
 * column, so 20,000 tasks are neither built nor their times read as text (a task whose time is
 * not in the canonical form is built).
 */
function chartTasks(cols: TaskColumns): ChartTask[] {
  const days = new Map<number, string>();
  const out: ChartTask[] = [];
  for (let i = 0; i < cols.count; i++) {
    const key = cols.created?.[i];
    if (key === undefined || Number.isNaN(key)) {
      out.push(chartTask(cols.task(i)));
      continue;
    }
    const d = Math.floor(key / 86_400_000); // createdKey: ((y·12 + m−1)·31 + d−1)·86,400,000 + time of day
    let createdDay = days.get(d);
    if (createdDay === undefined) days.set(d, (createdDay = dayOfKey(d)));
    const epic = cols.epic[i]!;
    out.push({
      number: cols.number[i]!,
      role: TASK_ROLES[cols.role[i]!]!,
      epic: epic === 0 ? null : epic,
      status: TASK_STATUSES[cols.status[i]!]!,
      createdDay,
      updatedDay: () => cols.task(i).updatedAt.slice(0, 10),
    });
  }
  return out;
}

/** YYYY-MM-DD of a createdKey's day part ((year·12 + month − 1)·31 + day − 1). */
function dayOfKey(d: number): string {
  const day = (d % 31) + 1;
  const months = Math.floor(d / 31);
  const [year, month] = [Math.floor(months / 12), (months % 12) + 1];
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
