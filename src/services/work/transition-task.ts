import { InvalidTransitionError } from "../../errors.js";
import { activeClaimant, type Actor } from "../../domain/actor.js";
import { taskId } from "../../domain/ids.js";
import { applyTaskEvent, isNoChange, type TaskEvent, type TransitionFacts } from "../../domain/task-lifecycle.js";
import type { Task } from "../../domain/schemas/task.js";
import type { TaskStatus } from "../../domain/task-status.js";
import type { MutationResult, RecordStore, Snapshot, Tx } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import type { Refs } from "../../domain/refs.js";
import { blockingOf, findTask, loadRefs } from "../kernel/find-task.js";
import { resolveActor } from "../kernel/resolve-actor.js";
import { applyTaskSideEffects } from "./task-side-effects.js";
import { checkText, requireNotes } from "../kernel/validate-input.js";
import { publishedMutation } from "../sync/publish.js";
import { confirmOpenCriteria, NONE_ACCEPTED, refuseOpenCriteria, type AcceptedOpen } from "./criteria-guard.js";

export interface TransitionResult {
  task: Task;
  refs: Refs;
  previous: TaskStatus;
  event: TaskEvent;
  actor: Actor;
  /** Other records the same commit changed (a review requested or withdrawn...), as ids. */
  changed: string[];
  /** The table's no-op (UNDERWAY → UNDERWAY by its claimant): nothing written, no commit. */
  unchanged: boolean;
}

/** The facts the state table's guards need, read with one path read per dependency. */
export async function transitionFacts(
  snap: Snapshot,
  task: Task,
  actor: Actor,
  force: boolean,
): Promise<{ facts: TransitionFacts; refs: Refs }> {
  const refs = await loadRefs(snap, task);
  const claimMission = activeClaimant(task) && task.mission !== null ? await snap.get("missions", task.mission) : null;
  return {
    facts: {
      actor,
      force,
      blockedBy: blockingOf(task, refs).blockedBy,
      claimMissionActive: claimMission?.status === "ACTIVE",
    },
    refs,
  };
}

interface Options {
  id: string;
  force?: boolean | undefined;
  notes?: string | undefined;
  noReview?: boolean | undefined;
  /** Completing: the open acceptance criteria that may stay unchecked (criteria-guard.ts). */
  acceptedOpen?: AcceptedOpen | undefined;
}

/** Loads the task, applies one event of the table and its side effects, in one commit. */
async function transition(
  ctx: Context<RecordStore>,
  o: Options,
  op: string,
  pick: (t: Task, actor: Actor) => TaskEvent,
): Promise<TransitionResult> {
  const store = await ctx.store();
  // A claim is what others race for: it is made on the remote's latest state and published at once (DESIGN §3.5).
  const mutate = <R>(fn: (tx: Tx) => Promise<MutationResult<R>>) =>
    op === "task.claim" ? publishedMutation(ctx, fn) : store.mutate(fn);
  const { result } = await mutate(async (tx: Tx): Promise<MutationResult<TransitionResult>> => {
    const actor = await resolveActor(ctx, tx);
    const before = await findTask(tx, o.id, ctx);
    const event = pick(before, actor);
    const { facts, refs } = await transitionFacts(tx, before, actor, o.force ?? false);
    const at = isoNow(ctx);
    const note = o.notes !== undefined ? { id: ctx.ids.noteId(), text: o.notes } : undefined;
    const task = applyTaskEvent(before, event, facts, at, note);
    if (event === "complete")
      refuseOpenCriteria(before, o.acceptedOpen ?? NONE_ACCEPTED, `pantheon task close ${taskId(before)} --force`);
    const unchanged = isNoChange(before, event);
    if (unchanged) {
      if (note?.text.trim())
        ctx.warn(`the note was not recorded (nothing else changed): pantheon task note ${taskId(before)} "..."`);
      return {
        result: { task, refs, previous: before.status, event, actor, changed: [], unchanged },
        commit: commitInfo(op, `task ${taskId(task)}`, actor),
      };
    }
    tx.put("tasks", task);
    const changed = await applyTaskSideEffects(ctx, tx, {
      before,
      after: task,
      event,
      actor,
      at,
      noReview: o.noReview ?? false,
    });
    return {
      result: { task, refs, previous: before.status, event, actor, changed, unchanged },
      commit: commitInfo(op, `task ${taskId(task)}`, actor),
    };
  });
  return result;
}

/** What `task claim` asks of the state table for a task in this status: a claim, or resuming one. */
export function claimEvent(t: Task): TaskEvent {
  return t.status === "TODO" || t.status === "READY" || t.status === "COMPLETE" || t.status === "ABORTED"
    ? "claim"
    : "resume";
}

