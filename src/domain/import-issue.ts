import { printable } from "./ids.js";

/** The parts of a zod issue an import entry's refusal is said from. */
export interface ImportIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  maximum?: number | bigint;
  minimum?: number | bigint;
  expected?: string;
}

/** What each field of an entry is, said the way a person writes it. */
const KINDS: Record<string, string> = {
  key: "text",
  title: "text",
  role: "a role's name (text)",
  priority: "a priority's name (text)",
  description: "text (or null)",
  depends_on: "a list of keys, task ids or numbers",
  "depends_on[]": "a key of an entry, a task id or a number",
  epic: "an epic's id or number (or null)",
  labels: "a list of words",
  "labels[]": "a word",
  acceptance: "a list of one-line criteria",
  "acceptance[]": "a one-line criterion (or {text, done})",
};

function shown(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  return typeof v === "string" ? `"${printable(v)}"` : String(v);
}

/**
 * One line for what is wrong with an entry's field, naming the field and the limit it passed
 * (`title is 312 characters long; at most 200`). zod's own "Invalid input" names neither, and
 * the file is the user's input.
 */
export function describeImportIssue(issue: ImportIssue, entry: unknown): string {
  if (issue.code === "unrecognized_keys" && issue.keys) return `unknown key ${issue.keys.join(", ")}`;
  const [field, index] = issue.path;
  if (field === undefined) return `an entry must be a map of title, role… (got ${shown(entry)})`;
  const name = typeof index === "number" ? `${String(field)} item ${index + 1}` : String(field);
  const value =
    entry && typeof entry === "object"
      ? issue.path.reduce<unknown>(
          (v, k) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined),
          entry,
        )
      : undefined;
  if (issue.code === "too_big" && typeof value === "string")
    return `${name} is ${value.length} characters long; at most ${issue.maximum}`;
  if (issue.code === "too_small" && typeof value === "string") return `${name} must not be empty`;
  if (issue.code === "custom") return `${name} ${issue.message}`;
  const kind = KINDS[typeof index === "number" ? `${String(field)}[]` : String(field)];
  if (value === undefined && typeof index !== "number") return `${name} is missing${kind ? ` (${kind})` : ""}`;
  return kind ? `${name} must be ${kind}, not ${shown(value)}` : `${name}: ${issue.message}`;
}
