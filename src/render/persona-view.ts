import { missionId } from "../domain/ids.js";
import type { Role } from "../domain/roles.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";

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

/** `persona list`: one line per name; the bio is cut first on a narrow terminal. */
export function personaTable(entries: PersonaEntryView[], style: Style): string {
  return table(
    [
      { header: "NAME" },
      { header: "ROLE" },
      { header: "MISSIONS" },
      { header: "ACTIVE", color: (v) => (v ? style.paint.green : undefined) },
      { header: "BIO", flex: true, min: 20 },
    ],
    entries.map((d) => [d.name, d.role, String(d.missions), d.activeMission ?? "", d.bio]),
    style,
    "No persona names: pantheon persona add NAME --role ROLE",
  );
}

/** `persona activity`: missions, ENDED missions and tasks completed, per persona. */
export function activityTable(
  rows: Array<{ persona: string; role: string; missions: number; completedMissions: number; tasksCompleted: number }>,
  style: Style,
): string {
  return table(
    [
      { header: "PERSONA" },
      { header: "ROLE" },
      { header: "MISSIONS" },
      { header: "ENDED" },
      { header: "TASKS COMPLETED" },
    ],
    rows.map((d) => [d.persona, d.role, String(d.missions), String(d.completedMissions), String(d.tasksCompleted)]),
    style,
    "No activity yet: missions and completed tasks show here",
  );
}
