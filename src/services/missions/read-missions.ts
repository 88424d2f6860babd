import { activeClaimant } from "../../domain/actor.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { TaskSummary } from "../../domain/schemas/task.js";
import type { Context } from "../kernel/context.js";
import { findMission } from "../kernel/resolve-actor.js";
import { missionId } from "../../domain/ids.js";
import type { Refs } from "../../domain/refs.js";
import { loadAllRefs } from "../kernel/find-task.js";

/** Missions by number; `active` keeps the ACTIVE ones. */
export async function listMissions(ctx: Context, o: { active?: boolean }): Promise<Mission[]> {
  const snap = await (await ctx.store()).snapshot();
  const all = await snap.all("missions");
  return o.active ? all.filter((m) => m.status === "ACTIVE") : all;
}

export interface MissionDetail {
  mission: Mission;
  /** Tasks whose live claim was made under this mission. */
  claims: TaskSummary[];
  /** Tasks this mission's persona completed while it ran. */
  completed: TaskSummary[];
  /** Code commits whose Pantheon-Mission trailer names it (init --hooks). */
  commits: Array<{ oid: string; date: string; author: string; summary: string }>;
  /** Every task and epic, so the listed tasks name their dependencies and epic by id. */
  refs: Refs;
}

/** One mission with the claims made under it. */
export async function showMission(ctx: Context, id: string): Promise<MissionDetail> {
  const store = await ctx.store();
  const snap = await store.snapshot();
  const mission = await findMission(snap, id, undefined, ctx);
  const [tasks, refs] = await Promise.all([snap.taskSummaries(), loadAllRefs(snap)]);
  let commits: MissionDetail["commits"] = [];
  try {
    commits = (await store.code()).missionCommits(missionId(mission.number), mission.codename);
  } catch {
    // a store without a code repository (tests): no commits to list
  }
  return {
    mission,
    commits,
    refs,
    claims: tasks.filter((t) => t.mission === mission.number && activeClaimant(t) !== null),
    completed: tasks.filter((t) => t.mission === mission.number && t.status === "COMPLETE"),
  };
}
