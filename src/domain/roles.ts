import { UsageError } from "../errors.js";

/** Every persona role, in the order the wizard and `persona list` show them. */
export const ROLES = [
  "administrator",
  "architect",
  "engineer",
  "tester",
  "documentarian",
  "inspector",
  "operator",
] as const;
export type Role = (typeof ROLES)[number];

/** Roles a task may have: the administrator orchestrates and never owns a task. */
export const TASK_ROLES = ["architect", "engineer", "tester", "documentarian", "inspector", "operator"] as const;
export type TaskRole = (typeof TASK_ROLES)[number];

export const ROLE_CODES: Record<TaskRole, string> = {
  architect: "ARC",
  engineer: "ENG",
  tester: "TST",
  documentarian: "DOC",
  inspector: "INS",
  operator: "OPR",
};

/** Task roles without repeats, in TASK_ROLES order (a task's `formerRoles`: both sides of a merge agree on it). */
export function roleSet(...lists: ReadonlyArray<readonly TaskRole[]>): TaskRole[] {
  const all = new Set(lists.flat());
  return TASK_ROLES.filter((r) => all.has(r));
}

const CODE_TO_ROLE = new Map<string, TaskRole>(TASK_ROLES.map((r) => [ROLE_CODES[r], r]));

export function roleForCode(code: string): TaskRole | undefined {
  return CODE_TO_ROLE.get(code.toUpperCase());
}

/**
 * Accepts a full name, a three-letter code or a unique prefix, case-insensitively
 * (`eng`, `ENG`, `Engineer`, `tst`). Ambiguous or unknown input is a usage error.
 */
export function parseRole(input: string, flag = "--role"): Role {
  const raw = input.trim().toLowerCase();
  if (raw.length === 0) throw new UsageError(`${flag} needs a role`, roleHint());
  const exact = ROLES.find((r) => r === raw);
  if (exact) return exact;
  const byCode = roleForCode(raw);
  if (byCode) return byCode;
  const matches = ROLES.filter((r) => r.startsWith(raw));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new UsageError(`Ambiguous role "${input}": could be ${matches.join(" or ")}`, roleHint());
  }
  throw new UsageError(`Unknown role "${input}"`, roleHint());
}

/** Like parseRole, but refuses the administrator, who cannot own a task. */
export function parseTaskRole(input: string, flag = "--role"): TaskRole {
  const role = parseRole(input, flag);
  if (role === "administrator") {
    throw new UsageError("A task cannot have the administrator role", `use one of: ${TASK_ROLES.join(", ")}`);
  }
  return role;
}

function roleHint(): string {
  return `roles: ${ROLES.join(", ")} (or a code: ${Object.values(ROLE_CODES).join(", ")})`;
}
