import { parsePriority } from "../domain/priority.js";
import { parseTaskRole } from "../domain/roles.js";
import type { Report } from "../domain/task-questions.js";
import { parseTaskStatus } from "../domain/task-status.js";
import { parseLabels } from "../domain/labels.js";
import { nextView, searchResultView, type NextView, type SearchResultView } from "../render/question-views.js";
import {
  planView,
  taskDetailView,
  taskSummaryView,
  type PlanView,
  type TaskDetailView,
  type TaskSummaryView,
} from "../render/task-view.js";
import { listBlocked, myTasks, nextForRole, prereqsOf, reportTasks, search } from "../services/views/ask-tasks.js";
import { listTasks, showTask } from "../services/views/read-tasks.js";
import { taskHistory, type HistoryEvent } from "../services/views/task-history.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import {
  defined,
  oneOrMany,
  wholeNumber,
  type PriorityInput,
  type TaskRoleInput,
  type TaskStatusInput,
} from "./inputs.js";

export interface TaskFilterInput extends CallOptions {
  status?: TaskStatusInput | TaskStatusInput[];
  role?: TaskRoleInput | TaskRoleInput[];
  priority?: PriorityInput | PriorityInput[];
  /** Tasks of this epic (`EPC-H-0001` or its number). */
  epic?: string;
  claimedBy?: string;
  /** Open tasks with an unfinished dependency. */
  blocked?: boolean;
  /** TODO or READY tasks with nothing blocking them. */
  ready?: boolean;
  /** Tasks carrying every one of these labels. */
  label?: string | string[];
  limit?: number;
  offset?: number;
}

/** The questions of DESIGN §1.5 about tasks; each returns what `--json` carries as `data`. */
export interface TaskQuestions {
  /** `task show`: the task with its notes, former ids and what the actor may do with it. */
  show(id: string, o?: CallOptions): Promise<TaskDetailView>;
  /** `task list`: every match by number (or a page with `limit`/`offset`). */
  list(filters?: TaskFilterInput): Promise<TaskSummaryView[]>;
  /** `task search`: ranked full-text search over titles, descriptions and notes. */
  search(words: string, o?: CallOptions & { limit?: number }): Promise<SearchResultView[]>;
  /** `task next`: ready tasks of a role (default: the actor's mission's) by priority then age. */
  next(o?: CallOptions & { role?: TaskRoleInput; count?: number; label?: string | string[] }): Promise<NextView[]>;
  /** `task report`: counts per status and the completion rate. */
  report(o?: CallOptions): Promise<Report>;
  /** `task blocked`: open tasks with unfinished dependencies. */
  blocked(o?: CallOptions): Promise<TaskSummaryView[]>;
  /** `task mine`: the actor's live claims. */
  mine(o?: CallOptions): Promise<TaskSummaryView[]>;
  /**
   * `task prereqs`: everything unfinished the goal depends on, in an order that can be worked; the
   * goal is a task, or an epic (`EPC-H-0001`: its open tasks and everything they wait on).
   */
  prereqs(id: string, o?: CallOptions): Promise<TaskSummaryView[]>;
  /** `task history`: the task's changes from the commit log. */
  history(id: string, o?: CallOptions): Promise<HistoryEvent[]>;
  /** `task plan`: writes (or finds) `.pantheon/planning/<id>.md`. */
  plan(id: string, o?: CallOptions): Promise<PlanView>;
}

/** A label filter as given: one or several, parsed as the CLI parses `--label`. */
function labelsOf(value: string | string[] | undefined): string[] | undefined {
  return value === undefined ? undefined : parseLabels(typeof value === "string" ? [value] : value);
}

export function taskQuestions(contexts: ContextFactory): TaskQuestions {
  return {
    async show(id, o) {
      const r = await showTask(contexts.for(o), id);
      return taskDetailView(r.task, r.refs, r.allowedActions);
    },
    async list(f = {}) {
      const page = await listTasks(
        contexts.for(f),
        defined({
          status: oneOrMany(f.status, (s) => parseTaskStatus(s, "status")),
          role: oneOrMany(f.role, (r) => parseTaskRole(r, "role")),
          priority: oneOrMany(f.priority, (p) => parsePriority(p, "priority")),
          epic: f.epic,
          claimedBy: f.claimedBy,
          blocked: f.blocked || undefined,
          ready: f.ready || undefined,
          label: labelsOf(f.label),
          limit: wholeNumber(f.limit, "limit", 1),
          offset: wholeNumber(f.offset, "offset"),
        }),
      );
      return page.tasks.map((t) => taskSummaryView(t, page.refs));
    },
    async search(words, o = {}) {
      const r = await search(contexts.for(o), defined({ words, limit: wholeNumber(o.limit, "limit", 1) }));
      return r.tasks.map((t, i) => searchResultView(t, r.refs, r.scores[i]!));
    },
    async next(o = {}) {
      const ctx = contexts.for(o);
      const r = await nextForRole(
        ctx,
        defined({
          role: o.role === undefined ? undefined : parseTaskRole(o.role, "role"),
          count: wholeNumber(o.count, "count", 1),
          label: labelsOf(o.label),
        }),
      );
      const now = ctx.now();
      return r.tasks.map((t) => nextView(t, r.refs, now, r.handoffs.get(t.number) ?? null));
    },
    report: async (o) => reportTasks(contexts.for(o)),
    async blocked(o) {
      const r = await listBlocked(contexts.for(o));
      return r.tasks.map((t) => taskSummaryView(t, r.refs));
    },
    async mine(o) {
      const r = await myTasks(contexts.for(o));
      return r.tasks.map((t) => taskSummaryView(t, r.refs));
    },
    async prereqs(id, o) {
      const r = await prereqsOf(contexts.for(o), id);
      return r.tasks.map((t) => taskSummaryView(t, r.refs));
    },
    async history(id, o) {
      return (await taskHistory(contexts.for(o), id)).events;
    },
    async plan(id, o) {
      // Loaded on first use, as the CLI does: the planning template and the file system.
      const { planTask } = await import("../services/work/task-plan.js");
      return planView(await planTask(contexts.for(o), id));
    },
  };
}
