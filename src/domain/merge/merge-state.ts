import { sameName } from "../actor.js";
import type { Counters } from "../schemas/counters.js";
import type { Epic } from "../schemas/epic.js";
import type { Mission } from "../schemas/mission.js";
import type { Review } from "../schemas/review.js";
import type { Task } from "../schemas/task.js";
import { missionViolations, reviewViolations, taskViolations } from "../record-invariants.js";
import { mergeFields, sameValue, type FieldConflict, type FieldSpec } from "./merge-fields.js";
import { describeValue, later, mergeNote, withNotes } from "./conflict-notes.js";
import { mergeFollowUps } from "./merge-followups.js";
import { EPIC_SPEC, MISSION_SPEC, REVIEW_SPEC, TASK_SPEC } from "./record-specs.js";
import { roleSet } from "../roles.js";
import {
  emptyRenumbering,
  remapEpic,
  remapMission,
  remapReview,
  remapTask,
  type Kind,
  type Renumbering,
} from "./renumber.js";

import { CORRUPT, isRecord, type Side } from "./merge-sides.js";

export { CORRUPT, isRecord, type Side } from "./merge-sides.js";

/** A path changed on the local side since the merge base (remote-only changes need no input). */
export interface Touched<T> {
  number: number;
  base: Side<T>;
  local: Side<T>;
  remote: Side<T>;
  /** False when the remote still has the base's blob at this path. */
  remoteChanged: boolean;
}

