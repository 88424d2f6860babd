import { ContextFactory } from "../api/api-context.js";
import type { PriorityInput, ReviewStatusInput, TaskRoleInput, TaskStatusInput } from "../api/inputs.js";
import { createPantheon } from "../api/open-pantheon.js";
import { PantheonError, UsageError } from "../errors.js";
import { graphView } from "../render/graph-view.js";
import { chartHistory } from "../services/views/history-charts.js";
import { dependencyGraph } from "../services/views/task-graph.js";

/** A JSON document as `--json` prints it (`{"schemaVersion":1,"kind":…,"data":…}`), or an error document. */
export interface Answer {
  status: number;
  doc: unknown;
}

type Route = (q: URLSearchParams, id: string | undefined) => Promise<{ kind: string; data: unknown }>;

const NO_ROUTE = (path: string): Answer => ({
  status: 404,
  doc: {
    error: {
      code: "E_WEB_ROUTE",
      message: `No such page: ${path.slice(0, 80)}`,
      hint: "the dashboard's API is under /api/ (dashboard, tasks, epics, reviews, search, graph, charts)",
    },
  },
});

/** Values of a repeatable query parameter (`?status=todo&status=ready` or `?status=todo,ready`). */
function many<T extends string>(q: URLSearchParams, k: string): T[] | undefined {
  const all = q.getAll(k).flatMap((v) => v.split(","));
  return all.length > 0 ? (all as T[]) : undefined;
}

function num(q: URLSearchParams, k: string): number | undefined {
  const v = q.get(k);
  if (v === null) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new UsageError(`${k} must be a whole number`, `for example: ?${k}=50`);
  return Number(v);
}

function required(v: string | null, what: string): string {
  if (v === null || v.trim() === "") throw new UsageError(`This needs ${what}`, "see docs/web.md for the API");
  return v;
}

/** `%E0%A4` decodes to nothing: such a path names no page. */
function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * The read-only API the page calls: each route is the CLI command's service through
 * pantheon/api (the same parsers, services and views), so `/api/tasks` is `task list --json`.
 */
export function webRoutes(cwd: string, env: NodeJS.ProcessEnv): (path: string, q: URLSearchParams) => Promise<Answer> {
  // Reads only: no actor is needed, and notices (a stale id letter) have no terminal to go to.
  const o = { cwd, env, onWarning: () => {} };
  const p = createPantheon(o);
  const contexts = new ContextFactory(o);
  const opt = (q: URLSearchParams, k: string) => q.get(k) ?? undefined;
  const list: Record<string, Route> = {
    dashboard: async () => ({ kind: "dashboard", data: await p.dashboard() }),
    tasks: async (q) => ({
      kind: "tasks",
      data: await p.tasks.list({
        status: many<TaskStatusInput>(q, "status"),
        role: many<TaskRoleInput>(q, "role"),
        priority: many<PriorityInput>(q, "priority"),
        epic: opt(q, "epic"),
        claimedBy: opt(q, "claimedBy"),
        blocked: q.has("blocked"),
        ready: q.has("ready"),
        label: many(q, "label"),
        limit: num(q, "limit"),
        offset: num(q, "offset"),
      }),
    }),
    search: async (q) => ({
      kind: "tasks",
      data: await p.tasks.search(required(q.get("q"), "words to search (?q=…)"), { limit: num(q, "limit") ?? 200 }),
    }),
    epics: async () => ({ kind: "epics", data: await p.epics.list() }),
    reviews: async (q) => ({
      kind: "reviews",
      data: await p.reviews.list({ status: many<ReviewStatusInput>(q, "status") }),
    }),
    graph: async (q) => {
      const r = q.has("epic")
        ? { epic: q.get("epic")! }
        : q.has("task")
          ? { task: q.get("task")! }
          : { blocked: true as const };
      return { kind: "graph", data: graphView(await dependencyGraph(contexts.for(), r)) };
    },
    charts: async (q) => ({ kind: "charts", data: await chartHistory(contexts.for(), { epic: opt(q, "epic") }) }),
  };
  const one: Record<string, Route> = {
    tasks: async (_q, id) => ({ kind: "task", data: await p.tasks.show(id!) }),
    epics: async (_q, id) => ({ kind: "epic", data: await p.epics.show(id!) }),
  };
  const history: Route = async (_q, id) => ({ kind: "history", data: await p.tasks.history(id!) });

  /** /api/<name>, /api/<tasks|epics>/<id>, /api/tasks/<id>/history; own keys only (never `constructor`). */
  const match = (parts: Array<string | null>): { route: Route; id: string | undefined } | null => {
    if (parts.some((x) => x === null || x === "")) return null;
    const [name, id, sub] = parts as string[];
    if (parts.length === 1 && Object.hasOwn(list, name!)) return { route: list[name!]!, id: undefined };
    if (parts.length === 2 && Object.hasOwn(one, name!)) return { route: one[name!]!, id };
    if (parts.length === 3 && name === "tasks" && sub === "history") return { route: history, id };
    return null;
  };

  return async (path, q) => {
    const found = match(path.split("/").slice(2).map(decode));
    if (!found) return NO_ROUTE(path);
    try {
      const { kind, data } = await found.route(q, found.id);
      return { status: 200, doc: { schemaVersion: 1, kind, data } };
    } catch (e) {
      if (!(e instanceof PantheonError)) throw e;
      // An id in the path that names nothing, or is no id at all, is a page that does not exist.
      const status =
        e.code === "E_NOT_FOUND" || (e.exitCode === 2 && found.id !== undefined)
          ? 404
          : e.exitCode === 2
            ? 400
            : e.exitCode === 3
              ? 503
              : 500;
      return { status, doc: { error: { code: e.code, message: e.message, hint: e.hint ?? null } } };
    }
  };
}
