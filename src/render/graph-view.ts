import { epicRefId, taskRefId, type Refs } from "../domain/refs.js";
import type { GraphScope, TaskGraph } from "../domain/task-graph.js";
import { taskSummaryView, type TaskSummaryView } from "./task-view.js";

export interface GraphView {
  scope: { kind: GraphScope["kind"]; id: string | null };
  /** Each node with `blocked`: it is open and a dependency blocks it. */
  nodes: Array<TaskSummaryView & { blocked: boolean }>;
  /** `from` depends on `to`; `blocking`: that dependency holds an open task up (a blocked path). */
  edges: Array<{ from: string; to: string; blocking: boolean }>;
  total: number;
  omitted: number;
}

/** The dependency graph a web page lays out, references named by id. */
export function graphView(g: TaskGraph & { refs: Refs; scope: GraphScope }): GraphView {
  const id =
    g.scope.kind === "epic"
      ? epicRefId(g.refs, g.scope.epic)
      : g.scope.kind === "task"
        ? taskRefId(g.refs, g.scope.task)
        : null;
  return {
    scope: { kind: g.scope.kind, id },
    nodes: g.nodes.map((t) => {
      const v = taskSummaryView(t, g.refs);
      return { ...v, blocked: v.blockedBy.length > 0 && t.status !== "COMPLETE" && t.status !== "ABORTED" };
    }),
    edges: g.edges.map((e) => ({ from: taskRefId(g.refs, e.from), to: taskRefId(g.refs, e.to), blocking: e.blocking })),
    total: g.total,
    omitted: g.omitted,
  };
}
