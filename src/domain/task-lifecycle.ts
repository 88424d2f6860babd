import { InvalidTransitionError } from "../errors.js";
import { activeClaimant, hasActiveMission, IDENTIFY_HINT, isOwner, sameName, type Actor } from "./actor.js";
import { taskId } from "./ids.js";
import type { Note, NoteKind } from "./schemas/note.js";
import type { Task } from "./schemas/task.js";
import type { TaskStatus } from "./task-status.js";

/** Events of DESIGN §1.4; each row of TRANSITIONS below is one line of that table. */
export type TaskEvent =
  | "claim"
  | "resume"
  | "start"
  | "submit"
  | "block"
  | "unblock"
  | "handoff"
  | "complete"
  | "abort"
  | "unassign"
  | "reopen"
  | "approve"
  | "reject"
  | "release";

/** What the guards need to know beyond the task itself, gathered by the service. */
export interface TransitionFacts {
  actor: Actor;
  force: boolean;
  /** Numbers of the dependencies that block this task (neither COMPLETE nor in REVIEW). */
  blockedBy: readonly number[];
  /** Whether the mission the current claim was made under is still ACTIVE. */
  claimMissionActive: boolean;
}

interface Refusal {
  reason: string;
  hint?: string;
}

interface Row {
  event: TaskEvent;
  from: readonly TaskStatus[];
  /** The command a person types, for messages and `allowedActions`. */
  command: string;
  guard: (task: Task, f: TransitionFacts) => Refusal | null;
  to: (task: Task) => TaskStatus;
  effect: (task: Task, f: TransitionFacts) => Partial<Task>;
  noteKind?: NoteKind;
}

const ownerGuard = (task: Task, f: TransitionFacts): Refusal | null => {
  if (activeClaimant(task) === null || isOwner(task, f.actor)) return null;
  return {
    reason: `it is claimed by ${task.claimedBy}, and only its claimant, an administrator or the Director may do that`,
  };
};

const ownerAlways = (task: Task, f: TransitionFacts): Refusal | null =>
  isOwner(task, f.actor)
    ? null
    : {
        reason: `only ${activeClaimant(task) ? `its claimant (${task.claimedBy}), ` : ""}an administrator or the Director may do that`,
      };

