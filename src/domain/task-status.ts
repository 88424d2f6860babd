import { UsageError } from "../errors.js";

export const TASK_STATUSES = ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED", "COMPLETE", "ABORTED"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const OPEN_STATUSES: readonly TaskStatus[] = ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"];

/** States in which a task's claimedBy is a live claim (closed tasks keep it as history). */
export const CLAIMED_STATUSES: readonly TaskStatus[] = ["UNDERWAY", "REVIEW", "BLOCKED"];

export function isOpen(status: TaskStatus): boolean {
  return OPEN_STATUSES.includes(status);
}

/** Case-insensitive; also accepts the spelling IN_PROGRESS/IN-REVIEW people type from other tools. */
export function parseTaskStatus(input: string, flag = "--status"): TaskStatus {
  const raw = input.trim().toUpperCase().replace(/[- ]/g, "_");
  const alias: Record<string, TaskStatus> = { IN_PROGRESS: "UNDERWAY", DONE: "COMPLETE", CANCELLED: "ABORTED" };
  const found = TASK_STATUSES.find((s) => s === raw) ?? alias[raw];
  if (!found) throw new UsageError(`Unknown status "${input}" for ${flag}`, `statuses: ${TASK_STATUSES.join(", ")}`);
  return found;
}
