import { parseRole } from "../domain/roles.js";
import {
  missionDetailView,
  missionEndView,
  missionView,
  type MissionDetailView,
  type MissionEndView,
  type MissionView,
} from "../render/mission-view.js";
import { endMissionAndWorktree } from "../services/missions/end-mission.js";
import { listMissions, showMission } from "../services/missions/read-missions.js";
import { startMission } from "../services/missions/start-mission.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import type { RoleInput } from "./inputs.js";

/** Missions: a persona's working session; mutations under it name it as the actor. */
export interface MissionsApi {
  /** `mission start`: without a persona, the least-used free name of the role from the theme. */
  start(input: CallOptions & { role: RoleInput; persona?: string; objective?: string }): Promise<MissionView>;
  /** `mission end`: the given mission, or the actor's; `release` returns its UNDERWAY and BLOCKED claims to TODO. */
  end(
    id?: string,
    o?: CallOptions & { summary?: string; release?: boolean; removeWorktree?: boolean },
  ): Promise<MissionEndView>;
  /** `mission list`. */
  list(o?: CallOptions & { active?: boolean }): Promise<MissionView[]>;
  /** `mission show`: with its claims, what it completed and its code commits. */
  show(id: string, o?: CallOptions): Promise<MissionDetailView>;
}

export function missionsApi(contexts: ContextFactory): MissionsApi {
  return {
    start: async (i) =>
      missionView(
        await startMission(contexts.for(i), {
          role: parseRole(i.role, "role"),
          persona: i.persona,
          objective: i.objective,
        }),
      ),
    end: async (id, o = {}) =>
      missionEndView(
        await endMissionAndWorktree(contexts.for(o), {
          id,
          summary: o.summary,
          release: o.release,
          removeWorktree: Boolean(o.removeWorktree),
        }),
      ),
    list: async (o = {}) => (await listMissions(contexts.for(o), { active: Boolean(o.active) })).map(missionView),
    show: async (id, o) => missionDetailView(await showMission(contexts.for(o), id)),
  };
}