interface KindTypes {
  tasks: Task;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

export interface MergeInput {
  touched: { [K in Kind]: Touched<KindTypes[K]>[] };
  counters: { local: Counters; remote: Counters };
  /** Remote name, for the conflict notes' wording. */
  remote: string;
  /**
   * `sync --adopt-remote` (two unrelated histories): every local record moves to a new number
   * above both sides', collision or not, so this clone's records keep their order after the
   * remote's.
   */
  renumberAll?: boolean;
  /**
   * The published version of tasks the local side did not change that a changed review names:
   * a review decided differently on both sides keeps the losing verdict in its task's notes.
   */
  published?: { tasks: ReadonlyMap<number, Task> };
}

/** What to write over the remote tree: a record, the local blob as is, or a deletion. */
export type Write<T> =
  | { number: number; value: T }
  | { number: number; blob: "local" }
  | { number: number; delete: true };

export interface MergeOutput {
  writes: { [K in Kind]: Write<KindTypes[K]>[] };
  counters: Counters;
  renumbered: Array<{ kind: Kind; from: number; to: number }>;
  droppedClaims: Array<{ task: number; local: string; remote: string | null }>;
  /** Review requests of this clone withdrawn because the claim they were for was dropped. */
  withdrawn: Array<{ review: number; task: number; requester: string }>;
  /**
   * Values changed on both sides where the published one won. `noted`: the record whose notes
   * keep this clone's value (the task itself, a review's task), or null when none could (a
   * mission, an epic, a review of no task): the report then says the value itself.
   */
  conflicts: Array<{ kind: Kind; number: number; noted: { kind: "tasks"; number: number } | null } & FieldConflict>;
  unreadable: Array<{ kind: Kind; number: number; kept: "remote" | "local" }>;
}

interface KindRules<T> {
  spec: FieldSpec<T>;
  remap: (v: T, r: Renumbering) => T;
  violations: (v: T) => string[];
}

const RULES: { [K in Kind]: KindRules<KindTypes[K]> } = {
  tasks: { spec: TASK_SPEC, remap: remapTask, violations: taskViolations },
  epics: { spec: EPIC_SPEC, remap: remapEpic, violations: () => [] },
  missions: { spec: MISSION_SPEC, remap: remapMission, violations: missionViolations },
  reviews: { spec: REVIEW_SPEC, remap: remapReview, violations: reviewViolations },
};

const KINDS: readonly Kind[] = ["tasks", "epics", "missions", "reviews"];

/**
 * Merges the records changed on the local side into the published (remote) state: a pure,
 * deterministic function of base, local and remote (DESIGN §3.3, §3.4). The same number with a
 * different uid is a collision: the published record keeps the number, the local one moves to
 * the next free number and every local reference to it is rewritten.
 */
export function mergeState(input: MergeInput): MergeOutput {
  const out: MergeOutput = {
    writes: { tasks: [], epics: [], missions: [], reviews: [] },
    counters: { ...input.counters.remote },
    renumbered: [],
    droppedClaims: [],
    withdrawn: [],
    conflicts: [],
    unreadable: [],
  };
  for (const k of KINDS)
    out.counters[k] = Math.max(
      input.counters.local[k],
      input.counters.remote[k],
      ...input.touched[k].map((t) => t.number),
    );
  mergeUnknownCounters(input.counters.local, out.counters);
  // Joining (every readable local record moves): the new numbers follow the published ones,
  // above any number that stays in use (the remote's, below its counter or touched here, and an
  // unreadable local entry, which is carried where it is).
  const next: Record<Kind, number> = { tasks: 0, epics: 0, missions: 0, reviews: 0 };
  for (const k of KINDS)
    next[k] = input.renumberAll
      ? Math.max(
          input.counters.remote[k],
          ...input.touched[k].filter((t) => t.remote !== null || !isRecord(t.local)).map((t) => t.number),
        )
      : out.counters[k];

  // 1. Collisions get new numbers first, so every local reference can be rewritten after.
  const renumbering = emptyRenumbering();
  for (const k of KINDS) {
    // Another uid at the number, or an unreadable published entry where this clone created a
    // record: either way the local record moves, so nothing present on either side is lost.
    const collided = input.touched[k].filter(
      (t) =>
        isRecord(t.local) &&
        ((input.renumberAll && (!isRecord(t.remote) || t.local.uid !== t.remote.uid)) ||
          (t.remoteChanged &&
            ((isRecord(t.remote) && t.local.uid !== t.remote.uid) || (t.remote === CORRUPT && t.base === null)))),
    );
    for (const t of [...collided].sort((a, b) => a.number - b.number)) {
      next[k] += 1;
      renumbering[k].set(t.number, next[k]);
      out.renumbered.push({ kind: k, from: t.number, to: next[k] });
    }
    out.counters[k] = Math.max(out.counters[k], next[k]);
  }
  for (const k of KINDS)
    mergeKind(k, input.touched[k] as Touched<KindTypes[typeof k]>[], renumbering, input.remote, out);
  mergeFollowUps(input, out);
  return out;
}

/**
 * Counters a newer Pantheon keeps for kinds this one does not know: the maximum when both sides
 * have one (a counter only grows), else whichever side has it. Never dropped.
 */
function mergeUnknownCounters(local: Counters, merged: Counters): void {
  const out = merged as Record<string, unknown>;
  for (const [key, value] of Object.entries(local)) {
    if ((KINDS as readonly string[]).includes(key) || key === "__proto__") continue;
    const published = out[key];
    if (!Object.hasOwn(out, key)) out[key] = value;
    else if (typeof published === "number" && typeof value === "number") out[key] = Math.max(published, value);
  }
}

function mergeKind<K extends Kind>(
  kind: K,
  touched: Touched<KindTypes[K]>[],
  renumbering: Renumbering,
  remoteName: string,
  out: MergeOutput,
): void {
  const rules = RULES[kind] as unknown as KindRules<KindTypes[K]>;
  const writes = out.writes[kind] as Write<KindTypes[K]>[];
  for (const t of touched) {
    const local = isRecord(t.local) ? rules.remap(t.local, renumbering) : t.local;
    const moved = renumbering[kind].get(t.number);
    if (moved !== undefined && isRecord(local)) {
      writes.push({
        number: moved,
        value: { ...local, number: moved, formerNumbers: [...new Set([...local.formerNumbers, t.number])] },
      });
      continue;
    }
    if (!t.remoteChanged) {
      if (local === null) writes.push({ number: t.number, delete: true });
      else if (isRecord(local) && isRecord(t.local) && !sameValue(local, t.local))
        writes.push({ number: t.number, value: local });
      else writes.push({ number: t.number, blob: "local" });
      continue;
    }
    if (!isRecord(local) || !isRecord(t.remote)) {
      // Unreadable or deleted on a side: the published blob stays (only doctor --fix removes).
      if (local === CORRUPT || t.remote === CORRUPT) out.unreadable.push({ kind, number: t.number, kept: "remote" });
      continue;
    }
    const base = isRecord(t.base) ? t.base : null;
    const { merged, conflicts } = mergeFields(base, local, t.remote, rules.spec);
    let result = merged;
    let lost = conflicts;
    if (rules.violations(merged).length > 0) {
      // Combining the sides broke an invariant: take the whole published record (DESIGN §3.3).
      result = t.remote;
      lost = [{ fields: ["(whole record)"], local, remote: t.remote }];
    }
    for (const c of lost)
      out.conflicts.push({
        kind,
        number: t.number,
        ...c,
        noted: kind === "tasks" ? { kind: "tasks" as const, number: t.number } : null,
      });
    if (kind === "tasks")
      result = rolesItHad(
        noteConflicts(result as Task, local as Task, t.remote as Task, lost, remoteName, out),
        local as Task,
        t.remote as Task,
      ) as KindTypes[K];
    if (!sameValue(result, t.remote)) writes.push({ number: t.number, value: result });
  }
}

/**
 * A role that lost a conflict was still the task's role on that side: ids with its prefix were
 * handed out there, so it joins `formerRoles` (DESIGN §1.2) and those ids keep naming the task.
 */
function rolesItHad(task: Task, local: Task, remote: Task): Task {
  const lost = [local.role, remote.role].filter((r) => r !== task.role && !task.formerRoles.includes(r));
  return lost.length === 0 ? task : { ...task, formerRoles: roleSet(task.formerRoles, lost) };
}

/** Keeps each losing value as a `conflict` note, and reports a dropped claim. */
function noteConflicts(
  task: Task,
  local: Task,
  remote: Task,
  lost: FieldConflict[],
  remoteName: string,
  out: MergeOutput,
): Task {
  if (lost.length === 0) return task;
  // A claim is dropped only when the merged task no longer carries it.
  const claimed = local.claimedBy !== null && ["UNDERWAY", "REVIEW", "BLOCKED"].includes(local.status);
  if (claimed && !sameName(task.claimedBy, local.claimedBy)) {
    out.droppedClaims.push({ task: task.number, local: local.claimedBy!, remote: task.claimedBy });
  }
  const at = later(local.updatedAt, remote.updatedAt);
  const notes = lost.map((c) =>
    mergeNote(
      task.uid,
      at,
      "conflict",
      `sync with ${remoteName}: kept ${describeValue(c.remote)} from ${remoteName}; this clone had ${describeValue(c.local)}`,
    ),
  );
  return withNotes(task, notes);
}
