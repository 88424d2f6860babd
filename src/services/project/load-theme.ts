import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { NotFoundError, UsageError } from "../../errors.js";
import { ROLES, type Role } from "../../domain/roles.js";
import { isPersonaName } from "../../domain/persona-names.js";
import type { Context } from "../kernel/context.js";
import { loadYaml } from "../kernel/yaml-module.js";

export interface Theme {
  name: string;
  description: string;
  roles: Record<Role, string[]>;
  bios: Record<string, string>;
}

/** Reads `templates/themes/<name>.yaml` (yaml is loaded only here: start-up time matters). */
export async function loadTheme(ctx: Context<unknown>, name: string): Promise<Theme> {
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(name))
    throw new UsageError(
      `Invalid theme name "${name}"`,
      "theme names are lower-case letters, digits, - and _ (e.g. mythology)",
    );
  const path = join(ctx.templatesDir, "themes", `${name}.yaml`);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new NotFoundError(
      `No persona theme "${name}" (${path})`,
      "themes: mythology, constellations; set customization.personas_theme",
    );
  }
  const { parse } = await loadYaml();
  const raw = parse(text) as {
    description?: unknown;
    roles?: Record<string, unknown>;
    bios?: Record<string, unknown>;
  } | null;
  const roles = {} as Record<Role, string[]>;
  for (const role of ROLES) {
    const names = raw?.roles?.[role];
    roles[role] = Array.isArray(names)
      ? names.filter((n): n is string => typeof n === "string" && isPersonaName(n))
      : [];
  }
  const bios: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw?.bios ?? {})) if (typeof v === "string") bios[k] = v;
  return { name, description: typeof raw?.description === "string" ? raw.description : "", roles, bios };
}
