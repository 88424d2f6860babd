import { ROLES } from "./roles.js";
import { PROJECT_TYPES } from "./constants.js";
import { ASSISTANT_NAMES } from "./assistant-names.js";

/** What each key of the YAML config (and of `config set`) accepts, said the way a person reads it. */
const ALLOWED: Record<string, string> = {
  "project.name": "a name of 1 to 200 characters",
  "project.type": `one of ${PROJECT_TYPES.join(", ")}`,
  "project.description": "text of at most 5000 characters",
  features: "a map of pm_system, session_tracking, commit_guidelines, daemon_naming",
  "features.pm_system": "true or false",
  "features.session_tracking": "true or false",
  "features.commit_guidelines": "true or false",
  "features.daemon_naming": "true or false",
  customization: "a map of personas_theme and variables",
  "customization.personas_theme": "an installed theme's name such as mythology (lower-case letters, digits, - and _)",
  "customization.variables": "a map of names to text, numbers or true/false",
  project: "a map of name, type and description",
  roles: `a list of roles among ${ROLES.join(", ")}`,
  assistant: `one of ${ASSISTANT_NAMES.join(", ")}, or null`,
  worktree: "a map with copy (a list of paths)",
  "worktree.copy": "a list of paths (non-empty text)",
};

/** Every key the config accepts, for hints. */
export const CONFIG_KEYS_HINT =
  "keys: project.{name,type,description}, features.{pm_system,session_tracking,commit_guidelines,daemon_naming}, customization.{personas_theme,variables}, roles, assistant, worktree.copy";

export interface ConfigIssue {
  code: string;
  path: PropertyKey[];
  keys?: string[];
}

function valueAt(doc: unknown, path: PropertyKey[]): unknown {
  let v = doc;
  for (const k of path) v = v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function shown(v: unknown): string {
  if (v === undefined) return "missing";
  const text =
    typeof v === "string"
      ? JSON.stringify(v)
      : Array.isArray(v)
        ? "a list"
        : v === null
          ? "null"
          : typeof v === "object"
            ? "a map"
            : String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * One line for the first problem found in a config document: the key, what it accepts and what
 * it got (`project.type must be one of python, …, not "java"`). zod's own "Invalid input" names
 * neither, and the file is the user's input.
 */
export function describeConfigIssue(issue: ConfigIssue, doc: unknown): string {
  const path = issue.path.map(String);
  const key = path.join(".");
  if (issue.code === "unrecognized_keys" && issue.keys)
    return `unknown key ${issue.keys.map((k) => (key ? `${key}.${k}` : k)).join(", ")}`;
  // A list element or a variable is described by its list or map.
  const described = [...path];
  while (described.length > 0 && ALLOWED[described.join(".")] === undefined) described.pop();
  const allowed = ALLOWED[described.join(".")];
  const got = shown(valueAt(doc, issue.path));
  if (!allowed) return `${key || "the document"} is not a map of the config keys (got ${got})`;
  if (described.length < path.length)
    return `${key} is not valid: ${described.join(".")} must be ${allowed} (got ${got})`;
  return `${key} must be ${allowed}, not ${got}`;
}