/** Claims a TODO/READY task, or resumes a claim left on an ENDED mission. */
export function claimTask(ctx: Context<RecordStore>, o: { id: string; force?: boolean }): Promise<TransitionResult> {
  return transition(ctx, o, "task.claim", claimEvent);
}

const STATUS_EVENTS: Partial<Record<TaskStatus, TaskEvent>> = {
  UNDERWAY: "start",
  REVIEW: "submit",
  BLOCKED: "block",
  TODO: "unblock",
};

/** `task update ID --status S`: the four status moves the table allows by that command. */
export function updateTaskStatus(
  ctx: Context<RecordStore>,
  o: Options & { status: TaskStatus },
): Promise<TransitionResult> {
  const event = STATUS_EVENTS[o.status];
  const done = transition(
    ctx,
    { ...o, notes: o.notes === undefined ? undefined : checkText(o.notes, "--notes") },
    `task.${event ?? "update"}`,
    (task, actor) => {
      if (event) return event;
      // READY, COMPLETE and ABORTED have their own commands (they need a note or close a task).
      const id = taskId(task);
      const hint =
        o.status === "READY"
          ? `pantheon task handoff ${id} --notes "..."`
          : o.status === "COMPLETE"
            ? `pantheon task close ${id}`
            : `pantheon task close ${id} --status ABORTED --notes "why"`;
      throw new InvalidTransitionError(
        `Cannot update ${id} (${task.status}) to ${o.status} as ${actor.name}: ${o.status} is set by another command`,
        hint,
        { task: id, status: task.status },
      );
    },
  );
  // Advice only after success: a refused command prints its ✗ line first and alone.
  if (o.status === "BLOCKED" && !o.notes)
    return done.then((r) => (ctx.warn("note: say what blocks it next time with --notes, so others can help"), r));
  return done;
}

/**
 * Closes a task as COMPLETE (default) or ABORTED (needs a note). COMPLETE with acceptance
 * criteria unchecked asks the Director at a terminal, and is refused without one, unless
 * `--force` (Context.force): a task is done when its criteria say so.
 */
export async function closeTask(
  ctx: Context<RecordStore>,
  o: Options & { status?: "COMPLETE" | "ABORTED" },
): Promise<TransitionResult> {
  const aborted = o.status === "ABORTED";
  const notes = aborted
    ? requireNotes(o.notes, `pantheon task close ${o.id} --status ABORTED`)
    : checkText(o.notes, "--notes") || undefined;
  const acceptedOpen = aborted ? undefined : ctx.force ? "all" : await askAboutCriteria(ctx, o.id);
  return transition(ctx, { ...o, notes, acceptedOpen }, aborted ? "task.abort" : "task.complete", () =>
    aborted ? "abort" : "complete",
  );
}

/**
 * At a terminal, before the commit: a close the state table would refuse anyway is refused
 * first (nothing asked); else the open criteria are put to the Director. Notices of the lookup
 * are left to the mutation, which repeats it.
 */
async function askAboutCriteria(ctx: Context<RecordStore>, id: string): Promise<AcceptedOpen> {
  if (!ctx.prompter?.interactive) return NONE_ACCEPTED;
  const quiet: Context<RecordStore> = { ...ctx, warn: () => {} };
  const snap = await (await ctx.store()).snapshot();
  const actor = await resolveActor(quiet, snap);
  const task = await findTask(snap, id, quiet);
  const { facts } = await transitionFacts(snap, task, actor, false);
  applyTaskEvent(task, "complete", facts, isoNow(ctx));
  return confirmOpenCriteria(
    ctx,
    task,
    `Close ${taskId(task)} as COMPLETE`,
    `pantheon task close ${taskId(task)} --force`,
  );
}

/** Hands a task to its role: READY, claim cleared, with a handoff note. */
export function handoffTask(ctx: Context<RecordStore>, o: Options): Promise<TransitionResult> {
  const notes = requireNotes(o.notes, `pantheon task handoff ${o.id}`);
  return transition(ctx, { ...o, notes }, "task.handoff", () => "handoff");
}

/** An owner takes a task back to TODO, with a reassign note. */
export function unassignTask(ctx: Context<RecordStore>, o: Options): Promise<TransitionResult> {
  const notes = requireNotes(o.notes, `pantheon task unassign ${o.id}`);
  return transition(ctx, { ...o, notes }, "task.unassign", () => "unassign");
}

/** Reopens a COMPLETE or ABORTED task as TODO. */
export function reopenTask(ctx: Context<RecordStore>, o: Options): Promise<TransitionResult> {
  const notes = requireNotes(o.notes, `pantheon task reopen ${o.id}`);
  return transition(ctx, { ...o, notes }, "task.reopen", () => "reopen");
}
