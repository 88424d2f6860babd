import { sameName } from "../../domain/actor.js";
import { ROLES, type Role } from "../../domain/roles.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Context } from "../kernel/context.js";
import { loadTheme } from "../project/load-theme.js";

export interface PersonaEntry {
  name: string;
  role: Role;
  source: string;
  bio: string;
  missions: number;
  active: Mission | null;
}

/** The theme's names and added personas, with how often each was used and who is on a mission now. */
export async function listPersonas(ctx: Context, o: { role?: Role | undefined }): Promise<PersonaEntry[]> {
  const snap = await (await ctx.store()).snapshot();
  const project = await snap.project();
  const theme = await loadTheme(ctx, project.customization.personasTheme);
  const missions = await snap.all("missions");
  const entries: PersonaEntry[] = [];
  const seen = new Set<string>();
  const add = (name: string, role: Role, source: string, bio: string) => {
    const key = name.toLowerCase();
    if (seen.has(key) || (o.role && o.role !== role)) return;
    seen.add(key);
    const mine = missions.filter((m) => sameName(m.persona, name));
    entries.push({
      name,
      role,
      source,
      bio,
      missions: mine.length,
      active: mine.find((m) => m.status === "ACTIVE") ?? null,
    });
  };
  for (const p of await snap.personas()) add(p.name, p.role, "added", p.bio);
  for (const role of ROLES) for (const name of theme.roles[role]) add(name, role, theme.name, theme.bios[name] ?? "");
  // Names given freely with --persona are personas too, once they have had a mission.
  for (const m of missions) add(m.persona, m.role, "mission", "");
  return entries.sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role));
}
