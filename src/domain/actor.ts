import type { Role } from "./roles.js";
import type { Mission } from "./schemas/mission.js";
import { CLAIMED_STATUSES } from "./task-status.js";
import type { Task } from "./schemas/task.js";

/**
 * Who runs a command (DESIGN §1.7): a persona (usually on a mission) or the Director, the human
 * at the keyboard. A persona's role comes from its mission.
 */
export type Actor =
  | { kind: "director"; name: "Director"; role: null; mission: null }
  | { kind: "persona"; name: string; role: Role | null; mission: Mission | null };

export const DIRECTOR: Actor = { kind: "director", name: "Director", role: null, mission: null };

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
