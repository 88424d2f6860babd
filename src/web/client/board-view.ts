import { get, query } from "./api.js";
import { add, badge, h, taskLink } from "./dom.js";
import type { EpicView, SearchResultView, TaskSummaryView } from "./types.js";

const STATUSES = ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED", "COMPLETE", "ABORTED"] as const;
const ROLES = ["architect", "engineer", "tester", "documentarian", "inspector", "operator"];
const PRIORITIES = ["CRITICAL", "HIGH", "MEDIUM", "LOW"];
/** Cards drawn per column at first: at 10,000 tasks the counts come at once, the cards a page at a time. */
export const PAGE = 50;

/** How many cards each column shows, kept across live refreshes. */
const shown = new Map<string, number>();

/** `2/3`: the task's acceptance criteria checked of all, marked done when every one is. */
function progress(t: TaskSummaryView): HTMLElement | null {
  const total = t.acceptance.length;
  if (total === 0) return null;
  const done = t.acceptance.filter((c) => c.done).length;
  return h(
    "span",
    {
      class: `progress${done === total ? " all-done" : ""}`,
      title: `acceptance criteria: ${done} of ${total} checked`,
    },
    `${done}/${total}`,
  );
}

function card(t: TaskSummaryView): HTMLElement {
  return h(
    "div",
    {
      class: `task-card${t.blockedBy.length > 0 && t.status !== "COMPLETE" && t.status !== "ABORTED" ? " blocked" : ""}`,
      "data-task": t.id,
    },
    h("div", {}, taskLink(t.id), " ", badge(t.priority), " ", progress(t)),
    h("div", { class: "title" }, t.title),
    t.labels.length > 0
      ? h("div", { class: "labels" }, ...t.labels.map((l) => h("span", { class: "label" }, l)))
      : null,
    h(
      "div",
      { class: "muted small" },
      t.role,
      t.claimedBy ? ` · ${t.claimedBy}` : "",
      t.epic ? ` · ${t.epic}` : "",
      t.blockedBy.length > 0 ? ` · waits on ${t.blockedBy.join(", ")}` : "",
    ),
  );
}

function column(status: string, tasks: TaskSummaryView[], redraw: () => void): HTMLElement {
  const n = shown.get(status) ?? PAGE;
  const more = tasks.length - n;
  return h(
    "section",
    { class: "column", "data-status": status },
    h("h2", {}, badge(status), " ", h("span", { class: "col-count" }, String(tasks.length))),
    ...tasks.slice(0, n).map(card),
    more > 0
      ? h(
          "button",
          { class: "more", type: "button", onclick: () => (shown.set(status, n + PAGE), redraw()) },
          `Show ${Math.min(PAGE, more)} more (${more} not shown)`,
        )
      : null,
  );
}

function select(
  name: string,
  value: string | undefined,
  options: string[],
  onChange: (v: string) => void,
): HTMLElement {
  const el = h(
    "select",
    { name, "aria-label": name, onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
    h("option", { value: "" }, `any ${name}`),
    ...options.map((o) => h("option", { value: o, selected: o === value }, o)),
  );
  return el;
}

/** The tasks as a board by status, with filters (role, priority, epic, label, claimant) and full-text search. */
export async function boardView(
  root: HTMLElement,
  params: URLSearchParams,
  navigate: (p: URLSearchParams) => void,
): Promise<void> {
  const f = (k: string) => params.get(k) ?? undefined;
  const words = f("q");
  const [tasks, epics, found] = await Promise.all([
    get<TaskSummaryView[]>(
      `tasks${query({ role: f("role"), priority: f("priority"), epic: f("epic"), label: f("label"), claimedBy: f("claimedBy") })}`,
    ),
    get<EpicView[]>("epics"),
    words ? get<SearchResultView[]>(`search${query({ q: words, limit: "1000" })}`) : Promise.resolve(null),
  ]);
  const hits = found ? new Set(found.map((t) => t.id)) : null;
  // The labels of the tasks shown (with a label chosen, those that go with it), and the chosen one.
  const labels = [...new Set([...tasks.flatMap((t) => t.labels), ...(f("label") ? [f("label")!] : [])])].sort();
  const list = hits ? tasks.filter((t) => hits.has(t.id)) : tasks;
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v === "") next.delete(k);
    else next.set(k, v);
    shown.clear();
    navigate(next);
  };
  const search = h("input", {
    type: "search",
    name: "q",
    placeholder: "search titles, labels, notes…",
    value: words ?? "",
  });
  const form = h(
    "form",
    { class: "filters", role: "search", onsubmit: (e: Event) => (e.preventDefault(), set("q", search.value.trim())) },
    search,
    h("button", { type: "submit" }, "Search"),
    select("role", f("role"), ROLES, (v) => set("role", v)),
    select("priority", f("priority"), PRIORITIES, (v) => set("priority", v)),
    select(
      "epic",
      f("epic"),
      epics.map((e) => e.id),
      (v) => set("epic", v),
    ),
    select("label", f("label"), labels, (v) => set("label", v)),
    h("input", {
      type: "text",
      name: "claimedBy",
      placeholder: "claimed by",
      value: f("claimedBy") ?? "",
      onchange: (e: Event) => set("claimedBy", (e.target as HTMLInputElement).value.trim()),
    }),
  );
  const byStatus = new Map<string, TaskSummaryView[]>(STATUSES.map((s) => [s, []]));
  for (const t of list) byStatus.get(t.status)?.push(t);
  const board = h("div", { class: "board" });
  const draw = () => board.replaceChildren(...STATUSES.map((s) => column(s, byStatus.get(s)!, draw)));
  draw();
  add(
    root,
    h(
      "h1",
      {},
      "Board ",
      h(
        "span",
        { class: "muted" },
        `${list.length} task${list.length === 1 ? "" : "s"}${hits ? ` matching "${words}"` : ""}`,
      ),
    ),
    form,
    board,
  );
}
