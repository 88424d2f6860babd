import { NotFoundError } from "../../errors.js";
import { blockingState, type BlockingState } from "../../domain/blocking.js";
import { parseTaskRef, printable, taskId } from "../../domain/ids.js";
import { emptyRefs, type Refs } from "../../domain/refs.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Snapshot } from "../../store/store.js";
import { checkRenumbered, formerIds, inMutation, refuseFormerId, taskPrefixes, type IdLookup } from "./renumbered.js";

/**
 * Resolves any form of a task id to the task that owns its number now (DESIGN §1.2). The number
 * is the identity: a form whose priority letter is stale resolves with a one-line notice naming
 * the current id. Its role prefix must be the task's role or one it had (`formerRoles`): personas
 * copy example ids, and `TST-H-0001` must never act on an engineer task that has number 1.
 */
export async function findTask(snap: Snapshot, input: string, look: IdLookup): Promise<Task> {
  const ref = parseTaskRef(input);
  const task = await snap.get("tasks", ref.number);
  if (!task) {
    throw new NotFoundError(`No task ${printable(input)}`, "pantheon task list (or pantheon task search WORDS)", {
      number: ref.number,
    });
  }
  const current = taskId(task);
  const written = { text: ref.written, full: ref.role !== undefined };
  const owners = await snap.formerOwners("tasks", ref.number);
  // Renumbered by this very command's fetch (a claim's publishing merge): the full id was typed
  // before that merge, when it named this clone's task (the one `task next` offered, by its
  // title), so it is judged by the state before the fetch and acts on that task, said once.
  const ownMove = written.full
    ? owners.find((m) => m.own && formerIds("tasks", m, ref.number).includes(ref.written))
    : undefined;
  if (ownMove) {
    look.warn(
      `note: this command's sync renumbered ${ref.written} to ${taskId(ownMove.record)} (number ${ref.number} went to ${current} from another clone): acting on ${taskId(ownMove.record)}`,
    );
    return ownMove.record;
  }
  if (ref.role && ref.role !== task.role && !task.formerRoles.includes(ref.role)) {
    // This clone's own task with that prefix may have been renumbered at a sync: name it first.
    const code = ref.written.slice(0, 3);
    const moved = owners.find((m) => taskPrefixes(m, ref.number).has(code));
    if (moved && inMutation(snap)) throw await refuseFormerId(snap, task, moved, written, look);
    const guess = moved ? taskId(moved.record) : current;
    throw new NotFoundError(
      `No task ${ref.written}${moved ? ` here: a sync renumbered it to ${guess}, and the number went to ${current} from another clone` : ""}`,
      `did you mean ${guess}? pantheon task show ${guess}`,
      { number: ref.number, current, ...(moved && { renumbered: guess }) },
    );
  }
  // After the renumbering check: a stale letter may be the renumbered task's, whose notice says more.
  const said = await checkRenumbered(snap, "tasks", task, written, look);
  if (!said && ((ref.role && ref.role !== task.role) || (ref.priority && ref.priority !== task.priority))) {
    look.warn(`note: ${ref.written} is now ${current}`);
  }
  return task;
}

/**
 * Loads what a task refers to (its dependencies and epic, one path read each) so views can
 * name them by id, without loading the rest of the state.
 */
export async function loadRefs(snap: Snapshot, task: Task, into: Refs = emptyRefs()): Promise<Refs> {
  for (const n of task.dependencies) {
    if (into.tasks.has(n)) continue;
    const dep = await snap.get("tasks", n);
    if (dep) into.tasks.set(n, dep);
  }
  if (task.epic !== null && !into.epics.has(task.epic)) {
    const epic = await snap.get("epics", task.epic).catch(() => null);
    if (epic) into.epics.set(task.epic, epic);
  }
  return into;
}

/** Every task and epic, for list-type commands (corrupt records skipped with a warning). */
export async function loadAllRefs(snap: Snapshot): Promise<Refs> {
  const [tasks, epics] = await Promise.all([snap.taskMap(), snap.all("epics")]);
  return { tasks, epics: new Map(epics.map((e) => [e.number, e])) };
}

export function blockingOf(task: Task, refs: Refs): BlockingState {
  return blockingState(task, (n) => refs.tasks.get(n));
}
