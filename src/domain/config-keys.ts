import { UsageError } from "../errors.js";
import { closestWord } from "./closest-word.js";
import { CONFIG_KEYS_HINT } from "./config-issue.js";
import type { ProjectSettings } from "./project-config.js";

/** The keys of `pantheon config set`: SPEC §2's YAML paths plus roles, assistant and worktree.copy. */
export const CONFIG_KEYS = [
  "project.name",
  "project.type",
  "project.description",
  "features.pm_system",
  "features.session_tracking",
  "features.commit_guidelines",
  "features.daemon_naming",
  "customization.personas_theme",
  "customization.variables.NAME",
  "roles",
  "assistant",
  "worktree.copy",
] as const;

const VARIABLE = /^[A-Za-z_][\w-]{0,39}$/;

/** The settings in the YAML config's shape (snake_case): what `config show` prints and `init --config` reads. */
export function configDocumentOf(s: ProjectSettings) {
  return {
    project: { name: s.name, type: s.type, description: s.description },
    features: {
      pm_system: s.features.pmSystem,
      session_tracking: s.features.sessionTracking,
      commit_guidelines: s.features.commitGuidelines,
      daemon_naming: s.features.daemonNaming,
    },
    customization: { personas_theme: s.customization.personasTheme, variables: { ...s.customization.variables } },
    roles: [...s.roles],
    assistant: s.assistant,
    worktree: { copy: [...s.worktree.copy] },
  };
}

function bool(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (["true", "yes", "on"].includes(v)) return true;
  if (["false", "no", "off"].includes(v)) return false;
  return value; // refused by the config schema, naming the key and "true or false"
}

function list(value: string): string[] {
  return value
    .trim()
    .replace(/^\[(.*)\]$/s, "$1")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * `config set KEY VALUE` as the config document `init --config` would read, so both are validated
 * by one function: `roles engineer,tester` → `{ roles: ["engineer", "tester"] }`.
 */
export function configSetDocument(key: string, value: string, current: ProjectSettings): Record<string, unknown> {
  const [head, second, ...rest] = key.split(".");
  if (head === "project" && ["name", "type", "description"].includes(second ?? "") && rest.length === 0)
    return { project: { [second!]: value } };
  if (
    head === "features" &&
    rest.length === 0 &&
    ["pm_system", "session_tracking", "commit_guidelines", "daemon_naming"].includes(second ?? "")
  )
    return { features: { [second!]: bool(value) } };
  if (key === "customization.personas_theme") return { customization: { personas_theme: value.trim() } };
  if (head === "customization" && second === "variables") {
    const name = rest.join(".");
    if (!VARIABLE.test(name))
      throw new UsageError(
        `Set one variable at a time: customization.variables.NAME, NAME being letters, digits, _ and - (got "${key}")`,
        'pantheon config set customization.variables.team "Core" (an empty value removes it)',
      );
    const variables: Record<string, string> = { ...current.customization.variables };
    if (value === "") delete variables[name];
    else variables[name] = value;
    return { customization: { variables } };
  }
  if (key === "roles") return { roles: list(value) };
  if (key === "assistant")
    return { assistant: ["", "none", "null"].includes(value.trim().toLowerCase()) ? null : value.trim().toLowerCase() };
  if (key === "worktree.copy") return { worktree: { copy: list(value) } };
  if (key === "worktree.setup") {
    throw new UsageError(
      "worktree.setup is not a project setting: anyone who can push could change a command Pantheon runs",
      'put the command in .pantheon/worktree-setup (committed), or: git config pantheon.worktreeSetup "npm ci"',
    );
  }
  const near = closestWord(
    key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    CONFIG_KEYS,
  );
  throw new UsageError(`Unknown setting "${key}"${near ? ` (did you mean ${near}?)` : ""}`, CONFIG_KEYS_HINT);
}

export interface SettingChange {
  key: string;
  from: string;
  to: string;
}

function flatten(v: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (v && typeof v === "object" && !Array.isArray(v) && prefix !== "customization.variables") {
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix === "customization.variables") {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out.set(`${prefix}.${k}`, x);
  } else out.set(prefix, v);
  return out;
}

/** How a value reads in a change line: lists joined, null as none. */
export function settingText(v: unknown): string {
  if (v === undefined) return "(unset)";
  if (v === null) return "none";
  if (Array.isArray(v)) return v.length === 0 ? "(none)" : v.join(", ");
  if (typeof v === "string") return v === "" ? '""' : v;
  return String(v);
}

/** The keys whose values differ between two settings, by YAML path, in config order. */
export function settingChanges(before: ProjectSettings, after: ProjectSettings): SettingChange[] {
  const a = flatten(configDocumentOf(before), "", new Map());
  const b = flatten(configDocumentOf(after), "", new Map());
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  return keys
    .filter((k) => JSON.stringify(a.get(k)) !== JSON.stringify(b.get(k)))
    .map((k) => ({ key: k, from: settingText(a.get(k)), to: settingText(b.get(k)) }));
}
