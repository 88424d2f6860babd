import { get } from "./api.js";
import { add, ago, badge, h, link, taskLink } from "./dom.js";
import type { HistoryEvent, ReviewView, TaskDetailView } from "./types.js";

const ids = (list: string[]) =>
  list.length === 0
    ? h("span", { class: "muted" }, "none")
    : h("span", {}, ...list.flatMap((id, i) => [i > 0 ? ", " : "", taskLink(id)]));

/** One task: its fields, description, notes, reviews and its history from the commit log. */
export async function taskView(root: HTMLElement, id: string): Promise<void> {
  const path = encodeURIComponent(id);
  const [t, history, reviews] = await Promise.all([
    get<TaskDetailView>(`tasks/${path}`),
    get<HistoryEvent[]>(`tasks/${path}/history`),
    get<ReviewView[]>("reviews"),
  ]);
  const mine = reviews.filter((r) => r.task === t.id);
  const row = (k: string, v: Node | string) => h("tr", {}, h("th", {}, k), h("td", {}, v));
  add(
    root,
    h("h1", {}, t.id, " ", badge(t.status), " ", h("span", { class: "title" }, t.title)),
    h(
      "table",
      { class: "fields" },
      row("role", t.role),
      row("priority", t.priority),
      row(
        "labels",
        t.labels.length === 0
          ? h("span", { class: "muted" }, "none")
          : h(
              "span",
              { class: "labels" },
              ...t.labels.map((l) => link(`board?label=${encodeURIComponent(l)}`, h("span", { class: "label" }, l))),
            ),
      ),
      row("claimed by", t.claimedBy ?? "—"),
      row("mission", t.mission ?? "—"),
      row("epic", t.epic ? link(`board?epic=${encodeURIComponent(t.epic)}`, t.epic) : "—"),
      row("depends on", ids(t.dependencies)),
      row("blocked by", ids(t.blockedBy)),
      row("waiting on review", ids(t.waitingOnReview)),
      row("completed by", t.completedBy ?? "—"),
      row("created", `${t.createdAt} (${ago(t.createdAt)})`),
      row("former ids", t.formerIds.join(", ") || "—"),
    ),
    h("div", { class: "links" }, link(`graph?task=${path}`, "dependency graph around it")),
    h("h2", {}, "Description"),
    h("pre", { class: "text" }, t.description || "(none)"),
    h("h2", {}, `Acceptance criteria (${t.acceptance.filter((c) => c.done).length}/${t.acceptance.length})`),
    t.acceptance.length === 0
      ? h("p", { class: "muted" }, "none")
      : h(
          "ol",
          { class: "criteria" },
          ...t.acceptance.map((c) =>
            h("li", { class: c.done ? "done" : "open" }, h("span", { class: "mark" }, c.done ? "☑ " : "☐ "), c.text),
          ),
        ),
    h("h2", {}, `Notes (${t.notes.length})`),
    t.notes.length === 0
      ? h("p", { class: "muted" }, "none")
      : h(
          "ul",
          { class: "notes" },
          ...t.notes.map((n) =>
            h(
              "li",
              {},
              h("div", { class: "muted small" }, `${n.kind} · ${n.by} · ${n.at}`),
              h("pre", { class: "text" }, n.text),
            ),
          ),
        ),
    h("h2", {}, `Reviews (${mine.length})`),
    mine.length === 0
      ? h("p", { class: "muted" }, "none")
      : h(
          "ul",
          {},
          ...mine.map((r) =>
            h(
              "li",
              {},
              `${r.id} `,
              badge(r.status),
              ` ${r.type}: `,
              r.title,
              r.reason ? h("div", { class: "small" }, `reason: ${r.reason}`) : null,
            ),
          ),
        ),
    h("h2", {}, `History (${history.length} commits)`),
    h(
      "ol",
      { class: "history" },
      ...history.map((e) =>
        h(
          "li",
          {},
          h("div", { class: "muted small" }, `${e.date} · ${e.actor} · ${e.op} · ${e.commit.slice(0, 10)}`),
          h("ul", {}, ...e.changes.map((c) => h("li", {}, c))),
        ),
      ),
    ),
  );
}
