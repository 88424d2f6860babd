import { blockedFlags, READY_CODES } from "./blocking.js";
import { transitiveDependencies } from "./dependency-graph.js";
import type { TaskSummary as Task, Task as FullTask } from "./schemas/task.js";
import { PRIORITIES, priorityRank } from "./priority.js";
import { ROLE_CODE, STATUS_CODE, type TaskColumns } from "./task-columns.js";
import { TASK_STATUSES, type TaskStatus } from "./task-status.js";

/**
 * Ready tasks of a role, most urgent first: priority, then age (creation), then number; the first
 * `limit` of them. Candidates are gathered by priority from the columns; only the most urgent
 * ranks are ordered by age (from the creation-time column when there is one), and only the
 * answer is built.
 */
export function nextTasks(
  cols: TaskColumns,
  role: Task["role"] | null,
  limit = Infinity,
  keep?: (i: number) => boolean,
): Task[] {
  const blocked = blockedFlags(cols);
  const roleCode = role === null ? -1 : ROLE_CODE[role];
  const { count, role: roles, priority, status } = cols;
  const byRank: number[][] = PRIORITIES.map(() => []);
  for (let i = 0; i < count; i++) {
    if (
      (roleCode < 0 || roles[i] === roleCode) &&
      blocked[i] === 0 &&
      READY_CODES.has(status[i]!) &&
      (!keep || keep(i))
    )
      byRank[priority[i]!]!.push(i);
  }
  const created = cols.created;
  const age = created
    ? (i: number): number | string => created[i]!
    : (i: number): number | string => cols.task(i).createdAt;
  const picked: number[] = [];
  for (const candidates of byRank) {
    if (picked.length >= limit) break;
    picked.push(...oldest(candidates, age, limit - picked.length));
  }
  return picked.map((i) => cols.task(i));
}

/** The first k of ascending positions by age, then position (number order); each age is read once. */
function oldest(positions: readonly number[], age: (i: number) => number | string, k: number): number[] {
  if (k >= positions.length || k > 32) {
    const keyed = positions.map((i) => ({ i, at: age(i) }));
    return keyed
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i))
      .slice(0, k)
      .map((x) => x.i);
  }
  // A few of thousands (`next` asks for 5): keep the best k in order as they come. Positions
  // ascend, so a later one of equal age never goes before an earlier one.
  const best: number[] = [];
  const ages: Array<number | string> = [];
  for (let p = 0; p < positions.length; p++) {
    const i = positions[p]!;
    const at = age(i);
    if (best.length === k && at >= ages[k - 1]!) continue;
    let j = best.length === k ? k - 1 : best.length;
    while (j > 0 && at < ages[j - 1]!) j--;
    best.splice(j, 0, i);
    ages.splice(j, 0, at);
    best.length = ages.length = Math.min(best.length, k);
  }
  return best;
}

export interface Report {
  total: number;
  byStatus: Record<TaskStatus, number>;
  /** COMPLETE / (total − ABORTED), 0 when nothing counts. */
  completionRate: number;
}

/** The report of the tasks `keep` accepts (all without it) from the status column alone. */
export function columnsReport(cols: TaskColumns, keep?: (i: number) => boolean): Report {
  const counts = TASK_STATUSES.map(() => 0);
  const { count, status } = cols;
  for (let i = 0; i < count; i++) if (!keep || keep(i)) counts[status[i]!]! += 1;
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
  const blocked = blockedFlags(cols);
  const { count, status, priority } = cols;
  const byRank: number[][] = PRIORITIES.map(() => []);
  for (let i = 0; i < count; i++) {
    const code = status[i];
    if (blocked[i] === 0 || code === DONE || code === ABORTED || (keep && !keep(i))) continue;
    byRank[priority[i]!]!.push(i);
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

/**
 * What must be done before an epic is: its open tasks (neither COMPLETE nor ABORTED) and every
 * unfinished task they wait on, inside the epic or not, in an order that can be worked. Open tasks
 * go by priority, then number, so of two independent ones the more urgent comes first.
 */
export function epicPrerequisites<T extends Task>(linked: readonly Task[], lookup: (n: number) => T | undefined): T[] {
  const open = linked
    .filter((t) => t.status !== "COMPLETE" && t.status !== "ABORTED")
    .sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority) || a.number - b.number)
    .map((t) => t.number);
  // Task numbers start at 1: 0 stands for the epic, depending on its open tasks.
  return transitiveDependencies(0, (n) => (n === 0 ? open : lookup(n)?.dependencies))
    .map((n) => lookup(n))
    .filter((t): t is T => t !== undefined && t.status !== "COMPLETE");
}

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1 || /\d/.test(w));
}

/**
 * Ranked full-text search over title, labels, description, acceptance criteria and notes:
 * BM25-like scoring where title hits weigh three times a description hit, a label twice, and
 * criteria and notes one; every query word must match somewhere (as a word prefix), so
 * `login tok` finds "login token refresh" and `api` a task labelled api.
 */
export function searchTasks(tasks: readonly FullTask[], query: string): Array<{ task: FullTask; score: number }> {
  const terms = [...new Set(words(query))];
  if (terms.length === 0) return [];
  const docs = tasks.map((task) => ({
    task,
    fields: [
      { weight: 3, words: words(task.title) },
      { weight: 2, words: task.labels.flatMap(words) },
      { weight: 1.5, words: words(task.description) },
      { weight: 1, words: task.acceptance.flatMap((c) => words(c.text)) },
      { weight: 1, words: task.notes.flatMap((n) => words(n.text)) },
    ],
  }));
  const df = new Map(
    terms.map((term) => [
      term,
      docs.filter((d) => d.fields.some((f) => f.words.some((w) => w.startsWith(term)))).length,
    ]),
  );
  const out: Array<{ task: FullTask; score: number }> = [];
  for (const d of docs) {
    let score = 0;
    let matchedAll = true;
    for (const term of terms) {
      let tf = 0;
      for (const f of d.fields)
        for (const w of f.words) if (w.startsWith(term)) tf += f.weight * (w === term ? 1 : 0.6);
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
