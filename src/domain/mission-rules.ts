import { InvalidTransitionError } from "../errors.js";
import { hasActiveMission, IDENTIFY_HINT, type Actor } from "./actor.js";
import { missionId } from "./ids.js";
import type { Mission } from "./schemas/mission.js";

/**
 * Who may end an ACTIVE mission (DESIGN §1.5a), with or without --release: its own persona acting
 * under it, an administrator on an ACTIVE mission, or the Director. Anyone else is refused, as
 * `task unassign` is: ending a mission with --release frees its claims, so it is an owner's act.
 */
export function checkMissionEnd(mission: Mission, actor: Actor): void {
  if (mission.status !== "ACTIVE" || mayEnd(mission, actor)) return;
  const id = missionId(mission.number);
  throw new InvalidTransitionError(
    `Cannot end ${id} (${mission.persona}) as ${actor.name}: only ${mission.persona} acting under it, an administrator or the Director may end it`,
    actor.kind === "unidentified"
      ? IDENTIFY_HINT
      : `ask ${mission.persona} or the Director; see pantheon mission show ${id}`,
    { mission: id, persona: mission.persona, actor: actor.name },
  );
}

function mayEnd(mission: Mission, actor: Actor): boolean {
  if (actor.kind === "director") return true;
  if (actor.kind !== "persona") return false;
  if (actor.mission?.uid === mission.uid) return true;
  return actor.role === "administrator" && hasActiveMission(actor);
}