/** The claim guard of DESIGN §1.4: an ACTIVE mission of the task's role, not blocked, not claimed by another. */
export function claimGuard(task: Task, f: TransitionFacts): Refusal | null {
  const a = f.actor;
  if (a.kind === "director") {
    return {
      reason: "the Director has no mission to claim under",
      hint: `start one: pantheon mission start --role ${task.role}; then pass --mission <id>`,
    };
  }
  if (a.kind === "unidentified")
    return { reason: "an unidentified persona has no mission to claim under", hint: IDENTIFY_HINT };
  if (!hasActiveMission(a)) {
    return a.mission
      ? {
          reason: `${a.name}'s mission is ENDED`,
          hint: `start a new one: pantheon mission start --role ${task.role} --persona ${a.name}`,
        }
      : {
          reason: `${a.name} has no ACTIVE mission`,
          hint: `pantheon mission start --role ${task.role} --persona ${a.name}`,
        };
  }
  if (a.role !== task.role && !f.force) {
    return {
      reason: `it is ${article(task.role)} ${task.role} task and ${a.name} is on ${article(a.role ?? "")} ${a.role} mission`,
      hint: "add --force to claim it anyway",
    };
  }
  if (f.blockedBy.length > 0 && !f.force) {
    return {
      reason: `it is blocked by ${f.blockedBy.length} unfinished dependenc${f.blockedBy.length === 1 ? "y" : "ies"}`,
      hint: `pantheon task prereqs ${taskId(task)} (or --force)`,
    };
  }
  const holder = activeClaimant(task);
  if (holder && !sameName(holder, a.name)) return { reason: `it is already claimed by ${holder}` };
  return null;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

const claimEffect = (_t: Task, f: TransitionFacts): Partial<Task> =>
  f.actor.kind === "persona" ? { claimedBy: f.actor.name, mission: f.actor.mission?.number ?? null } : {};
const clearClaim = (): Partial<Task> => ({ claimedBy: null, mission: null });
const same = (t: Task): TaskStatus => t.status;
const to = (s: TaskStatus) => () => s;
const none = (): null => null;
const nothing = (): Partial<Task> => ({});

export const TRANSITIONS: readonly Row[] = [
  {
    event: "claim",
    from: ["TODO", "READY"],
    command: "claim",
    guard: claimGuard,
    to: to("UNDERWAY"),
    effect: claimEffect,
  },
  {
    event: "resume",
    from: ["UNDERWAY", "BLOCKED", "REVIEW"],
    command: "claim",
    guard: (t, f) => {
      if (activeClaimant(t) === null) {
        return {
          reason: `it is ${t.status} and claimed by no one`,
          hint: `pantheon task update ${taskId(t)} --status UNDERWAY (claims it) or --status TODO`,
        };
      }
      if (f.claimMissionActive) {
        return sameName(t.claimedBy, f.actor.name)
          ? { reason: `it is already claimed by ${t.claimedBy} on an ACTIVE mission` }
          : { reason: `it is already claimed by ${t.claimedBy}` };
      }
      const a = f.actor;
      if (!hasActiveMission(a)) return claimGuard(t, f);
      if (a.role !== t.role && !f.force)
        return {
          reason: `it is ${article(t.role)} ${t.role} task and ${a.name} is on ${article(a.role ?? "")} ${a.role} mission`,
          hint: "add --force to resume it anyway",
        };
      if (!sameName(t.claimedBy, a.name) && !f.force) {
        return {
          reason: `its claim by ${t.claimedBy} was left on an ENDED mission`,
          hint: "add --force to take it over",
        };
      }
      return null;
    },
    to: same,
    effect: claimEffect,
  },
  {
    // From UNDERWAY it is the claimant's no-op (DESIGN §1.4): no change, and the service makes no commit.
    event: "start",
    from: ["TODO", "READY", "BLOCKED", "REVIEW", "UNDERWAY"],
    command: "update --status UNDERWAY",
    guard: (t, f) => {
      const holder = activeClaimant(t);
      if (holder === null) return claimGuard(t, f);
      return sameName(holder, f.actor.name)
        ? null
        : { reason: `it is claimed by ${holder}; only the claimant may resume work on it` };
    },
    to: to("UNDERWAY"),
    effect: (t, f) =>
      t.status !== "UNDERWAY" && (activeClaimant(t) === null || hasActiveMission(f.actor)) ? claimEffect(t, f) : {},
  },
  {
    event: "submit",
    from: ["UNDERWAY"],
    command: "update --status REVIEW",
    guard: ownerAlways,
    to: to("REVIEW"),
    effect: nothing,
  },
  {
    event: "block",
    from: ["TODO", "READY", "UNDERWAY", "REVIEW"],
    command: "update --status BLOCKED",
    guard: ownerGuard,
    to: to("BLOCKED"),
    effect: nothing,
  },
  {
    event: "unblock",
    from: ["BLOCKED"],
    command: "update --status TODO",
    guard: (t) =>
      activeClaimant(t) === null
        ? null
        : {
            reason: `it is claimed by ${t.claimedBy}`,
            hint: `the claimant resumes it with: pantheon task update ${taskId(t)} --status UNDERWAY`,
          },
    to: to("TODO"),
    effect: nothing,
  },
  {
    event: "handoff",
    from: ["TODO", "BLOCKED", "UNDERWAY"],
    command: "handoff",
    guard: ownerGuard,
    to: to("READY"),
    effect: clearClaim,
    noteKind: "handoff",
  },
  {
    event: "complete",
    from: ["UNDERWAY", "REVIEW"],
    command: "close",
    guard: ownerAlways,
    to: to("COMPLETE"),
    effect: (t, f) => ({ completedBy: activeClaimant(t) ?? f.actor.name }),
  },
  {
    event: "abort",
    from: ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"],
    command: "close --status ABORTED",
    guard: ownerGuard,
    to: to("ABORTED"),
    effect: nothing,
  },
  {
    event: "unassign",
    from: ["UNDERWAY", "REVIEW", "BLOCKED", "READY"],
    command: "unassign",
    guard: ownerAlways,
    to: to("TODO"),
    effect: clearClaim,
    noteKind: "reassign",
  },
  {
    event: "reopen",
    from: ["COMPLETE", "ABORTED"],
    command: "reopen",
    guard: none,
    to: to("TODO"),
    effect: () => ({ claimedBy: null, mission: null, completedBy: null }),
  },
  {
    event: "approve",
    from: ["REVIEW"],
    command: "review approve",
    guard: none,
    to: to("COMPLETE"),
    effect: (t, f) => ({ completedBy: t.claimedBy ?? f.actor.name }),
  },
  {
    event: "reject",
    from: ["REVIEW"],
    command: "review reject",
    guard: none,
    to: to("UNDERWAY"),
    effect: nothing,
    noteKind: "review",
  },
  {
    event: "release",
    from: ["UNDERWAY", "BLOCKED"],
    command: "mission end --release",
    guard: none,
    to: to("TODO"),
    effect: clearClaim,
    noteKind: "system",
  },
];

const ROW_BY_EVENT = new Map(TRANSITIONS.map((r) => [r.event, r]));

export function rowFor(event: TaskEvent): Row {
  return ROW_BY_EVENT.get(event)!;
}

/** Why `event` is refused for this actor, or null when the table allows it. */
export function refusal(task: Task, event: TaskEvent, f: TransitionFacts): Refusal | null {
  const row = rowFor(event);
  if (!row.from.includes(task.status))
    return { reason: `it is ${task.status}${activeClaimant(task) ? ` (claimed by ${task.claimedBy})` : ""}` };
  return row.guard(task, f);
}

/** Commands the table allows this actor on this task right now (the `allowedActions` of a view). */
export function allowedActions(task: Task, f: TransitionFacts): string[] {
  const out = new Set<string>();
  for (const row of TRANSITIONS) {
    if (row.event === "approve" || row.event === "reject" || row.event === "release") continue;
    if (row.event === "start" && task.status === "UNDERWAY") continue; // allowed, but changes nothing
    if (row.from.includes(task.status) && row.guard(task, f) === null) out.add(row.command);
  }
  return [...out];
}

const NEEDS_NOTES = new Set(["handoff", "unassign", "reopen", "close --status ABORTED"]);

/** `update --status REVIEW` for ENG-H-0007 → `pantheon task update ENG-H-0007 --status REVIEW`. */
export function commandLine(command: string, id: string): string {
  const [verb, ...rest] = command.split(" ");
  const notes = NEEDS_NOTES.has(command) ? ' --notes "..."' : "";
  return ["pantheon task", verb, id, ...rest].join(" ") + notes;
}

/** `update --status UNDERWAY` on a task already UNDERWAY: allowed to its claimant, and changes nothing. */
export function isNoChange(task: Task, event: TaskEvent): boolean {
  return event === "start" && task.status === "UNDERWAY";
}

export interface NoteInput {
  id: string;
  text: string;
}

/**
 * Applies one event of the table, or throws InvalidTransitionError naming the state, the actor
 * and the commands that would work. Pure: time and note ids come in as arguments.
 */
export function applyTaskEvent(task: Task, event: TaskEvent, f: TransitionFacts, at: string, note?: NoteInput): Task {
  const why = refusal(task, event, f);
  if (!why && isNoChange(task, event)) return task;
  const row = rowFor(event);
  if (why) {
    const allowed = allowedActions(task, f);
    const id = taskId(task);
    // An unidentified persona is told how to say who it is: that is what would make it work.
    const hint =
      f.actor.kind === "unidentified"
        ? IDENTIFY_HINT
        : (why.hint ??
          (allowed.length > 0
            ? `${f.actor.name} may run: ${allowed.map((c) => commandLine(c, id)).join("; ")}`
            : `pantheon task show ${id}`));
    throw new InvalidTransitionError(`Cannot ${row.command} ${id} as ${f.actor.name}: ${why.reason}`, hint, {
      task: id,
      status: task.status,
      event,
      actor: f.actor.name,
    });
  }
  const notes: Note[] =
    note && note.text.trim() !== ""
      ? [...task.notes, { id: note.id, at, by: f.actor.name, kind: row.noteKind ?? "note", text: note.text }]
      : task.notes;
  return { ...task, ...row.effect(task, f), status: row.to(task), notes, updatedAt: at };
}
