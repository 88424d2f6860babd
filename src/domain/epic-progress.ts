import type { Epic } from "./schemas/epic.js";
import type { Task } from "./schemas/task.js";

export type EpicStatus = "TODO" | "UNDERWAY" | "COMPLETE" | "ABORTED";

export interface EpicProgress {
  complete: number;
  total: number;
  percent: number;
}

/**
 * Derived, never stored (DESIGN §1.4): ABORTED if aborted; COMPLETE when every linked task is
 * COMPLETE or ABORTED and at least one is COMPLETE; UNDERWAY once any linked task left
 * TODO/READY; else TODO.
 */
export function epicStatus(epic: Pick<Epic, "aborted">, linked: readonly Pick<Task, "status">[]): EpicStatus {
  if (epic.aborted !== null) return "ABORTED";
  if (
    linked.length > 0 &&
    linked.every((t) => t.status === "COMPLETE" || t.status === "ABORTED") &&
    linked.some((t) => t.status === "COMPLETE")
  ) {
    return "COMPLETE";
  }
  if (linked.some((t) => t.status !== "TODO" && t.status !== "READY")) return "UNDERWAY";
  return "TODO";
}

/** complete = COMPLETE linked tasks; total = linked tasks not ABORTED; percent rounded, 0 when empty. */
export function epicProgress(linked: readonly Pick<Task, "status">[]): EpicProgress {
  const complete = linked.filter((t) => t.status === "COMPLETE").length;
  const total = linked.filter((t) => t.status !== "ABORTED").length;
  return { complete, total, percent: total === 0 ? 0 : Math.round((100 * complete) / total) };
}
