import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { parseEpicRef, parseTaskRef, printable } from "./ids.js";
import { parsePriority, type Priority } from "./priority.js";
import { parseTaskRole, type TaskRole } from "./roles.js";
import { MAX_TEXT, MAX_TITLE } from "./constants.js";

const Ref = z.union([z.string(), z.int()]);

/** One entry of a `task import` file (YAML or JSON list). `key` names it for later entries. */
const EntrySchema = z.strictObject({
  key: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  title: z.string().check(
    z.maxLength(MAX_TITLE),
    z.refine((s) => s.trim() !== "", "must not be blank"),
  ),
  role: z.string(),
  priority: z.optional(z.string()),
  description: z.optional(z.nullable(z.string().check(z.maxLength(MAX_TEXT)))),
  depends_on: z.optional(z.array(Ref)),
  epic: z.optional(z.nullable(Ref)),
});

const NONE = Object.freeze([]) as never[];

export interface PlannedTask {
  title: string;
  role: TaskRole;
  priority: Priority;
  description: string;
  /** Dependencies on earlier entries (their index in the file). */
  entryDeps: number[];
  /** Dependencies on existing tasks, as written (checked for form here, resolved by the service). */
  taskDeps: string[];
  epic: string | null;
}

/**
 * Validates a whole import file before anything is written. `depends_on` items name an earlier
 * entry by its `key`, or an existing task by id or number.
 */
export function planImport(doc: unknown, file: string): PlannedTask[] {
  const list = Array.isArray(doc)
    ? doc
    : doc && typeof doc === "object" && Array.isArray((doc as { tasks?: unknown }).tasks)
      ? (doc as { tasks: unknown[] }).tasks
      : null;
  if (!list)
    throw new UsageError(
      `${file} must hold a list of tasks (or {tasks: [...]})`,
      "each entry: {title, role, priority?, description?, depends_on?, epic?, key?}",
    );
  const keys = new Map<string, number>();
  return list.map((raw, i) => {
    const at = `${file} entry ${i + 1}`;
    const parsed = EntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const keysList = (issue as { keys?: string[] }).keys;
      throw new UsageError(
        `${at}: ${keysList ? `unknown key ${keysList.join(", ")}` : `${issue.path.join(".") || "entry"}: ${issue.message}`}`,
        "entries take title, role, priority, description, depends_on, epic and key",
      );
    }
    const e = parsed.data;
    const wrap = <T>(f: () => T): T => {
      try {
        return f();
      } catch (err) {
        throw new UsageError(
          `${at}: ${(err as Error).message}`,
          (err as UsageError).hint ?? "see pantheon task import --help",
        );
      }
    };
    const entryDeps: number[] = [];
    const taskDeps: string[] = [];
    for (const d of e.depends_on ?? []) {
      const earlier = typeof d === "string" ? keys.get(d) : undefined;
      if (earlier !== undefined) entryDeps.push(earlier);
      else taskDeps.push(wrap(() => (parseTaskRef(String(d)), String(d))));
    }
    if (e.key !== undefined) {
      if (keys.has(e.key))
        throw new UsageError(`${at}: key "${printable(e.key)}" is used twice`, "give every entry its own key");
      keys.set(e.key, i);
    }
    return {
      title: e.title,
      // Most entries have neither: one shared empty list (100,000 entries are held to the end).
      entryDeps: entryDeps.length > 0 ? entryDeps : NONE,
      taskDeps: taskDeps.length > 0 ? taskDeps : NONE,
      role: wrap(() => parseTaskRole(e.role, "role")),
      priority: e.priority === undefined ? "MEDIUM" : wrap(() => parsePriority(e.priority!, "priority")),
      description: e.description ?? "",
      epic: e.epic === undefined || e.epic === null ? null : wrap(() => (parseEpicRef(String(e.epic)), String(e.epic))),
    };
  });
}
