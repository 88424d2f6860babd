import { UsageError } from "../errors.js";
import type { Priority } from "../domain/priority.js";
import type { ReviewStatus, ReviewType } from "../domain/review-values.js";
import type { Role, TaskRole } from "../domain/roles.js";
import type { TaskStatus } from "../domain/task-status.js";

/**
 * Enum values in any case (DESIGN §4.1a): `"high"` or `"HIGH"`. The types list the usual
 * spellings; at run time the same parsers as the CLI's accept every form the CLI does
 * (a role's code or unique prefix, a priority's letter).
 */
export type AnyCase<T extends string> = T | Lowercase<T> | Uppercase<T> | Capitalize<Lowercase<T>>;

/** The roles' three-letter codes (domain/roles.ts ROLE_CODES; a unit test keeps the two equal). */
export const ROLE_CODE_INPUTS = ["ARC", "ENG", "TST", "DOC", "INS", "OPR"] as const;
type RoleCode = (typeof ROLE_CODE_INPUTS)[number];

export type PriorityInput = AnyCase<Priority> | AnyCase<"C" | "H" | "M" | "L">;
export type RoleInput = AnyCase<Role> | AnyCase<RoleCode>;
export type TaskRoleInput = AnyCase<TaskRole> | AnyCase<RoleCode>;
export type TaskStatusInput = AnyCase<TaskStatus>;
export type ReviewStatusInput = AnyCase<ReviewStatus>;
export type ReviewTypeInput = AnyCase<ReviewType> | AnyCase<"task-completion">;

/** One value or several (a filter), each parsed; undefined or empty means no filter. */
export function oneOrMany<I, T>(value: I | readonly I[] | undefined, parse: (v: I) => T): T[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? (value as readonly I[]) : [value as I];
  return list.length > 0 ? [...new Set(list.map(parse))] : undefined;
}

/** A whole number option (`limit`, `count`), refused as the CLI refuses `--limit 0`. */
export function wholeNumber(value: number | undefined, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > 999_999_999)
    throw new UsageError(
      `${name} must be a whole number${min > 0 ? ` of at least ${min}` : ""}, not ${String(value)}`,
      `for example: ${name}: ${Math.max(min, 10)}`,
    );
  return value;
}

/** A list of ids given as an array (or one id). */
export function ids(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : [...value];
}

/** `T` with its possibly-undefined keys made optional and never undefined. */
export type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Options left undefined are left out, as the CLI leaves out flags that were not given. */
export function defined<T extends Record<string, unknown>>(o: T): Defined<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Defined<T>;
}
