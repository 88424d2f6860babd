import { UsageError } from "../errors.js";
import { parsePriority } from "../domain/priority.js";
import { parseTaskRole } from "../domain/roles.js";
import { parseTaskStatus } from "../domain/task-status.js";
import { linkedTaskView, taskSummaryView, type TaskSummaryView } from "../render/task-view.js";
import { createTask, type TaskResult } from "../services/work/create-task.js";
import { dependTask, editTaskFields, noteTask, setTaskPriority, undependTask } from "../services/work/edit-task.js";
import { linkTasks, unlinkTasks } from "../services/work/epics.js";
import { addCriterion, markTaskCriterion } from "../services/work/task-criteria.js";
import { labelTask, unlabelTask } from "../services/work/task-labels.js";
import {
  claimTask,
  closeTask,
  handoffTask,
  reopenTask,
  unassignTask,
  updateTaskStatus,
} from "../services/work/transition-task.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import { defined, ids, type AnyCase, type PriorityInput, type TaskRoleInput } from "./inputs.js";

export interface CreateTaskInput extends CallOptions {
  /** At most 200 characters. */
  title: string;
  role: TaskRoleInput;
  /** Default MEDIUM. */
  priority?: PriorityInput;
  description?: string;
  /** Tasks that must finish first (ids or numbers). */
  dependsOn?: string | string[];
  /** The epic it belongs to. */
  epic?: string;
  /** Labels: lowercase words (`"API"` is `api`), at most 20. */
  labels?: string | string[];
  /** Acceptance criteria, one line each (checked later with `check`). */
  acceptance?: string | string[];
}

/** Every command that changes a task; each returns the task as `--json`'s `data` has it. */
export interface TaskMutations {
  /** `task create`: a TODO task. */
  create(input: CreateTaskInput): Promise<TaskSummaryView>;
  /** `task import`: every entry of a YAML or JSON file (relative to cwd), in one commit. */
  import(file: string, o?: CallOptions): Promise<TaskSummaryView[]>;
  /** `task claim`: TODO/READY → UNDERWAY for the actor's mission (or resumes a claim left on an ENDED mission). */
  claim(id: string, o?: CallOptions & { force?: boolean }): Promise<TaskSummaryView>;
  /** `task update --status`: UNDERWAY, REVIEW (requests a review unless `review: false`), BLOCKED or TODO. */
  update(
    id: string,
    o: CallOptions & { status: AnyCase<"UNDERWAY" | "REVIEW" | "BLOCKED" | "TODO">; notes?: string; review?: boolean },
  ): Promise<TaskSummaryView>;
  /** `task close`: COMPLETE (default) or ABORTED (needs notes). */
  close(
    id: string,
    o?: CallOptions & { status?: AnyCase<"COMPLETE" | "ABORTED">; notes?: string },
  ): Promise<TaskSummaryView>;
  /** `task handoff`: READY for its role, with a handoff note. */
  handoff(id: string, o: CallOptions & { notes: string }): Promise<TaskSummaryView>;
  /** `task unassign`: back to TODO, claim cleared. */
  unassign(id: string, o: CallOptions & { notes: string }): Promise<TaskSummaryView>;
  /** `task reopen`: a COMPLETE or ABORTED task back to TODO. */
  reopen(id: string, o: CallOptions & { notes: string }): Promise<TaskSummaryView>;
  /** `task note`. */
  note(id: string, text: string, o?: CallOptions): Promise<TaskSummaryView>;
  /** `task depend`: a cycle or a self-dependency is refused. */
  depend(id: string, deps: string | string[], o?: CallOptions): Promise<TaskSummaryView>;
  /** `task undepend`. */
  undepend(id: string, deps: string | string[], o?: CallOptions): Promise<TaskSummaryView>;
  /** `task link`: null when it was already linked to that epic. */
  link(id: string, epic: string, o?: CallOptions): Promise<TaskSummaryView | null>;
  /** `task unlink`: from its epic. */
  unlink(id: string, o?: CallOptions): Promise<TaskSummaryView>;
  /** `task priority`: the id's letter follows. */
  priority(id: string, priority: PriorityInput, o?: CallOptions): Promise<TaskSummaryView>;
  /** `task label`: adds labels (those it has already are left as they are). */
  label(id: string, labels: string | string[], o?: CallOptions): Promise<TaskSummaryView>;
  /** `task unlabel`: a label the task does not have is refused. */
  unlabel(id: string, labels: string | string[], o?: CallOptions): Promise<TaskSummaryView>;
  /** `task ac`: adds an acceptance criterion (one line) at the end of its list. */
  ac(id: string, text: string, o?: CallOptions): Promise<TaskSummaryView>;
  /** `task check`: checks criterion `n` (1-based, as `acceptance` lists them); one already checked is refused. */
  check(id: string, n: number | string, o?: CallOptions): Promise<TaskSummaryView>;
  /** `task uncheck`: opens criterion `n` again. */
  uncheck(id: string, n: number | string, o?: CallOptions): Promise<TaskSummaryView>;
  /** `task edit`: title, description, or role (only while unclaimed). */
  edit(
    id: string,
    o: CallOptions & { title?: string; description?: string; role?: TaskRoleInput },
  ): Promise<TaskSummaryView>;
}

