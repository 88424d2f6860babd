import { UsageError } from "../errors.js";
import { sameName } from "./actor.js";
import { PERSONA_NAME } from "./constants.js";
import { printable } from "./ids.js";
import type { Mission } from "./schemas/mission.js";

/** The human's name in every record and message: a persona called so could pass for them. */
export const RESERVED_NAME = "Director";

export function isPersonaName(name: string): boolean {
  return PERSONA_NAME.test(name) && !sameName(name, RESERVED_NAME);
}

/**
 * A persona name from any source (`--persona`, `persona add`, `--as`, PANTHEON_PERSONA), trimmed:
 * 1-40 letters, digits, spaces, dots, apostrophes or hyphens, and never `Director` (DESIGN §1.5a).
 */
export function checkPersonaName(raw: string, source: string): string {
  const name = raw.trim();
  if (sameName(name, RESERVED_NAME)) {
    throw new UsageError(
      `"${printable(name)}" is reserved for the Director, the human at the keyboard; a persona needs another name (from ${source})`,
      "pantheon persona suggest <role> (or omit --persona to get a free name)",
    );
  }
  if (!PERSONA_NAME.test(name)) {
    throw new UsageError(
      `Invalid persona name "${printable(raw)}" (from ${source})`,
      "a name is 1-40 letters, digits, spaces, dots, apostrophes or hyphens",
    );
  }
  return name;
}

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
