import type { Role } from "./roles.js";
import type { Mission } from "./schemas/mission.js";
import { CLAIMED_STATUSES } from "./task-status.js";
import type { Task } from "./schemas/task.js";

/**
 * Who runs a command (DESIGN §1.7): a persona (usually on a mission), the Director (the human at
 * the keyboard), or an unidentified persona: a model inside an assistant that named no mission
 * and no persona. It may read and create, but holds none of the Director's owner rights, or any
 * model that forgot `--mission` could close, reassign and end everybody's work.
 * A persona's role comes from its mission.
 */
export type Actor =
  | { kind: "director"; name: "Director"; role: null; mission: null }
  | { kind: "unidentified"; name: typeof UNIDENTIFIED_NAME; role: null; mission: null }
  | { kind: "persona"; name: string; role: Role | null; mission: Mission | null };

export const DIRECTOR: Actor = { kind: "director", name: "Director", role: null, mission: null };

/** Parentheses are not allowed in persona names: no persona can ever be this one. */
export const UNIDENTIFIED_NAME = "(unidentified persona)";
export const UNIDENTIFIED: Actor = { kind: "unidentified", name: UNIDENTIFIED_NAME, role: null, mission: null };

/** What an unidentified persona's refusals tell it to do. */
export const IDENTIFY_HINT =
  "say who you are: pass --mission <id> (the id /summon gave you) on every call, or run /summon <role>";

/** Whether one of `names` is set to something other than empty, 0 or false (assistants/assistant-env.ts names the markers). */
export function markerSet(env: Readonly<Record<string, string | undefined>>, names: readonly string[]): boolean {
  return names.some((k) => env[k] !== undefined && env[k] !== "" && env[k] !== "0" && env[k] !== "false");
}

export function personaActor(name: string, mission: Mission | null): Actor {
  return { kind: "persona", name, role: mission?.role ?? null, mission };
}

/** Persona names compare case-insensitively everywhere (claims, missions, activity). */
export function sameName(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a == null || b == null) return false;
  if (a === b) return true;
  // ASCII names (nearly all) need no collator: building one per call cost ~0.2 ms each.
  if (/^[\x20-\x7e]*$/.test(a) && /^[\x20-\x7e]*$/.test(b)) return a.toLowerCase() === b.toLowerCase();
  return (accentCollator ??= new Intl.Collator(undefined, { sensitivity: "accent" })).compare(a, b) === 0;
}

let accentCollator: Intl.Collator | undefined;

export function hasActiveMission(actor: Actor): actor is Actor & { kind: "persona"; mission: Mission } {
  return actor.kind === "persona" && actor.mission !== null && actor.mission.status === "ACTIVE";
}

/** A live claim: closed tasks keep `claimedBy` as history only. */
export function activeClaimant(task: Pick<Task, "status" | "claimedBy">): string | null {
  return CLAIMED_STATUSES.includes(task.status) ? task.claimedBy : null;
}

/** The Director and an Administrator own every task; a claimant owns the task it claims. */
export function isOwner(task: Task, actor: Actor): boolean {
  if (actor.kind === "director") return true;
  if (actor.role === "administrator" && hasActiveMission(actor)) return true;
  return sameName(activeClaimant(task), actor.name);
}
