import type { TaskRole } from "./roles.js";
import type { TaskStatus } from "./task-status.js";

/** One commit of the state's history as the charts read it: when, which op, which tasks. */
export interface TaskEvent {
  /** ISO-8601 author date. */
  at: string;
  op: string;
  tasks: number[];
}

/** What the charts need of each task today. */
export interface ChartTask {
  number: number;
  role: TaskRole;
  epic: number | null;
  status: TaskStatus;
  createdAt: string;
  updatedAt: string;
}

export interface DayCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  opened: number;
  closed: number;
}

export interface BurnPoint {
  day: string;
  /** Linked tasks open at the end of the day, and linked tasks created by then. */
  remaining: number;
  total: number;
}

export interface CycleTime {
  role: TaskRole;
  /** Completed tasks with a claim before their completion. */
  count: number;
  medianHours: number;
  p90Hours: number;
}

export interface HistoryCharts {
  perDay: DayCount[];
  /** Days left out before the first shown (the chart shows the last DAYS_SHOWN days). */
  daysOmitted: number;
  burndown: BurnPoint[] | null;
  cycleTimes: CycleTime[];
}

/** A day chart wider than a quarter reads as noise; older days are counted, not drawn. */
export const DAYS_SHOWN = 90;

const CLOSE_OPS = new Set(["task.complete", "task.abort", "review.approve"]);
const day = (iso: string) => iso.slice(0, 10);

/**
 * Tasks opened and closed per day (opened: createdAt; closed: commits that completed or aborted
 * a task, a review approval naming a task included), the burn-down of one epic (its linked
 * tasks, as linked today), and the time from a task's last claim to its completion per role.
 * `events` are oldest first.
 */
export function historyCharts(
  events: readonly TaskEvent[],
  tasks: Iterable<ChartTask>,
  o: { epic: number | null; today: string },
): HistoryCharts {
  const claimAt = new Map<number, string>();
  const closedAt = new Map<number, string>();
  const cycles = new Map<TaskRole, number[]>();
  const closedPerDay = new Map<string, number>();
  const list = [...tasks];
  const role = new Map(list.map((t) => [t.number, t]));
  for (const e of events) {
    if (e.op === "task.claim") for (const n of e.tasks) claimAt.set(n, e.at);
    if (!CLOSE_OPS.has(e.op)) continue;
    for (const n of e.tasks) {
      closedAt.set(n, e.at);
      closedPerDay.set(day(e.at), (closedPerDay.get(day(e.at)) ?? 0) + 1);
      const t = role.get(n);
      const claimed = claimAt.get(n);
      if (t && claimed && e.op !== "task.abort") {
        const hours = (Date.parse(e.at) - Date.parse(claimed)) / 3_600_000;
        cycles.set(t.role, [...(cycles.get(t.role) ?? []), Math.max(0, hours)]);
      }
    }
  }
  const openedPerDay = new Map<string, number>();
  for (const t of list) openedPerDay.set(day(t.createdAt), (openedPerDay.get(day(t.createdAt)) ?? 0) + 1);
  const days = dayRange([...openedPerDay.keys(), ...closedPerDay.keys()], o.today);
  const shown = days.slice(-DAYS_SHOWN);
  return {
    perDay: shown.map((d) => ({ day: d, opened: openedPerDay.get(d) ?? 0, closed: closedPerDay.get(d) ?? 0 })),
    daysOmitted: days.length - shown.length,
    burndown:
      o.epic === null
        ? null
        : burndown(
            list.filter((t) => t.epic === o.epic),
            closedAt,
            o.today,
          ),
    cycleTimes: [...cycles]
      .map(([r, hours]) => ({
        role: r,
        count: hours.length,
        medianHours: quantile(hours, 0.5),
        p90Hours: quantile(hours, 0.9),
      }))
      .sort((a, b) => a.role.localeCompare(b.role)),
  };
}

function burndown(tasks: ChartTask[], closedAt: ReadonlyMap<number, string>, today: string): BurnPoint[] {
  // A closed task whose closing commit the history does not name (a sync renumbered it, a
  // hand-made state) closed at its last change at the latest.
  const closed = tasks.map((t) =>
    t.status === "COMPLETE" || t.status === "ABORTED" ? day(closedAt.get(t.number) ?? t.updatedAt) : null,
  );
  const days = dayRange(
    tasks.map((t) => day(t.createdAt)),
    today,
  ).slice(-DAYS_SHOWN);
  return days.map((d) => {
    let total = 0;
    let remaining = 0;
    tasks.forEach((t, i) => {
      if (day(t.createdAt) > d) return;
      total++;
      if (closed[i] === null || closed[i]! > d) remaining++;
    });
    return { day: d, remaining, total };
  });
}

/** Every day from the earliest given to `today` (UTC), or none when nothing is given. */
function dayRange(days: string[], today: string): string[] {
  if (days.length === 0) return [];
  const first = days.reduce((a, b) => (a < b ? a : b));
  const last = day(today) > first ? day(today) : first;
  const out: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); out.length < 10_000; t += 86_400_000) {
    const d = new Date(t).toISOString().slice(0, 10);
    out.push(d);
    if (d >= last) break;
  }
  return out;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const at = Math.min(s.length - 1, Math.ceil(q * s.length) - 1);
  return Math.round((s[Math.max(0, at)] ?? 0) * 100) / 100;
}
