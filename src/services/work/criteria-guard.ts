import { OpenCriteriaError } from "../../errors.js";
import { openCriteria } from "../../domain/acceptance.js";
import { taskId } from "../../domain/ids.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Context } from "../kernel/context.js";

/**
 * What may be completed unchecked: every open criterion (`--force`), the ones the Director saw
 * and confirmed on a terminal (by id: one checked or added since is judged afresh), or none.
 */
export type AcceptedOpen = "all" | ReadonlySet<string>;
export const NONE_ACCEPTED: AcceptedOpen = new Set<string>();

/** `ENG-H-0007 has 2 unchecked acceptance criteria: 1. "…"; 3. "…"`: bounded whatever the list. */
function listed(task: Task, open: ReturnType<typeof openCriteria>): string {
  const shown = open.slice(0, 5).map(({ n, criterion }) => {
    const t = criterion.text.length > 60 ? `${criterion.text.slice(0, 59)}…` : criterion.text;
    return `${n}. "${t}"`;
  });
  const more = open.length > shown.length ? `; and ${open.length - shown.length} more` : "";
  const k = open.length;
  return `${taskId(task)} has ${k} unchecked acceptance criteri${k === 1 ? "on" : "a"}: ${shown.join("; ")}${more}`;
}

/**
 * Inside the mutation that would complete `task`: refuses while a criterion is open that was
 * not accepted, naming them. `force` is the command that completes it anyway.
 */
export function refuseOpenCriteria(task: Task, accepted: AcceptedOpen, force: string): void {
  if (accepted === "all") return;
  const open = openCriteria(task.acceptance).filter(({ criterion }) => !accepted.has(criterion.id));
  if (open.length === 0) return;
  throw new OpenCriteriaError(
    listed(task, open),
    `check ${open.length === 1 ? "it" : "them"} (pantheon task check ${taskId(task)} ${open[0]!.n}), or complete it anyway: ${force}`,
    { task: taskId(task), open: open.map(({ n, criterion }) => ({ n, text: criterion.text })) },
  );
}

/**
 * Before the mutation, at a terminal: asks the Director whether to complete `task` with its
 * criteria unchecked. Yes accepts exactly those; no is the refusal, as without a terminal.
 * Without a terminal nothing is asked (the mutation refuses unless `--force`).
 */
export async function confirmOpenCriteria(
  ctx: Context<unknown>,
  task: Task,
  what: string,
  force: string,
): Promise<AcceptedOpen> {
  const open = openCriteria(task.acceptance);
  if (open.length === 0 || !ctx.prompter?.interactive) return NONE_ACCEPTED;
  const yes = await ctx.prompter.confirm({
    message: `${what} with ${open.length} acceptance criteri${open.length === 1 ? "on" : "a"} unchecked?`,
    detail: open.map(({ n, criterion }) => `  [ ] ${n}. ${criterion.text}`),
  });
  if (!yes) refuseOpenCriteria(task, NONE_ACCEPTED, force);
  return new Set(open.map(({ criterion }) => criterion.id));
}
