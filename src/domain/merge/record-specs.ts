import type { Epic } from "../schemas/epic.js";
import type { Mission } from "../schemas/mission.js";
import type { Note } from "../schemas/note.js";
import type { Review } from "../schemas/review.js";
import type { Task } from "../schemas/task.js";
import { later, mergeSet, union, type FieldSpec } from "./merge-fields.js";

/** Notes are append-only: the union by id, in time order (ties by id), is exact. */
function mergeNotes(_b: Note[] | undefined, local: Note[], remote: Note[]): Note[] {
  const byId = new Map<string, Note>();
  for (const n of [...remote, ...local]) if (!byId.has(n.id)) byId.set(n.id, n);
  return [...byId.values()].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

const sortedUnion = (b: number[] | undefined, l: number[], r: number[]) => union(b, l, r).sort((x, y) => x - y);

/** The claim travels as one group: status, claimant, mission and completedBy never split. */
export const TASK_SPEC: FieldSpec<Task> = {
  groups: [["status", "claimedBy", "mission", "completedBy"], ["title"], ["description"], ["role"], ["priority"], ["epic"]],
  special: { notes: mergeNotes, dependencies: mergeSet, formerNumbers: sortedUnion, updatedAt: later },
};

export const EPIC_SPEC: FieldSpec<Epic> = {
  groups: [["title"], ["description"], ["priority"], ["aborted"]],
  special: { formerNumbers: sortedUnion, updatedAt: later },
};

export const MISSION_SPEC: FieldSpec<Mission> = {
  groups: [["status", "endedAt", "headAtEnd", "summary"], ["objective"], ["assistant", "sessionId"], ["worktree"]],
  special: { formerNumbers: sortedUnion, updatedAt: later },
};

export const REVIEW_SPEC: FieldSpec<Review> = {
  groups: [["status", "reviewer", "reason"], ["title"], ["type"], ["task"], ["artifact"]],
  special: { formerNumbers: sortedUnion, updatedAt: later },
};