const summary = (r: TaskResult): TaskSummaryView => taskSummaryView(r.task, r.refs);

export function taskMutations(contexts: ContextFactory): TaskMutations {
  return {
    async create(i) {
      return summary(
        await createTask(
          contexts.for(i),
          defined({
            title: i.title,
            role: parseTaskRole(i.role, "role"),
            priority: parsePriority(i.priority ?? "MEDIUM", "priority"),
            dependsOn: ids(i.dependsOn),
            description: i.description,
            epic: i.epic,
            labels: i.labels === undefined ? undefined : ids(i.labels),
            acceptance: i.acceptance === undefined ? undefined : ids(i.acceptance),
          }),
        ),
      );
    },
    async import(file, o) {
      // Loaded on first use, as the CLI does: the YAML parser and the entry schema.
      const { importTasks } = await import("../services/work/import-tasks.js");
      const r = await importTasks(contexts.for(o), file);
      return r.tasks.map((t) => taskSummaryView(t, r.refs));
    },
    claim: async (id, o = {}) => summary(await claimTask(contexts.for(o), { id, force: Boolean(o.force) })),
    async update(id, o) {
      const status = parseTaskStatus(o.status, "status");
      return summary(
        await updateTaskStatus(contexts.for(o), { id, status, notes: o.notes, noReview: o.review === false }),
      );
    },
    async close(id, o = {}) {
      const status = parseTaskStatus(o.status ?? "COMPLETE", "status");
      if (status !== "COMPLETE" && status !== "ABORTED")
        throw new UsageError(
          `task close status must be COMPLETE or ABORTED, not ${status}`,
          `pantheon task update ${id} --status ${status}`,
        );
      return summary(await closeTask(contexts.for(o), { id, status, notes: o.notes }));
    },
    handoff: async (id, o) => summary(await handoffTask(contexts.for(o), { id, notes: o.notes })),
    unassign: async (id, o) => summary(await unassignTask(contexts.for(o), { id, notes: o.notes })),
    reopen: async (id, o) => summary(await reopenTask(contexts.for(o), { id, notes: o.notes })),
    note: async (id, text, o) => summary(await noteTask(contexts.for(o), { id, text })),
    depend: async (id, deps, o) => summary(await dependTask(contexts.for(o), { id, deps: ids(deps) })),
    undepend: async (id, deps, o) => summary(await undependTask(contexts.for(o), { id, deps: ids(deps) })),
    link: async (id, epic, o) => linkedTaskView(await linkTasks(contexts.for(o), { epic, tasks: [id] })),
    async unlink(id, o) {
      const r = await unlinkTasks(contexts.for(o), { tasks: [id] });
      return taskSummaryView(r.changed[0]!, r.refs);
    },
    label: async (id, labels, o) => summary(await labelTask(contexts.for(o), { id, labels: ids(labels) })),
    unlabel: async (id, labels, o) => summary(await unlabelTask(contexts.for(o), { id, labels: ids(labels) })),
    ac: async (id, text, o) => summary(await addCriterion(contexts.for(o), { id, text })),
    check: async (id, n, o) => summary(await markTaskCriterion(contexts.for(o), { id, n: String(n), done: true })),
    uncheck: async (id, n, o) => summary(await markTaskCriterion(contexts.for(o), { id, n: String(n), done: false })),
    priority: async (id, p, o) =>
      summary(await setTaskPriority(contexts.for(o), { id, priority: parsePriority(p, "priority") })),
    edit: async (id, o) =>
      summary(
        await editTaskFields(
          contexts.for(o),
          defined({
            id,
            title: o.title,
            description: o.description,
            role: o.role === undefined ? undefined : parseTaskRole(o.role, "role"),
          }),
        ),
      ),
  };
}
