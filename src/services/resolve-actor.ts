import { NotFoundError, UsageError } from "../errors.js";
import { DIRECTOR, personaActor, sameName, type Actor } from "../domain/actor.js";
import { missionId, parseMissionRef, printable } from "../domain/ids.js";
import { PERSONA_NAME } from "../domain/constants.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Snapshot } from "../store/store.js";
import type { Context } from "./context.js";

/**
 * Finds a mission by `MSN-0003`, `3`, `silent-phoenix` or `MSN-0003:silent-phoenix`. The
 * codename wins when the number now belongs to another mission (renumbered at a sync).
 */
export async function findMission(snap: Snapshot, input: string, source?: string): Promise<Mission> {
  const ref = parseMissionRef(input);
  const byNumber = ref.number !== undefined ? await snap.get("missions", ref.number) : null;
  if (byNumber && (!ref.codename || byNumber.codename === ref.codename)) return byNumber;
  if (ref.codename) {
    const found = (await snap.all("missions")).find((m) => m.codename === ref.codename);
    if (found) return found;
  }
  // `(from --mission)` says where an actor's mission came from; a mission named as an argument needs no source.
  throw new NotFoundError(`No mission ${printable(input)}${source ? ` (from ${source})` : ""}`, "pantheon mission list");
}

/** The ACTIVE mission of a persona, if any (names are unique among ACTIVE missions). */
export async function activeMissionOf(snap: Snapshot, persona: string): Promise<Mission | null> {
  const active = (await snap.all("missions")).filter((m) => m.status === "ACTIVE" && sameName(m.persona, persona));
  return active.at(-1) ?? null;
}

function checkPersonaName(name: string, source: string): string {
  const trimmed = name.trim();
  if (!PERSONA_NAME.test(trimmed)) {
    throw new UsageError(`Invalid persona name "${printable(name)}" (from ${source})`, "a name is 1-40 letters, digits, spaces, dots, apostrophes or hyphens");
  }
  return trimmed;
}

/** The actor of a command, in the order of DESIGN §1.7. */
export async function resolveActor(ctx: Context, snap: Snapshot): Promise<Actor> {
  const { as, mission } = ctx.actorFlags;
  if (mission !== undefined) {
    const m = await findMission(snap, mission, "--mission");
    return personaActor(m.persona, m);
  }
  if (as !== undefined) {
    const name = checkPersonaName(as, "--as");
    const m = await activeMissionOf(snap, name);
    return personaActor(m?.persona ?? name, m);
  }
  const envMission = ctx.env.PANTHEON_MISSION?.trim();
  if (envMission) {
    const m = await findMission(snap, envMission, "PANTHEON_MISSION");
    return personaActor(m.persona, m);
  }
  const envPersona = ctx.env.PANTHEON_PERSONA?.trim();
  if (envPersona) {
    const name = checkPersonaName(envPersona, "PANTHEON_PERSONA");
    const m = await activeMissionOf(snap, name);
    return personaActor(m?.persona ?? name, m);
  }
  return DIRECTOR;
}

/** Commit metadata for an actor: author `Hephaestus (engineer)` and the mission trailer. */
export function commitActor(actor: Actor): { actor: string; authorName: string | null; mission: string | null } {
  if (actor.kind === "director") return { actor: "Director", authorName: null, mission: null };
  const role = actor.mission?.role;
  return {
    actor: actor.name,
    authorName: role ? `${actor.name} (${role})` : actor.name,
    mission: actor.mission ? `${missionId(actor.mission.number)}:${actor.mission.codename}` : null,
  };
}
