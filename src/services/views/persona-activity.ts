import { sameName } from "../../domain/actor.js";
import type { Role } from "../../domain/roles.js";
import type { Context } from "../kernel/context.js";
import { defaultPersonaName } from "../missions/default-persona-name.js";

export interface ActivityRow {
  persona: string;
  role: Role;
  missions: number;
  completedMissions: number;
  tasksCompleted: number;
}

/** Per persona: missions, ENDED missions, and tasks completed (counted by completedBy). */
export async function personaActivity(ctx: Context): Promise<ActivityRow[]> {
  const snap = await (await ctx.store()).snapshot();
  const [missions, tasks] = await Promise.all([snap.all("missions"), snap.taskSummaries()]);
  const rows = new Map<string, ActivityRow>();
  for (const m of missions) {
    const key = m.persona.toLowerCase();
    const row = rows.get(key) ?? {
      persona: m.persona,
      role: m.role,
      missions: 0,
      completedMissions: 0,
      tasksCompleted: 0,
    };
    row.missions += 1;
    if (m.status === "ENDED") row.completedMissions += 1;
    row.role = m.role;
    rows.set(key, row);
  }
  for (const t of tasks) {
    if (t.status !== "COMPLETE" || !t.completedBy) continue;
    const key = t.completedBy.toLowerCase();
    const row = rows.get(key) ?? {
      persona: t.completedBy,
      role: t.role,
      missions: 0,
      completedMissions: 0,
      tasksCompleted: 0,
    };
    row.tasksCompleted += 1;
    rows.set(key, row);
  }
  return [...rows.values()].sort(
    (a, b) => b.tasksCompleted - a.tasksCompleted || b.missions - a.missions || a.persona.localeCompare(b.persona),
  );
}

/** The name `mission start --role R` would pick now: the least-used free one. */
export async function suggestPersona(
  ctx: Context,
  role: Role,
): Promise<{ name: string | null; bio: string; theme: string; naming: "theme" | "role"; uses: number }> {
  const snap = await (await ctx.store()).snapshot();
  const missions = await snap.all("missions");
  const { name, bio, theme, naming } = await defaultPersonaName(ctx, snap, role, missions);
  return { name, bio, theme, naming, uses: name ? missions.filter((m) => sameName(m.persona, name)).length : 0 };
}
