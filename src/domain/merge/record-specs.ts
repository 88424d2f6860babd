import type { Epic } from "../schemas/epic.js";
import type { Mission } from "../schemas/mission.js";
import type { Note } from "../schemas/note.js";
import type { Review } from "../schemas/review.js";
import type { Task } from "../schemas/task.js";
import { roleSet, type TaskRole } from "../roles.js";
import { fieldSpec, later, mergeSet, union, type FieldRules } from "./merge-fields.js";
import { mergeAcceptance } from "./merge-acceptance.js";
import { mergeLabels } from "./merge-labels.js";

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

// Every table names every field of its record's schema (FieldRules<T> leaves none optional): a
// field added to a schema does not compile until its row here says how two clones' edits merge.
// "alone": a three-way merge of that field by itself, a change on one side taken, different
// changes on both a conflict the published side wins. A group: its fields travel together.
// Fields that never change after creation (uid, number, createdAt, createdBy) merge alone too:
// a renumbering (renumber.ts) is the one edit of a number, and it happens before the merge.

/** The claim travels as one group: status, claimant, mission and completedBy never split. */
const CLAIM = { group: "claim" } as const;

export const TASK_RULES: FieldRules<Task> = {
  uid: "alone",
  number: "alone",
  createdAt: "alone",
  createdBy: "alone",
  updatedAt: later,
  title: "alone",
  description: "alone",
  role: "alone",
  priority: "alone",
  status: CLAIM,
  claimedBy: CLAIM,
  mission: CLAIM,
  completedBy: CLAIM,
  dependencies: mergeSet,
  epic: "alone",
  notes: mergeNotes,
  formerNumbers: sortedUnion,
  formerRoles,
  labels: mergeLabels,
  acceptance: mergeAcceptance,
};

export const EPIC_RULES: FieldRules<Epic> = {
  uid: "alone",
  number: "alone",
  createdAt: "alone",
  createdBy: "alone",
  updatedAt: later,
  title: "alone",
  description: "alone",
  priority: "alone",
  aborted: "alone",
  formerNumbers: sortedUnion,
};

/** A mission's end travels as one group; so do the assistant and the session it ran. */
const END = { group: "end" } as const;
const SESSION = { group: "session" } as const;

export const MISSION_RULES: FieldRules<Mission> = {
  uid: "alone",
  number: "alone",
  createdAt: "alone",
  createdBy: "alone",
  updatedAt: later,
  codename: "alone",
  persona: "alone",
  role: "alone",
  startedAt: "alone",
  headAtStart: "alone",
  status: END,
  endedAt: END,
  headAtEnd: END,
  summary: END,
  objective: "alone",
  assistant: SESSION,
  sessionId: SESSION,
  worktree: "alone",
  formerNumbers: sortedUnion,
};

/** A verdict travels as one group: status, reviewer and reason. */
const VERDICT = { group: "verdict" } as const;

export const REVIEW_RULES: FieldRules<Review> = {
  uid: "alone",
  number: "alone",
  createdAt: "alone",
  createdBy: "alone",
  updatedAt: later,
  requestedBy: "alone",
  status: VERDICT,
  reviewer: VERDICT,
  reason: VERDICT,
  title: "alone",
  type: "alone",
  task: "alone",
  artifact: "alone",
  formerNumbers: sortedUnion,
};

export const TASK_SPEC = fieldSpec(TASK_RULES);
export const EPIC_SPEC = fieldSpec(EPIC_RULES);
export const MISSION_SPEC = fieldSpec(MISSION_RULES);
export const REVIEW_SPEC = fieldSpec(REVIEW_RULES);
