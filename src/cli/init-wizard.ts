import { CancelledError } from "../errors.js";
import { ROLES, type Role } from "../domain/roles.js";
import { PROJECT_TYPES } from "../domain/constants.js";
import type { ProjectSettings } from "../domain/project-config.js";

/**
 * The five questions of `pantheon init`, in order (SPEC §4). @inquirer/prompts is imported here
 * only, so no other command pays for loading it. Ctrl-C becomes CancelledError (exit 130).
 */
export async function askProjectSettings(defaults: ProjectSettings): Promise<ProjectSettings> {
  const { input, select, checkbox } = await import("@inquirer/prompts");
  try {
    const name = await input({
      message: "Project name",
      default: defaults.name,
      validate: (v) => v.trim() !== "" || "A name is needed",
    });
    const type = await select({
      message: "Project type",
      default: defaults.type,
      choices: PROJECT_TYPES.map((t) => ({ value: t, name: t })),
    });
    const description = await input({ message: "Description", default: defaults.description });
    const features = await checkbox({
      // Tasks and missions are the coordination core: always on, so said, never a box to tick.
      message: "Features to enable (task management and mission tracking are always on)",
      choices: [
        {
          value: "commitGuidelines",
          name: "commit guidelines (a procedure personas follow)",
          checked: defaults.features.commitGuidelines,
        },
        {
          value: "daemonNaming",
          name: "daemon naming (persona names from the theme; off: Engineer 2)",
          checked: defaults.features.daemonNaming,
        },
      ] as const,
    });
    const roles = await checkbox<Role>({
      message: "Persona roles to include",
      choices: ROLES.map((r) => ({ value: r, name: r, checked: defaults.roles.includes(r) })),
      validate: (v) => v.length > 0 || "Pick at least one role",
    });
    const on = new Set<string>(features);
    return {
      ...defaults,
      name: name.trim(),
      type,
      description,
      features: {
        pmSystem: true,
        sessionTracking: true,
        commitGuidelines: on.has("commitGuidelines"),
        daemonNaming: on.has("daemonNaming"),
      },
      roles,
    };
  } catch (e) {
    if (e instanceof Error && e.name === "ExitPromptError") throw new CancelledError();
    throw e;
  }
}
