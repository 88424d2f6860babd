import type { Review } from "./schemas/review.js";
import type { TaskSummary } from "./task-summary.js";

export interface Known {
  tasks: ReadonlySet<number>;
  epics: ReadonlySet<number>;
  missions: ReadonlySet<number>;
}

/**
 * The safe repairs `doctor --fix` makes to a task: drop references to records that do not
 * exist and make status and claim consistent again. Returns what it changed (empty: nothing).
 */
export function repairTask<T extends TaskSummary>(t: T, known: Known): { task: T; changes: string[] } {
  const changes: string[] = [];
  let task = { ...t };
  const deps = [...new Set(task.dependencies)].filter((d) => d !== task.number && known.tasks.has(d));
  if (deps.length !== task.dependencies.length) {
    changes.push(`dependencies ${task.dependencies.join(",")} → ${deps.join(",") || "none"}`);
    task.dependencies = deps;
  }
  if (task.epic !== null && !known.epics.has(task.epic)) {
    changes.push(`unlinked from missing epic ${task.epic}`);
    task.epic = null;
  }
  if (task.mission !== null && !known.missions.has(task.mission)) {
    changes.push(`cleared missing mission ${task.mission}`);
    task = { ...task, mission: null };
    if (task.status === "UNDERWAY") task = { ...task, status: "TODO", claimedBy: null };
  }
  const unclaimedState = task.status === "TODO" || task.status === "READY";
  if (unclaimedState && (task.claimedBy !== null || task.mission !== null)) {
    changes.push(`cleared the claim of a ${task.status} task`);
    task = { ...task, claimedBy: null, mission: null };
  }
  if (
    (task.status === "UNDERWAY" && (task.claimedBy === null || task.mission === null)) ||
    (task.status === "REVIEW" && task.claimedBy === null)
  ) {
    changes.push(`${task.status} without a claim → TODO`);
    task = { ...task, status: "TODO", claimedBy: null, mission: null };
  }
  if (task.status === "COMPLETE" && task.completedBy === null) {
    task = { ...task, completedBy: task.claimedBy ?? "unknown" };
    changes.push(`completedBy set to ${task.completedBy}`);
  }
  if (task.status !== "COMPLETE" && task.completedBy !== null) {
    changes.push("completedBy cleared (not COMPLETE)");
    task = { ...task, completedBy: null };
  }
  return { task, changes };
}

export function repairReview(r: Review, known: Known): { review: Review; changes: string[] } {
  if (r.task !== null && !known.tasks.has(r.task))
    return { review: { ...r, task: null }, changes: [`detached from missing task ${r.task}`] };
  return { review: r, changes: [] };
}
