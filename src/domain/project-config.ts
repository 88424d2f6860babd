import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { parseRole, ROLES, type Role } from "./roles.js";
import { PROJECT_TYPES, type Project } from "./schemas/project.js";
import { ASSISTANT_NAMES } from "./assistant-names.js";
import { CONFIG_KEYS_HINT, describeConfigIssue, type ConfigIssue } from "./config-issue.js";

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The YAML config of SPEC §2 (snake_case) plus `roles`, `assistant` and `worktree` (DESIGN §1.3). */
const ConfigSchema = z.strictObject({
  project: z.optional(
    z.strictObject({
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      type: z.optional(z.enum(PROJECT_TYPES)),
      description: z.optional(z.nullable(z.string().check(z.maxLength(5000)))),
    }),
  ),
  features: z.optional(
    z.strictObject({
      pm_system: z.optional(z.boolean()),
      session_tracking: z.optional(z.boolean()),
      commit_guidelines: z.optional(z.boolean()),
      daemon_naming: z.optional(z.boolean()),
    }),
  ),
  customization: z.optional(
    z.strictObject({
      personas_theme: z.optional(z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/))),
      variables: z.optional(z.nullable(z.record(z.string(), Scalar))),
    }),
  ),
  roles: z.optional(z.array(z.string())),
  assistant: z.optional(z.nullable(z.enum(ASSISTANT_NAMES))),
  worktree: z.optional(
    z.strictObject({
      copy: z.optional(z.array(z.string().check(z.minLength(1)))),
    }),
  ),
});

/** The config document as its schema reads it; its `assistant` is checked against the assistant list (test/unit/assistants/registry.test.ts). */
export type ConfigDocument = z.infer<typeof ConfigSchema>;

const WORKTREE_SETUP_HINT =
  "commit the command as .pantheon/worktree-setup, or set it for this clone: git config pantheon.worktreeSetup COMMAND";

/** The part of a Project a person chooses (the rest is record bookkeeping). */
export type ProjectSettings = Omit<Project, "uid" | "createdAt" | "updatedAt" | "createdBy" | "schemaVersion">;

export function defaultSettings(name: string, type: Project["type"] = "other", description = ""): ProjectSettings {
  return {
    name,
    type,
    description,
    features: { pmSystem: true, sessionTracking: true, commitGuidelines: true, daemonNaming: true },
    customization: { personasTheme: "mythology", variables: {} },
    roles: [...ROLES],
    assistant: null,
    worktree: { copy: [] },
  };
}

/**
 * Validates a parsed config document and maps it onto the defaults. Every problem is a usage
 * error naming the key (`project.type`), because the file is the user's input.
 */
export function settingsFromConfig(doc: unknown, defaults: ProjectSettings, file: string): ProjectSettings {
  const parsed = ConfigSchema.safeParse(doc ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as ConfigIssue;
    const keys = (issue as { keys?: string[] }).keys;
    // The set-up command left the shared settings (schema 2): say where it lives now.
    if (issue.path.map(String).join(".") === "worktree" && keys?.includes("setup")) {
      throw new UsageError(
        `Invalid config ${file}: worktree.setup is no longer a project setting (no command is read from the shared state)`,
        WORKTREE_SETUP_HINT,
      );
    }
    throw new UsageError(`Invalid config ${file}: ${describeConfigIssue(issue, doc)}`, CONFIG_KEYS_HINT);
  }
  const c = parsed.data;
  for (const [key, what] of [
    ["pm_system", "task management"],
    ["session_tracking", "mission tracking"],
  ] as const) {
    // The coordination core always works (DESIGN §1.3): a switch that cannot act is refused, not ignored.
    if (c.features?.[key] === false)
      throw new UsageError(
        `Invalid config ${file}: features.${key} cannot be false: ${what} is Pantheon's core and always on`,
        `leave features.${key} out or set it to true`,
      );
  }
  const roles: Role[] = c.roles ? [...new Set(c.roles.map((r, i) => parseRoleAt(r, i, file)))] : defaults.roles;
  const variables: Record<string, string> = {};
  // Variables the document leaves out stay as they are (init --config and config set on a set-up project).
  if (c.customization?.variables === undefined) Object.assign(variables, defaults.customization.variables);
  for (const [k, v] of Object.entries(c.customization?.variables ?? {})) variables[k] = String(v);
  // Each nested object starts from the current one: fields a newer version added to features,
  // customization or worktree are carried, not dropped (DESIGN §1.3, forward compatibility).
  return {
    name: c.project?.name ?? defaults.name,
    type: c.project?.type ?? defaults.type,
    description: c.project?.description ?? defaults.description,
    features: {
      ...defaults.features,
      pmSystem: c.features?.pm_system ?? defaults.features.pmSystem,
      sessionTracking: c.features?.session_tracking ?? defaults.features.sessionTracking,
      commitGuidelines: c.features?.commit_guidelines ?? defaults.features.commitGuidelines,
      daemonNaming: c.features?.daemon_naming ?? defaults.features.daemonNaming,
    },
    customization: {
      ...defaults.customization,
      personasTheme: c.customization?.personas_theme ?? defaults.customization.personasTheme,
      variables,
    },
    roles,
    // null in the file (or `config set assistant none`) clears it; only a missing key keeps it.
    assistant: c.assistant === undefined ? defaults.assistant : c.assistant,
    worktree: { ...defaults.worktree, copy: c.worktree?.copy ?? defaults.worktree.copy },
  };
}

function parseRoleAt(input: string, index: number, file: string): Role {
  try {
    return parseRole(input, `roles[${index}]`);
  } catch (e) {
    throw new UsageError(
      `Invalid config ${file}: roles.${index}: ${(e as Error).message}`,
      (e as UsageError).hint ?? "see docs/cli.md for the config keys",
    );
  }
}
