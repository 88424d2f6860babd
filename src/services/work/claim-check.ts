import type { Actor } from "../../domain/actor.js";
import type { Role } from "../../domain/roles.js";
import type { Task } from "../../domain/schemas/task.js";
import { applyTaskEvent } from "../../domain/task-lifecycle.js";
import type { Snapshot } from "../../store/store.js";
import { isoNow, type Context } from "../kernel/context.js";
import { findTask } from "../kernel/find-task.js";
import { claimEvent, transitionFacts } from "./transition-task.js";
import { newMission } from "../../domain/new-mission.js";

/**
 * `summon --task` checks the claim before it registers a mission (DESIGN §5: a refused
 * `summon --task` starts no mission): the claim the new mission would make, judged on this
 * snapshot by the state table, throws the claim's own error (a COMPLETE task, another persona's
 * claim, a blocked one). A claim that races in between is still refused by the claim itself,
 * which then ends the mission it started.
 */
export async function checkClaimable(
  ctx: Context,
  snap: Snapshot,
  o: { id: string; persona: string; role: Role },
): Promise<Task> {
  const task = await findTask(snap, o.id, ctx);
  const at = isoNow(ctx);
  // The mission the claim would run under: ACTIVE, of the role and persona summon will record.
  const mission = newMission({
    uid: "claim-check",
    number: 0,
    codename: "claim-check",
    persona: o.persona,
    role: o.role,
    objective: "",
    assistant: null,
    worktree: null,
    headAtStart: null,
    at,
  });
  const actor: Actor = { kind: "persona", name: o.persona, role: o.role, mission };
  const { facts } = await transitionFacts(snap, task, actor, false);
  applyTaskEvent(task, claimEvent(task), facts, at);
  return task;
}
