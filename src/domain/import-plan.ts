import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { parseEpicRef, parseTaskRef, printable } from "./ids.js";
import { parsePriority, type Priority } from "./priority.js";
import { parseTaskRole, type TaskRole } from "./roles.js";
import { MAX_TEXT, MAX_TITLE } from "./constants.js";
import { checkCriteriaCount, parseCriterionText } from "./acceptance.js";
import { checkLabelCount, labelSet, parseLabels } from "./labels.js";

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
  labels: z.optional(z.array(z.string())),
  /** Criteria: a line each, or `{text, done}` to import one already checked. */
  acceptance: z.optional(
    z.array(z.union([z.string(), z.strictObject({ text: z.string(), done: z.optional(z.boolean()) })])),
  ),
});

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
  labels: string[];
  acceptance: Array<{ text: string; done: boolean }>;
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
      "each entry: {title, role, priority?, description?, depends_on?, epic?, labels?, acceptance?, key?}",
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
        "entries take title, role, priority, description, depends_on, epic, labels, acceptance and key",
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
      role: wrap(() => parseTaskRole(e.role, "role")),
      priority: e.priority === undefined ? "MEDIUM" : wrap(() => parsePriority(e.priority!, "priority")),
      description: e.description ?? "",
      entryDeps,
      taskDeps,
      epic: e.epic === undefined || e.epic === null ? null : wrap(() => (parseEpicRef(String(e.epic)), String(e.epic))),
      labels: wrap(() => {
        const labels = labelSet(parseLabels(e.labels ?? []));
        checkLabelCount(labels, "labels: at most 20 per entry", { given: true });
        return labels;
      }),
      acceptance: wrap(() => {
        const list = (e.acceptance ?? []).map((a) => (typeof a === "string" ? { text: a, done: false } : a));
        checkCriteriaCount(list.length, "acceptance: at most 50 per entry", { given: true });
        const hint = 'acceptance: ["returns 404 for unknown ids"] (one line each)';
        return list.map((a) => ({ text: parseCriterionText(a.text, hint), done: a.done ?? false }));
      }),
    };
  });
}
