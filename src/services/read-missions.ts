import { activeClaimant } from "../domain/actor.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Task } from "../domain/schemas/task.js";
import type { Context } from "./context.js";
import { findMission } from "./resolve-actor.js";

/** Missions by number; `active` keeps the ACTIVE ones. */
export async function listMissions(ctx: Context, o: { active?: boolean }): Promise<Mission[]> {
  const snap = await (await ctx.store()).snapshot();
  const all = await snap.all("missions");
  return o.active ? all.filter((m) => m.status === "ACTIVE") : all;
}

export interface MissionDetail {
  mission: Mission;
  /** Tasks whose live claim was made under this mission. */
  claims: Task[];
  /** Tasks this mission's persona completed while it ran. */
  completed: Task[];
}

/** One mission with the claims made under it. */
export async function showMission(ctx: Context, id: string): Promise<MissionDetail> {
  const snap = await (await ctx.store()).snapshot();
  const mission = await findMission(snap, id);
  const tasks = await snap.all("tasks");
  return {
    mission,
    claims: tasks.filter((t) => t.mission === mission.number && activeClaimant(t) !== null),
    completed: tasks.filter((t) => t.mission === mission.number && t.status === "COMPLETE"),
  };
}
