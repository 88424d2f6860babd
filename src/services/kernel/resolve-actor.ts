import { ConflictError, InvalidTransitionError, NotFoundError } from "../../errors.js";
import { insideAssistant } from "../../assistants/assistant-env.js";
import { DIRECTOR, personaActor, sameName, UNIDENTIFIED, type Actor } from "../../domain/actor.js";
import { missionHandle, missionId, parseMissionRef, printable } from "../../domain/ids.js";
import { checkPersonaName, nameTrouble, shownName } from "../../domain/persona-names.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Snapshot } from "../../store/store.js";
import type { Context } from "./context.js";
import { checkRenumbered, inMutation, QUIET_LOOKUP, writtenNumber, type IdLookup } from "./renumbered.js";

/**
 * Finds a mission by `MSN-0003`, `3`, `silent-phoenix` or `MSN-0003:silent-phoenix`. The
 * codename wins when the number now belongs to another mission (renumbered at a sync); a bare
 * number that a sync gave to another mission follows DESIGN §1.2 (notice, or refusal in a mutation).
 */
export async function findMission(
  snap: Snapshot,
  input: string,
  source?: string,
  look: IdLookup = QUIET_LOOKUP,
): Promise<Mission> {
  const ref = parseMissionRef(input);
  const byNumber = ref.number !== undefined ? await snap.get("missions", ref.number) : null;
  if (byNumber && ref.codename && byNumber.codename === ref.codename) return byNumber;
  if (byNumber && !ref.codename) {
    await checkRenumbered(snap, "missions", byNumber, writtenNumber(input), look);
    return byNumber;
  }
  if (ref.codename) {
    const found = (await snap.all("missions")).find((m) => m.codename === ref.codename);
    if (found) return found;
  }
  // `(from --mission)` says where an actor's mission came from; a mission named as an argument needs no source.
  throw new NotFoundError(
    `No mission ${printable(input)}${source ? ` (from ${source})` : ""}`,
    "pantheon mission list",
  );
}

/**
 * The actor `--as NAME` or PANTHEON_PERSONA names: that persona on its ACTIVE mission, else on
 * its last mission (ENDED: a mutation is then refused), else without one. Two ACTIVE missions
 * of one name (possible after a sync) are refused, listing them: only --mission can tell them apart.
 */
async function personaNamed(snap: Snapshot, raw: string, source: string): Promise<Actor> {
  const name = checkPersonaName(raw, source);
  const theirs = (await snap.all("missions")).filter((m) => sameName(m.persona, name));
  const active = theirs.filter((m) => m.status === "ACTIVE");
  if (active.length > 1) {
    throw new ConflictError(
      `${active[0]!.persona} is on ${active.length} ACTIVE missions (two clones started one each): ${active.map((m) => `${missionHandle(m)}`).join(", ")}; ${source} cannot tell which`,
      `act under one with --mission ${missionHandle(active.at(-1)!)}, or end the other: pantheon mission end ${missionHandle(active[0]!)}`,
      { persona: name, missions: active.map((m) => missionId(m.number)) },
    );
  }
  const m = active[0] ?? theirs.at(-1) ?? null;
  return personaActor(m?.persona ?? name, m);
}

/** The actor of a command, in the order of DESIGN §1.7. */
async function whoActs(ctx: Context<unknown>, snap: Snapshot): Promise<Actor> {
  const { as, mission, unnamed } = ctx.actorFlags;
  if (mission !== undefined) {
    const m = await findMission(snap, mission, "--mission", ctx);
    return personaActor(m.persona, m);
  }
  if (as !== undefined) return personaNamed(snap, as, "--as");
  const envMission = ctx.env.PANTHEON_MISSION?.trim();
  if (envMission) {
    const m = await findMission(snap, envMission, "PANTHEON_MISSION", ctx);
    return personaActor(m.persona, m);
  }
  const envPersona = ctx.env.PANTHEON_PERSONA?.trim();
  if (envPersona) return personaNamed(snap, envPersona, "PANTHEON_PERSONA");
  // Nobody named: the human at the keyboard, unless the command came from an assistant's shell,
  // or from a server that a model drives (`pantheon mcp`: its client filters the environment, so
  // no marker says so there; only the Director's own `--director` makes it his).
  if (unnamed !== undefined) return unnamed === "director" ? DIRECTOR : UNIDENTIFIED;
  return insideAssistant(ctx.env) ? UNIDENTIFIED : DIRECTOR;
}

/**
 * The actor of a command (DESIGN §1.7). Inside a mutation, acting under an ENDED mission is
 * refused: its persona's session is over, and whatever still holds its id must start a new one;
 * so is acting under a mission whose persona's name is not one a persona may have.
 */
export async function resolveActor(ctx: Context<unknown>, snap: Snapshot): Promise<Actor> {
  const actor = await whoActs(ctx, snap);
  const m = actor.mission;
  if (m && m.status === "ENDED" && inMutation(snap)) {
    throw new InvalidTransitionError(
      `Mission ${missionHandle(m)} of ${m.persona} has ENDED: nothing more is done under it`,
      `start a new one: pantheon mission start --role ${m.role} --persona ${m.persona} (or /summon ${m.role}), then pass its --mission`,
      { mission: missionId(m.number), persona: m.persona },
    );
  }
  // A mission record is anyone's to write (a remote, an older version): one whose persona's name
  // passes for the Director's, or mixes alphabets, acts for nobody.
  const trouble = m && inMutation(snap) ? nameTrouble(m.persona) : null;
  if (m && trouble) {
    throw new InvalidTransitionError(
      `Mission ${missionHandle(m)}'s persona ${shownName(m.persona)} ${trouble}: nothing is done under it`,
      `start a mission under another name: pantheon mission start --role ${m.role} (the Director may end this one: pantheon mission end ${missionHandle(m)})`,
      { mission: missionId(m.number), persona: m.persona },
    );
  }
  return actor;
}

/** Commit metadata for an actor: author `Hephaestus (engineer)` and the mission trailer. */
export function commitActor(actor: Actor): { actor: string; authorName: string | null; mission: string | null } {
  if (actor.kind === "director") return { actor: "Director", authorName: null, mission: null };
  if (actor.kind === "unidentified") return { actor: actor.name, authorName: actor.name, mission: null };
  const role = actor.mission?.role;
  return {
    actor: actor.name,
    authorName: role ? `${actor.name} (${role})` : actor.name,
    mission: actor.mission ? `${missionId(actor.mission.number)}:${actor.mission.codename}` : null,
  };
}
