import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { parseEpicRef, parseTaskRef, printable } from "./ids.js";
import { parsePriority, type Priority } from "./priority.js";
import { parseTaskRole, type TaskRole } from "./roles.js";
import { MAX_TEXT, MAX_TITLE } from "./constants.js";
import { checkCriteriaCount, parseCriterionText } from "./acceptance.js";
import { describeImportIssue } from "./import-issue.js";
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

const NONE = Object.freeze([]) as never[];

export interface PlannedTask {
  title: string;
  role: TaskRole;
  priority: Priority;
  description: string;
  /** Dependencies on other entries of the file, earlier or later (their index in the file). */
  entryDeps: number[];
  /** Dependencies on existing tasks, as written (checked for form here, resolved by the service). */
  taskDeps: string[];
  epic: string | null;
  labels: string[];
  acceptance: Array<{ text: string; done: boolean }>;
}

/** How an entry is named in a refusal: its place in the file, and its key or the start of its title. */
function entryName(file: string, i: number, raw: unknown): string {
  const e = raw && typeof raw === "object" ? (raw as { key?: unknown; title?: unknown }) : {};
  const label =
    typeof e.key === "string" && e.key !== ""
      ? ` (key "${printable(e.key.slice(0, 40))}")`
      : typeof e.title === "string" && e.title.trim() !== ""
        ? ` ("${printable(e.title.slice(0, 40))}${e.title.length > 40 ? "…" : ""}")`
        : "";
  return `${file} entry ${i + 1}${label}`;
}

/**
 * Validates a whole import file before anything is written. `depends_on` items name another
 * entry by its `key` (earlier or later: the file is one commit, so the order of its entries does
 * not matter; a cycle among them is refused), or an existing task by id or number.
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
  const entries = list.map((raw, i) => {
    const parsed = EntrySchema.safeParse(raw);
    if (!parsed.success)
      throw new UsageError(
        `${entryName(file, i, raw)}: ${describeImportIssue(parsed.error.issues[0]!, raw)}`,
        `entries take title (at most ${MAX_TITLE} characters), role, priority, description (at most ${MAX_TEXT}), depends_on, epic, labels, acceptance and key (at most 100)`,
      );
    return parsed.data;
  });
  // Every key first: a dependency may name an entry further down.
  const keys = new Map<string, number>();
  for (const [i, e] of entries.entries()) {
    if (e.key === undefined) continue;
    if (keys.has(e.key))
      throw new UsageError(
        `${entryName(file, i, e)}: key "${printable(e.key)}" is used twice (entries ${keys.get(e.key)! + 1} and ${i + 1})`,
        "give every entry its own key",
      );
    keys.set(e.key, i);
  }
  const planned = entries.map((e, i) => {
    const at = entryName(file, i, e);
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
      const entry = typeof d === "string" ? keys.get(d) : undefined;
      if (entry !== undefined) entryDeps.push(entry);
      else if (typeof d === "string" && !isTaskRef(d))
        throw new UsageError(
          `${at}: depends_on "${printable(d)}" is neither the key of an entry in ${file} nor a task id`,
          `name an entry by its key (key: ${printable(d)}), or an existing task by its id (ENG-H-0007) or number`,
        );
      else taskDeps.push(wrap(() => (parseTaskRef(String(d)), String(d))));
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
    } satisfies PlannedTask;
  });
  refuseCycle(planned, (i) => entryName(file, i, entries[i]), file);
  return planned;
}

function isTaskRef(s: string): boolean {
  try {
    parseTaskRef(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses dependencies among the file's entries that go round (a → b → a, or an entry on
 * itself): no order could create them, and a task could never start. Iterative: a file may be
 * thousands of entries long.
 */
function refuseCycle(plan: readonly PlannedTask[], name: (i: number) => string, file: string): void {
  const state = new Uint8Array(plan.length); // 0 unseen, 1 on the path, 2 done
  for (let root = 0; root < plan.length; root++) {
    if (state[root] !== 0) continue;
    const path: number[] = [root];
    const next: number[] = [0];
    state[root] = 1;
    while (path.length > 0) {
      const at = path.at(-1)!;
      const deps = plan[at]!.entryDeps;
      const k = next.at(-1)!;
      if (k >= deps.length) {
        state[at] = 2;
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = k + 1;
      const dep = deps[k]!;
      if (state[dep] === 1) {
        const loop = [...path.slice(path.indexOf(dep)), dep];
        throw new UsageError(
          loop.length === 2
            ? `${name(dep)} depends on itself`
            : `${file}: entries depend on each other in a cycle: ${loop.map((i) => name(i).slice(file.length + 1)).join(" → ")}`,
          "remove one of those depends_on items: a task in a cycle could never start",
        );
      }
      if (state[dep] === 0) {
        state[dep] = 1;
        path.push(dep);
        next.push(0);
      }
    }
  }
}
