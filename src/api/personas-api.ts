import { parseRole } from "../domain/roles.js";
import { personaEntryView, personaView, type PersonaEntryView, type PersonaView } from "../render/persona-view.js";
import { addPersona } from "../services/project/add-persona.js";
import { listPersonas } from "../services/views/list-personas.js";
import { personaActivity, suggestPersona, type ActivityRow } from "../services/views/persona-activity.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import { defined, type RoleInput } from "./inputs.js";

/** Persona names: the theme's and added ones, their use and activity. */
export interface PersonasApi {
  /** `persona list`. */
  list(o?: CallOptions & { role?: RoleInput }): Promise<PersonaEntryView[]>;
  /** `persona suggest`: the name `missions.start` would pick for the role. */
  suggest(role: RoleInput, o?: CallOptions): Promise<{ name: string | null; bio: string; theme: string; uses: number }>;
  /** `persona activity`: missions, ended missions and tasks completed, per persona. */
  activity(o?: CallOptions): Promise<ActivityRow[]>;
  /** `persona add`: a name of the project's own. */
  add(name: string, o: CallOptions & { role: RoleInput; bio?: string }): Promise<PersonaView>;
}

export function personasApi(contexts: ContextFactory): PersonasApi {
  return {
    list: async (o = {}) =>
      (await listPersonas(contexts.for(o), { role: o.role === undefined ? undefined : parseRole(o.role, "role") })).map(
        personaEntryView,
      ),
    suggest: async (role, o) => suggestPersona(contexts.for(o), parseRole(role, "role")),
    activity: async (o) => personaActivity(contexts.for(o)),
    add: async (name, o) =>
      personaView(await addPersona(contexts.for(o), defined({ name, role: parseRole(o.role, "role"), bio: o.bio }))),
  };
}
