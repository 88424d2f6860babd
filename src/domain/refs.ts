import { epicId, taskId } from "./ids.js";
import type { Epic } from "./schemas/epic.js";
import type { TaskMap } from "./task-index.js";

/**
 * The records a result refers to, so views can name them by id (`ENG-H-0007`, `EPC-H-0001`):
 * an id is derived from the record's current role and priority, not stored.
 */
export interface Refs {
  tasks: TaskMap;
  epics: Map<number, Epic>;
}

export function emptyRefs(): Refs {
  return { tasks: new Map(), epics: new Map() };
}

/** A dangling reference (a hand-edited or damaged state) shows its number with a `?`. */
export function taskRefId(refs: Refs, n: number): string {
  const t = refs.tasks.get(n);
  return t ? taskId(t) : `?-${n}`;
}

export function epicRefId(refs: Refs, n: number): string {
  const e = refs.epics.get(n);
  return e ? epicId(e) : `EPC-?-${String(n).padStart(4, "0")}`;
}
