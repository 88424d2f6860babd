import { sameName } from "./actor.js";
import type { Mission } from "./schemas/mission.js";

/**
 * The least-used name of `candidates` that no ACTIVE mission holds; ties keep the theme's order,
 * so the first engineer is the theme's first engineer name. Null when every name is taken.
 */
export function pickPersonaName(candidates: readonly string[], missions: readonly Mission[]): string | null {
  let best: { name: string; uses: number } | null = null;
  for (const name of candidates) {
    const mine = missions.filter((m) => sameName(m.persona, name));
    if (mine.some((m) => m.status === "ACTIVE")) continue;
    if (!best || mine.length < best.uses) best = { name, uses: mine.length };
  }
  return best?.name ?? null;
}

/** The ACTIVE missions of a name (normally at most one; two only after a sync). */
export function activeMissionsOf(name: string, missions: readonly Mission[]): Mission[] {
  return missions.filter((m) => m.status === "ACTIVE" && sameName(m.persona, name));
}

/**
 * The name a mission of `role` gets with daemon naming off: the role's own name, numbered from
 * the second ACTIVE one (`Engineer`, `Engineer 2`).
 */
export function roleName(role: string, missions: readonly Mission[]): string {
  const base = role.charAt(0).toUpperCase() + role.slice(1);
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base} ${i}`;
    if (activeMissionsOf(name, missions).length === 0) return name;
  }
}
