import { ContextFactory } from "../api/api-context.js";
import { createPantheon, type Pantheon } from "../api/open-pantheon.js";
import { PantheonError, UsageError } from "../errors.js";
import { graphView } from "../render/graph-view.js";
import { chartHistory, type EventMemo } from "../services/history-charts.js";
import { dependencyGraph } from "../services/task-graph.js";

/** A JSON document as `--json` prints it: `{"schemaVersion":1,"kind":…,"data":…}`. */
export interface Answer {
  status: number;
  doc: unknown;
}

type Route = (q: URLSearchParams, id: string | undefined) => Promise<{ kind: string; data: unknown }>;

/**
 * The read-only API the page calls: each route is the CLI command's service through
 * pantheon/api (the same parsers, services and views), so `/api/tasks` is `task list --json`.
 */
export function webRoutes(cwd: string, env: NodeJS.ProcessEnv): (path: string, q: URLSearchParams) => Promise<Answer> {
  // Reads only: no actor is needed, and a persona's environment must not make this one.
  const o = { cwd, env, onWarning: () => {} };
  const p: Pantheon = createPantheon(o);
  const contexts = new ContextFactory(o);
  const memo: EventMemo = { tip: null, events: [] };
  const opt = (q: URLSearchParams, k: string) => q.get(k) ?? undefined;
  const many = (q: URLSearchParams, k: string) => (q.getAll(k).length > 0 ? q.getAll(k).flatMap((v) => v.split(",")) : undefined);
  const num = (q: URLSearchParams, k: string) => {
    const v = q.get(k);
    if (v === null) return undefined;
    if (!/^\d{1,9}$/.test(v)) throw new UsageError(`${k} must be a whole number`, `for example: ?${k}=50`);
    return Number(v);
  };
  const routes: Record<string, Route> = {
    dashboard: async () => ({ kind: "dashboard", data: await p.dashboard() }),
    tasks: async (q, id) => {
      if (id !== undefined) return { kind: "task", data: await p.tasks.show(id) };
      const data = await p.tasks.list({
        status: many(q, "status") as never, role: many(q, "role") as never, priority: many(q, "priority") as never,
        epic: opt(q, "epic"), claimedBy: opt(q, "claimedBy"), blocked: q.has("blocked"), ready: q.has("ready"), limit: num(q, "limit"), offset: num(q, "offset"),
      });
      return { kind: "tasks", data };
    },
    history: async (_q, id) => ({ kind: "history", data: await p.tasks.history(required(id, "a task id")) }),
    search: async (q) => ({ kind: "tasks", data: await p.tasks.search(required(opt(q, "q"), "words"), { limit: num(q, "limit") ?? 200 }) }),
    epics: async (_q, id) => (id !== undefined ? { kind: "epic", data: await p.epics.show(id) } : { kind: "epics", data: await p.epics.list() }),
    reviews: async (q) => ({ kind: "reviews", data: await p.reviews.list({ status: many(q, "status") as never }) }),
    graph: async (q) => {
      const r = q.has("epic") ? { epic: q.get("epic")! } : q.has("task") ? { task: q.get("task")! } : { blocked: true as const };
      return { kind: "graph", data: graphView(await dependencyGraph(contexts.for(), r)) };
    },
    charts: async (q) => ({ kind: "charts", data: await chartHistory(contexts.for(), { epic: opt(q, "epic") }, memo) }),
  };
  return async (path, q) => {
    // /api/<route>[/<id>] and /api/tasks/<id>/history.
    const parts = path.split("/").slice(2).map(decodeURIComponent);
    const [name, id, sub] = parts;
    const route = name === "tasks" && sub === "history" ? routes.history : parts.length <= 2 && name !== "history" ? routes[name ?? ""] : undefined;
    if (!route || (parts.length === 2 && !["tasks", "epics"].includes(name!))) return { status: 404, doc: { error: { code: "E_WEB_ROUTE", message: `No such page: ${path.slice(0, 80)}`, hint: "the dashboard's API is under /api/ (dashboard, tasks, epics, reviews, graph, charts)" } } };
    try {
      const { kind, data } = await route(q, id);
      return { status: 200, doc: { schemaVersion: 1, kind, data } };
    } catch (e) {
      if (!(e instanceof PantheonError)) throw e;
      // An id in the path that names nothing, or is no id at all, is a page that does not exist.
      const status = e.code === "E_NOT_FOUND" || (e.exitCode === 2 && id !== undefined) ? 404 : e.exitCode === 2 ? 400 : e.exitCode === 3 ? 503 : 500;
      return { status, doc: { error: { code: e.code, message: e.message, hint: e.hint ?? null } } };
    }
  };
}

function required(v: string | undefined, what: string): string {
  if (v === undefined || v.trim() === "") throw new UsageError(`This needs ${what}`, "see docs/web.md for the API");
  return v;
}
