import type { Priority } from "./priority.js";
import type { Epic } from "./schemas/epic.js";

/** An epic, not aborted: the one place an epic record is built (`epic create`). */
export function newEpic(e: {
  uid: string;
  number: number;
  title: string;
  description: string;
  priority: Priority;
  /** ISO-8601: created and updated. */
  at: string;
  by: string;
}): Epic {
  return {
    uid: e.uid,
    number: e.number,
    title: e.title,
    description: e.description,
    priority: e.priority,
    aborted: null,
    formerNumbers: [],
    createdAt: e.at,
    updatedAt: e.at,
    createdBy: e.by,
  };
}
