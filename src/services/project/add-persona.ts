import { ConflictError, UsageError } from "../../errors.js";
import type { Role } from "../../domain/roles.js";
import { checkPersonaName } from "../../domain/persona-names.js";
import type { Persona } from "../../domain/schemas/persona.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { loadTheme } from "./load-theme.js";
import { resolveActor } from "../kernel/resolve-actor.js";

/** `persona add NAME --role R`: a name of the project's own, offered by `mission start` and `summon`. */
export async function addPersona(ctx: Context, o: { name: string; role: Role; bio?: string }): Promise<Persona> {
  const name = checkPersonaName(o.name, "persona add");
  const bio = (o.bio ?? "").trim();
  if (bio.length > 500) throw new UsageError("--bio is longer than 500 characters", "keep it to a sentence");
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const project = await tx.project();
    const theme = await loadTheme(ctx, project.customization.personasTheme);
    const inTheme = Object.entries(theme.roles).find(([, names]) =>
      names.some((n) => n.toLowerCase() === name.toLowerCase()),
    );
    if (inTheme)
      throw new ConflictError(
        `${name} is already a ${inTheme[0]} name of the ${theme.name} theme`,
        `pantheon persona list --role ${inTheme[0]}`,
      );
    if (await tx.persona(name)) throw new ConflictError(`Persona ${name} already exists`, "pantheon persona list");
    const actor = await resolveActor(ctx, tx);
    const at = isoNow(ctx);
    const persona: Persona = {
      uid: ctx.ids.uid(),
      name,
      role: o.role,
      theme: "custom",
      bio,
      createdAt: at,
      updatedAt: at,
      createdBy: actor.name,
    };
    tx.putPersona(persona);
    return { result: persona, commit: commitInfo("persona.add", `persona ${name}`, actor) };
  });
  return result;
}
