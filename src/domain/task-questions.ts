import { blockedAt, readyAt } from "./blocking.js";
import { transitiveDependencies } from "./dependency-graph.js";
import type { TaskSummary as Task, Task as FullTask } from "./schemas/task.js";
import { PRIORITIES } from "./priority.js";
import { ROLE_CODE, STATUS_CODE, statusByNumber, type TaskColumns } from "./task-columns.js";
import { TASK_STATUSES, type TaskStatus } from "./task-status.js";

/**
 * Ready tasks of a role, most urgent first: priority, then age (creation), then number; the first
 * `limit` of them. Only candidates are built: a task whose priority already ranks below the
 * `limit` kept so far is dropped without reading its creation time (at 50,000 tasks, thousands
 * are ready).
 */
export function nextTasks(cols: TaskColumns, role: Task["role"] | null, limit = Infinity): Task[] {
  type Keyed = { t: Task; rank: number; at: string };
  const before = (a: Keyed, b: Keyed) => a.rank - b.rank || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0) || a.t.number - b.t.number;
  const statusOf = statusByNumber(cols);
  const roleCode = role === null ? -1 : ROLE_CODE[role];
  const kept: Keyed[] = [];
  // Once `limit` tasks of rank ≤ threshold are kept, a task of a lower priority cannot make it.
  let threshold = Infinity;
  for (let i = 0; i < cols.count; i++) {
    if ((roleCode >= 0 && cols.role[i] !== roleCode) || !readyAt(cols, statusOf, i)) continue;
    const rank = cols.priority[i]!;
    if (rank > threshold) continue;
    const t = cols.task(i);
    kept.push({ t, rank, at: t.createdAt });
    // Kept short: now and then, sort the few kept and drop all but the best `limit`.
    if (kept.length > limit * 2 + 16) {
      kept.sort(before);
      kept.length = limit;
      threshold = kept[limit - 1]!.rank;
    }
  }
  kept.sort(before);
  return (limit < kept.length ? kept.slice(0, limit) : kept).map((x) => x.t);
}

export interface Report {
  total: number;
  byStatus: Record<TaskStatus, number>;
  /** COMPLETE / (total − ABORTED), 0 when nothing counts. */
  completionRate: number;
}

export function taskReport(tasks: readonly Pick<Task, "status">[]): Report {
  const counts = TASK_STATUSES.map(() => 0);
  for (const t of tasks) counts[TASK_STATUSES.indexOf(t.status)]! += 1;
  return reportOf(counts);
}

/** The report of the tasks `keep` accepts (all without it) from the status column alone. */
export function columnsReport(cols: TaskColumns, keep?: (i: number) => boolean): Report {
  const counts = TASK_STATUSES.map(() => 0);
  for (let i = 0; i < cols.count; i++) if (!keep || keep(i)) counts[cols.status[i]!]! += 1;
  return reportOf(counts);
}

/** From counts by status code. */
function reportOf(counts: readonly number[]): Report {
  const byStatus = Object.fromEntries(TASK_STATUSES.map((s, k) => [s, counts[k]!])) as Record<TaskStatus, number>;
  const total = counts.reduce((a, b) => a + b, 0);
  const counted = total - byStatus.ABORTED;
  return { total, byStatus, completionRate: counted === 0 ? 0 : byStatus.COMPLETE / counted };
}

/** Positions (in `cols`) of the open tasks `keep` accepts with a blocking dependency, most urgent first (priority, then number). */
export function blockedTasks(cols: TaskColumns, keep?: (i: number) => boolean): number[] {
  // Thousands are blocked in a large project. Priorities are four ranks and positions are in
  // number order, so one list per rank, concatenated, is the order: no sort.
  const statusOf = statusByNumber(cols);
  const byRank: number[][] = PRIORITIES.map(() => []);
  for (let i = 0; i < cols.count; i++) {
    const code = cols.status[i];
    if (code === DONE || code === ABORTED || (keep && !keep(i)) || !blockedAt(cols, statusOf, i)) continue;
    byRank[cols.priority[i]!]!.push(i);
  }
  return ([] as number[]).concat(...byRank);
}

const [DONE, ABORTED] = [STATUS_CODE.COMPLETE, STATUS_CODE.ABORTED];

/** All unfinished transitive dependencies of a task, in an order that can be worked. */
export function prerequisites<T extends Task>(root: Task, lookup: (n: number) => T | undefined): T[] {
  return transitiveDependencies(root.number, (n) => lookup(n)?.dependencies)
    .map((n) => lookup(n))
    .filter((t): t is T => t !== undefined && t.status !== "COMPLETE");
}

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1 || /\d/.test(w));
}

/**
 * Ranked full-text search over title, description and notes: BM25-like scoring where title hits
 * weigh three times a description hit and notes weigh one; every query word must match somewhere
 * (as a word prefix), so `login tok` finds "login token refresh".
 */
export function searchTasks(tasks: readonly FullTask[], query: string): Array<{ task: FullTask; score: number }> {
  const terms = [...new Set(words(query))];
  if (terms.length === 0) return [];
  const docs = tasks.map((task) => ({
    task,
    fields: [
      { weight: 3, words: words(task.title) },
      { weight: 1.5, words: words(task.description) },
      { weight: 1, words: task.notes.flatMap((n) => words(n.text)) },
    ],
  }));
  const df = new Map(terms.map((term) => [term, docs.filter((d) => d.fields.some((f) => f.words.some((w) => w.startsWith(term)))).length]));
  const out: Array<{ task: FullTask; score: number }> = [];
  for (const d of docs) {
    let score = 0;
    let matchedAll = true;
    for (const term of terms) {
      let tf = 0;
      for (const f of d.fields) for (const w of f.words) if (w.startsWith(term)) tf += f.weight * (w === term ? 1 : 0.6);
      if (tf === 0) {
        matchedAll = false;
        break;
      }
      const idf = Math.log(1 + (docs.length - df.get(term)! + 0.5) / (df.get(term)! + 0.5));
      score += idf * ((tf * 2.2) / (tf + 1.2));
    }
    if (matchedAll) out.push({ task: d.task, score });
  }
  return out.sort((a, b) => b.score - a.score || a.task.number - b.task.number);
}
