import { UsageError } from "../errors.js";
import { sameName } from "./actor.js";
import { looksLike, mixedAlphabets, revealed } from "./confusable-names.js";
import { PERSONA_NAME } from "./constants.js";
import { printable } from "./ids.js";
import type { Mission } from "./schemas/mission.js";

/** The human's name in every record and message: a persona called so could pass for them. */
export const RESERVED_NAME = "Director";

export function isPersonaName(name: string): boolean {
  return nameTrouble(name) === null;
}

/**
 * What is wrong with a persona name, as the end of a sentence about it, or null: 1-40 letters,
 * digits, spaces, dots, apostrophes or hyphens; never `Director` or a look-alike of it
 * (`Dіrector` with a Cyrillic і, `DIRECT0R`, fullwidth letters: DESIGN §1.5a); letters of one
 * alphabet (mixing Latin, Greek, Cyrillic... is how look-alikes of any name are made).
 */
export function nameTrouble(name: string): string | null {
  if (sameName(name, RESERVED_NAME) || looksLike(name, RESERVED_NAME))
    return name.toLowerCase() === RESERVED_NAME.toLowerCase()
      ? "is reserved for the Director, the human at the keyboard"
      : `looks like "${RESERVED_NAME}", which is reserved for the Director, the human at the keyboard`;
  if (!PERSONA_NAME.test(name)) return "is not a persona name";
  const mixed = mixedAlphabets(name);
  if (mixed) return `mixes ${mixed[0]} and ${mixed[1]} letters, as look-alike names do`;
  return null;
}

/** A name in a message: quoted, escaped, and with its non-ASCII characters shown when it has any. */
export function shownName(name: string): string {
  const plain = printable(name);
  const shown = `${revealed(name.slice(0, 60))}${name.length > 60 ? "…" : ""}`;
  return revealed(name) === name ? `"${plain}"` : `"${plain}" (${shown})`;
}

/** A persona name from any source (`--persona`, `persona add`, `--as`, PANTHEON_PERSONA), trimmed and checked (nameTrouble). */
export function checkPersonaName(raw: string, source: string): string {
  const name = raw.trim();
  const trouble = nameTrouble(name);
  if (trouble === null) return name;
  if (!PERSONA_NAME.test(name) && !looksLike(name, RESERVED_NAME))
    throw new UsageError(
      `Invalid persona name "${printable(raw)}" (from ${source})`,
      "a name is 1-40 letters, digits, spaces, dots, apostrophes or hyphens",
    );
  throw new UsageError(
    `${shownName(name)} ${trouble}; a persona needs another name (from ${source})`,
    "pantheon persona suggest <role> (or omit --persona to get a free name)",
  );
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
