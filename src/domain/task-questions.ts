import { isBlocked, isReady, type TaskLookup } from "./blocking.js";
import { transitiveDependencies } from "./dependency-graph.js";
import { priorityRank } from "./priority.js";
import type { TaskSummary as Task, Task as FullTask } from "./schemas/task.js";
import { TASK_STATUSES, type TaskStatus } from "./task-status.js";

/**
 * Ready tasks of a role, most urgent first: priority, then age (creation), then number; the first
 * `limit` of them. A task whose priority already ranks below the `limit` kept so far is dropped
 * without reading its creation time (at 50,000 tasks, thousands are ready).
 */
export function nextTasks<T extends Task>(tasks: readonly T[], lookup: TaskLookup, role: Task["role"] | null, limit = Infinity): T[] {
  type Keyed = { t: T; rank: number; at: string };
  const before = (a: Keyed, b: Keyed) => a.rank - b.rank || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0) || a.t.number - b.t.number;
  const kept: Keyed[] = [];
  // Once `limit` tasks of rank ≤ threshold are kept, a task of a lower priority cannot make it.
  let threshold = Infinity;
  for (const t of tasks) {
    if ((role !== null && t.role !== role) || !isReady(t, lookup)) continue;
    const rank = priorityRank(t.priority);
    if (rank > threshold) continue;
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
  return statusReport(tasks.map((t) => t.status));
}

/** The report from statuses alone (what the read cache can give without building tasks). */
export function statusReport(statuses: readonly TaskStatus[]): Report {
  const byStatus = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
  for (const s of statuses) byStatus[s] += 1;
  const counted = statuses.length - byStatus.ABORTED;
  return { total: statuses.length, byStatus, completionRate: counted === 0 ? 0 : byStatus.COMPLETE / counted };
}

/** Open tasks with at least one blocking dependency, most urgent first. */
export function blockedTasks<T extends Task>(tasks: readonly T[], lookup: TaskLookup): T[] {
  // Ranks computed once per task (thousands are blocked in a large project), not per comparison.
  return tasks
    .filter((t) => t.status !== "COMPLETE" && t.status !== "ABORTED" && isBlocked(t, lookup))
    .map((t) => ({ t, rank: priorityRank(t.priority), n: t.number }))
    .sort((a, b) => a.rank - b.rank || a.n - b.n)
    .map((x) => x.t);
}

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
