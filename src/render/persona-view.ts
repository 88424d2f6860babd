import { missionId } from "../domain/ids.js";
import type { Role } from "../domain/roles.js";

export interface PersonaEntryView {
  name: string;
  role: Role;
  /** Where the name comes from: the theme, or `added` (persona add). */
  source: string;
  bio: string;
  missions: number;
  activeMission: string | null;
}

/** `persona list`: a name with how often it was used and the mission it is on now. */
export function personaEntryView(e: {
  name: string;
  role: Role;
  source: string;
  bio: string;
  missions: number;
  active: { number: number } | null;
}): PersonaEntryView {
  return {
    name: e.name,
    role: e.role,
    source: e.source,
    bio: e.bio,
    missions: e.missions,
    activeMission: e.active ? missionId(e.active.number) : null,
  };
}

export interface PersonaView {
  name: string;
  role: Role;
  bio: string;
}

/** `persona add`: the record as added. */
export function personaView(p: { name: string; role: Role; bio: string }): PersonaView {
  return { name: p.name, role: p.role, bio: p.bio };
}
