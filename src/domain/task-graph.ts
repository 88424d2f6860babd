import { blockingState } from "./blocking.js";
import type { TaskSummary } from "./schemas/task.js";
import { blockedTasks } from "./task-questions.js";
import { columnsOf } from "./task-columns.js";
import type { TaskMap } from "./task-index.js";

/** Which part of the dependency graph to draw: laying out 10,000 tasks helps nobody. */
export type GraphScope = { kind: "epic"; epic: number } | { kind: "task"; task: number } | { kind: "blocked" };

export interface GraphEdge {
  /** The task that depends … */
  from: number;
  /** … on this one. */
  to: number;
  /** The dependency blocks an open task (neither COMPLETE nor in REVIEW): a blocked path. */
  blocking: boolean;
}

export interface TaskGraph {
  nodes: TaskSummary[];
  edges: GraphEdge[];
  /** Tasks the scope reaches in all, and how many of them were left out past the cap. */
  total: number;
  omitted: number;
}

const CLOSED = new Set(["COMPLETE", "ABORTED"]);

/**
 * The tasks a scope reaches, breadth first from its seeds, at most `cap` of them, with the
 * dependency edges between those shown:
 * - epic: its tasks, then what they depend on outside it;
 * - task: the task, what it depends on and what depends on it, transitively;
 * - blocked: every open blocked task (most urgent first) and the unfinished dependencies that
 *   block it, down to the tasks that hold everything up.
 */
export function taskGraph(tasks: TaskMap, scope: GraphScope, cap: number): TaskGraph {
  const cols = columnsOf(tasks);
  const seeds: number[] = [];
  let dependents: Map<number, number[]> | null = null;
  if (scope.kind === "epic") {
    for (let i = 0; i < cols.count; i++) if (cols.epic[i] === scope.epic) seeds.push(cols.number[i]!);
  } else if (scope.kind === "task") {
    seeds.push(scope.task);
    dependents = new Map();
    for (let i = 0; i < cols.count; i++) {
      for (let k = cols.depStart[i]!; k < cols.depStart[i + 1]!; k++) {
        const d = cols.depValues[k]!;
        const list = dependents.get(d);
        if (list) list.push(cols.number[i]!);
        else dependents.set(d, [cols.number[i]!]);
      }
    }
  } else {
    for (const i of blockedTasks(cols)) seeds.push(cols.number[i]!);
  }
  const seen = new Set<number>();
  const order: number[] = [];
  const queue = seeds.filter((n) => tasks.has(n));
  for (const n of queue) seen.add(n);
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    order.push(n);
    const t = tasks.get(n)!;
    // The blocked view follows only what blocks; the others every dependency.
    const next =
      scope.kind === "blocked"
        ? blockingState(t, (m) => tasks.get(m)).blockedBy
        : [...t.dependencies, ...(dependents?.get(n) ?? [])];
    for (const d of next) {
      if (seen.has(d) || !tasks.has(d)) continue;
      seen.add(d);
      queue.push(d);
    }
  }
  const shown = order.slice(0, cap);
  const inGraph = new Set(shown);
  const nodes = shown.map((n) => tasks.get(n)!);
  const edges: GraphEdge[] = [];
  for (const t of nodes) {
    const { blockedBy } = blockingState(t, (m) => tasks.get(m));
    for (const d of t.dependencies) {
      if (inGraph.has(d))
        edges.push({ from: t.number, to: d, blocking: !CLOSED.has(t.status) && blockedBy.includes(d) });
    }
  }
  return { nodes, edges, total: order.length, omitted: order.length - shown.length };
}
