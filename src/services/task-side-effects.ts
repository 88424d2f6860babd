import type { Actor } from "../domain/actor.js";
import type { TaskEvent } from "../domain/task-lifecycle.js";
import type { Task } from "../domain/schemas/task.js";
import type { Tx } from "../store/store.js";
import type { Context } from "./context.js";

export interface SideEffectInput {
  before: Task;
  after: Task;
  event: TaskEvent;
  actor: Actor;
  at: string;
  noReview: boolean;
}

/**
 * Changes other records must make in the same commit as a task's transition (DESIGN §1.6:
 * one command is one commit). Returns the ids of the records it changed.
 */
export async function applyTaskSideEffects(_ctx: Context, _tx: Tx, _input: SideEffectInput): Promise<string[]> {
  return [];
}
