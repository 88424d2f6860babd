import type { Epic } from "../schemas/epic.js";
import type { Mission } from "../schemas/mission.js";
import type { Note } from "../schemas/note.js";
import type { Review } from "../schemas/review.js";
import type { Task } from "../schemas/task.js";
import { roleSet, type TaskRole } from "../roles.js";
import { later, mergeSet, union, type FieldSpec } from "./merge-fields.js";

/**
 * Notes are append-only, so the union by id, in time order (ties by id), is exact; a note the
 * base had and one side no longer has was removed on purpose (a history purged on the remote,
 * DESIGN §3.2) and stays removed, as a three-way set merge by id.
 */
function mergeNotes(base: Note[] | undefined, local: Note[], remote: Note[]): Note[] {
  const inBase = new Set((base ?? []).map((n) => n.id));
  const inLocal = new Set(local.map((n) => n.id));
  const inRemote = new Set(remote.map((n) => n.id));
  const byId = new Map<string, Note>();
  for (const n of [...remote, ...local]) {
    if (byId.has(n.id) || (inBase.has(n.id) && !(inLocal.has(n.id) && inRemote.has(n.id)))) continue;
    byId.set(n.id, n);
  }
  return [...byId.values()].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

const sortedUnion = (b: number[] | undefined, l: number[], r: number[]) => union(b, l, r).sort((x, y) => x - y);

/** Roles a task had: a union (a task never stops having had a role), in one order both sides agree on. */
const formerRoles = (_b: TaskRole[] | undefined, l: TaskRole[], r: TaskRole[]): TaskRole[] => roleSet(l, r);

/** The claim travels as one group: status, claimant, mission and completedBy never split. */
export const TASK_SPEC: FieldSpec<Task> = {
  groups: [["status", "claimedBy", "mission", "completedBy"], ["title"], ["description"], ["role"], ["priority"], ["epic"]],
  special: { notes: mergeNotes, dependencies: mergeSet, formerNumbers: sortedUnion, formerRoles, updatedAt: later },
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
