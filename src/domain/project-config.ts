import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { parseRole, ROLES, type Role } from "./roles.js";
import { PROJECT_TYPES, type Project } from "./schemas/project.js";

export const ASSISTANT_NAMES = ["claude", "opencode", "codex", "gemini"] as const;

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

const WORKTREE_SETUP_HINT = "commit the command as .pantheon/worktree-setup, or set it for this clone: git config pantheon.worktreeSetup COMMAND";

/** The part of a Project a person chooses (the rest is record bookkeeping). */
export type ProjectSettings = Omit<Project, "uid" | "createdAt" | "updatedAt" | "createdBy" | "schemaVersion">;

export function defaultSettings(name: string, type: Project["type"] = "other"): ProjectSettings {
  return {
    name,
    type,
    description: "",
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
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join(".");
    const keys = (issue as { keys?: string[] }).keys;
    const message = issue.code === "unrecognized_keys" && keys
      ? `unknown key ${keys.map((k) => (path ? `${path}.${k}` : k)).join(", ")}`
      : `${path || "(top level)"}: ${issue.message}`;
    // The set-up command left the shared settings (schema 2): say where it lives now.
    if (path === "worktree" && keys?.includes("setup")) throw new UsageError(`Invalid config ${file}: worktree.setup is no longer a project setting (no command is read from the shared state)`, WORKTREE_SETUP_HINT);
    throw new UsageError(`Invalid config ${file}: ${message}`, "keys: project.{name,type,description}, features.{pm_system,session_tracking,commit_guidelines,daemon_naming}, customization.{personas_theme,variables}, roles, assistant, worktree.copy");
  }
  const c = parsed.data;
  const roles: Role[] = c.roles ? [...new Set(c.roles.map((r, i) => parseRoleAt(r, i, file)))] : defaults.roles;
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.customization?.variables ?? {})) variables[k] = String(v);
  return {
    name: c.project?.name ?? defaults.name,
    type: c.project?.type ?? defaults.type,
    description: c.project?.description ?? defaults.description,
    features: {
      pmSystem: c.features?.pm_system ?? defaults.features.pmSystem,
      sessionTracking: c.features?.session_tracking ?? defaults.features.sessionTracking,
      commitGuidelines: c.features?.commit_guidelines ?? defaults.features.commitGuidelines,
      daemonNaming: c.features?.daemon_naming ?? defaults.features.daemonNaming,
    },
    customization: { personasTheme: c.customization?.personas_theme ?? defaults.customization.personasTheme, variables },
    roles,
    assistant: c.assistant ?? defaults.assistant,
    worktree: { copy: c.worktree?.copy ?? defaults.worktree.copy },
  };
}

function parseRoleAt(input: string, index: number, file: string): Role {
  try {
    return parseRole(input, `roles[${index}]`);
  } catch (e) {
    throw new UsageError(`Invalid config ${file}: roles.${index}: ${(e as Error).message}`, (e as UsageError).hint ?? "see docs/cli.md for the config keys");
  }
}
