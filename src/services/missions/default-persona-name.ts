import { isPersonaName, pickPersonaName, roleName } from "../../domain/persona-names.js";
import type { Role } from "../../domain/roles.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Snapshot } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { loadTheme } from "../project/load-theme.js";

export interface DefaultName {
  /** Null when every name of the theme for the role is on an ACTIVE mission. */
  name: string | null;
  bio: string;
  /** The project's theme. */
  theme: string;
  /** Whether names come from the theme (daemon naming) or are the role's own. */
  naming: "theme" | "role";
}

/**
 * The persona name a mission gets when none is given (`mission start`, `summon`, `persona
 * suggest`). With `features.daemon_naming` on (the default), the least-used free name of the
 * project's theme and its added names; off, the role's own name (`Engineer`, `Engineer 2`).
 */
export async function defaultPersonaName(
  ctx: Context<unknown>,
  snap: Snapshot,
  role: Role,
  missions: readonly Mission[],
): Promise<DefaultName> {
  const project = await snap.project();
  if (!project.features.daemonNaming)
    return { name: roleName(role, missions), bio: "", theme: project.customization.personasTheme, naming: "role" };
  const theme = await loadTheme(ctx, project.customization.personasTheme);
  // Added names come from the ref (anyone's to write): a look-alike of the Director's is never picked.
  const added = (await snap.personas()).filter((p) => p.role === role && isPersonaName(p.name)).map((p) => p.name);
  const name = pickPersonaName([...theme.roles[role], ...added], missions);
  return { name, bio: name ? (theme.bios[name] ?? "") : "", theme: theme.name, naming: "theme" };
}
