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
  /** The day (YYYY-MM-DD, UTC) it was created. */
  createdDay: string;
  /** The day of its last change: asked only of a closed task whose closing the history does not name. */
  updatedDay(): string;
}

/** A task's chart view from its record (the service builds them off the cache's columns instead). */
export function chartTask(t: {
  number: number;
  role: TaskRole;
  epic: number | null;
  status: TaskStatus;
  createdAt: string;
  updatedAt: string;
}): ChartTask {
  const { number, role, epic, status } = t;
  return { number, role, epic, status, createdDay: day(t.createdAt), updatedDay: () => day(t.updatedAt) };
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

/** The ops that close the tasks they name; a claim starts the time a completion measures. */
export const CLOSE_OPS: ReadonlySet<string> = new Set(["task.complete", "task.abort", "review.approve"]);
export const CLAIM_OP = "task.claim";
const ABORT_OP = "task.abort";
const day = (iso: string) => iso.slice(0, 10);

/** One commit naming a task, as that task's facts are folded from it: its op and author date (ms). */
export interface TaskTouch {
  op: string;
  at: number;
}

/** What the charts keep of one task number's history: its last close, and each claim-to-completion time. */
export interface TaskFacts {
  /** The author date (ms) of the last commit that closed it; null when none did. */
  closedAt: number | null;
  /** Hours from the last claim before it to each completion (not abort) after a claim. */
  cycles: ArrayLike<number>;
}

/**
 * What the charts read of the whole history (DESIGN §2.4a): closings per day, and per task
 * number its facts. Kept by the history index, so the charts never walk the commits.
 */
export interface HistoryFacts {
  closedPerDay: ReadonlyMap<string, number>;
  task(n: number): TaskFacts | undefined;
  /**
   * Each task number's cycle times, ascending by number: `hours[from]` … `hours[to - 1]`.
   * Asking task(n) of 20,000 tasks built 20,000 answers; this builds none.
   */
  eachCycles(fn: (n: number, hours: ArrayLike<number>, from: number, to: number) => void): void;
}

/** The day (YYYY-MM-DD, UTC) of a time in ms; a date JavaScript cannot show counts as 1970-01-01. */
export function dayOf(ms: number): string {
  return isoOf(ms).slice(0, 10);
}

/** ISO-8601 of a time in ms, never throwing: outside JavaScript's dates, the epoch. */
export function isoOf(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

/** Whether a commit of this op counts as closing the tasks it names. */
export function closes(op: string): boolean {
  return CLOSE_OPS.has(op);
}

/**
 * One task number's facts from the commits naming it, oldest first: the last close, and for
 * each completion (or approval) after a claim, the hours since the latest claim before it.
 */
export function taskFacts(touches: Iterable<TaskTouch>): TaskFacts {
  let claimed: number | null = null;
  let closedAt: number | null = null;
  const cycles: number[] = [];
  for (const t of touches) {
    if (t.op === CLAIM_OP) claimed = t.at;
    if (!CLOSE_OPS.has(t.op)) continue;
    closedAt = t.at;
    if (claimed !== null && t.op !== ABORT_OP) cycles.push(Math.max(0, (t.at - claimed) / 3_600_000));
  }
  return { closedAt, cycles };
}

/** The facts of a list of events (oldest first), as a walk of every commit gives them. */
export function factsOfEvents(events: readonly TaskEvent[]): HistoryFacts {
  const touches = new Map<number, TaskTouch[]>();
  const closedPerDay = new Map<string, number>();
  for (const e of events) {
    const at = Date.parse(e.at);
    for (const n of e.tasks) {
      const list = touches.get(n) ?? [];
      list.push({ op: e.op, at });
      touches.set(n, list);
      if (CLOSE_OPS.has(e.op)) closedPerDay.set(dayOf(at), (closedPerDay.get(dayOf(at)) ?? 0) + 1);
    }
  }
  const facts = new Map([...touches].sort((a, b) => a[0] - b[0]).map(([n, list]) => [n, taskFacts(list)]));
  return {
    closedPerDay,
    task: (n) => facts.get(n),
    eachCycles: (fn) => {
      for (const [n, f] of facts) fn(n, f.cycles, 0, f.cycles.length);
    },
  };
}

/**
 * Tasks opened and closed per day (opened: createdAt; closed: commits that completed or aborted
 * a task, a review approval naming a task included), the burn-down of one epic (its linked
 * tasks, as linked today), and the time from a task's last claim to its completion per role.
 * Reads the history's facts only, so its cost follows the tasks and days, not the commits.
 */
export function historyCharts(
  facts: HistoryFacts,
  tasks: Iterable<ChartTask>,
  o: { epic: number | null; today: string },
): HistoryCharts {
  const cycles = new Map<TaskRole, number[]>();
  const list = [...tasks];
  const openedPerDay = new Map<string, number>();
  for (const t of list) openedPerDay.set(t.createdDay, (openedPerDay.get(t.createdDay) ?? 0) + 1);
  // Each number with facts meets today's task of that number: in number order, both walk forward.
  const sorted = list.every((t, i) => i === 0 || list[i - 1]!.number < t.number);
  const byNumber = sorted ? null : new Map(list.map((t) => [t.number, t]));
  let at = 0;
  facts.eachCycles((n, hours, from, to) => {
    if (from === to) return;
    let t: ChartTask | undefined;
    if (byNumber) t = byNumber.get(n);
    else {
      while (at < list.length && list[at]!.number < n) at++;
      t = list[at]?.number === n ? list[at] : undefined;
    }
    if (!t) return;
    // Pushed, never copied: a copy per task made 20,000 tasks' cycle times quadratic (~0.5 s).
    let into = cycles.get(t.role);
    if (!into) cycles.set(t.role, (into = []));
    for (let i = from; i < to; i++) into.push(hours[i]!);
  });
  const closedPerDay = facts.closedPerDay;
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
            facts,
            o.today,
          ),
    cycleTimes: [...cycles]
      .map(([r, hours]) => {
        const sorted = Float64Array.from(hours).sort();
        return { role: r, count: hours.length, medianHours: quantile(sorted, 0.5), p90Hours: quantile(sorted, 0.9) };
      })
      .sort((a, b) => a.role.localeCompare(b.role)),
  };
}

function burndown(tasks: ChartTask[], facts: HistoryFacts, today: string): BurnPoint[] {
  // A closed task whose closing commit the history does not name (a sync renumbered it, a
  // hand-made state) closed at its last change at the latest.
  const closed = tasks.map((t) => {
    if (t.status !== "COMPLETE" && t.status !== "ABORTED") return null;
    const at = facts.task(t.number)?.closedAt ?? null;
    return at === null ? t.updatedDay() : dayOf(at);
  });
  const days = dayRange(
    tasks.map((t) => t.createdDay),
    today,
  ).slice(-DAYS_SHOWN);
  return days.map((d) => {
    let total = 0;
    let remaining = 0;
    tasks.forEach((t, i) => {
      if (t.createdDay > d) return;
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

/** The q-quantile of values sorted ascending. */
function quantile(s: Float64Array, q: number): number {
  const at = Math.min(s.length - 1, Math.ceil(q * s.length) - 1);
  return Math.round((s[Math.max(0, at)] ?? 0) * 100) / 100;
}
