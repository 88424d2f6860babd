import { get } from "./api.js";
import { add, ago, badge, h, link, taskLink } from "./dom.js";
import type { DashboardView } from "./types.js";

type Mission = DashboardView["missions"][number];

/** What the live state means, for a Director glancing at it. */
const LIVE_WORDS: Record<string, string> = {
  starting: "starting",
  working: "working",
  "needs-input": "needs your input",
  idle: "idle: waiting for you",
  stalled: "stalled",
  ended: "ended",
};

function personaCard(m: Mission): HTMLElement {
  const live = m.live;
  return h(
    "article",
    { class: `card persona live-${live?.state ?? "unknown"}`, "data-mission": m.id },
    h(
      "header",
      {},
      h("strong", {}, m.persona),
      " ",
      h("span", { class: "muted" }, m.role),
      " ",
      badge(live ? (LIVE_WORDS[live.state] ?? live.state) : "no live state here", live?.state ?? "unknown"),
    ),
    h(
      "div",
      { class: "muted small" },
      `${m.id} · ${m.codename}`,
      m.assistant ? ` · ${m.assistant}` : "",
      ` · started ${ago(m.startedAt)}`,
    ),
    live
      ? h("div", { class: "small" }, `since ${ago(live.since)}: ${live.detail}`)
      : h("div", { class: "small muted" }, "not summoned from this clone (or by /summon): no session to watch"),
    m.objective ? h("p", { class: "objective" }, m.objective) : null,
    m.claims.length > 0
      ? h(
          "ul",
          { class: "claims" },
          ...m.claims.map((t) => h("li", {}, taskLink(t.id), " ", t.title, " ", badge(t.status))),
        )
      : h("div", { class: "muted small" }, "holds no task"),
  );
}

/** Personas with their live state and what each holds; the counts, reviews and recent activity beside them. */
export async function personasView(root: HTMLElement): Promise<void> {
  const d = await get<DashboardView>("dashboard");
  const counts = h(
    "div",
    { class: "counts" },
    ...Object.entries(d.tasks.byStatus).map(([s, n]) => h("span", { class: "count" }, badge(s), ` ${n}`)),
    h("span", { class: "count" }, `${Math.round(d.tasks.completionRate * 100)}% complete of ${d.tasks.total}`),
  );
  add(
    root,
    h("h1", {}, d.project.name, " ", h("span", { class: "muted" }, "personas")),
    counts,
    d.duplicateNames.length > 0
      ? h("p", { class: "warning" }, `Two ACTIVE missions share a name: ${d.duplicateNames.join(", ")}`)
      : null,
    d.missions.length > 0
      ? h("section", { class: "grid" }, ...d.missions.map(personaCard))
      : h("p", { class: "muted" }, "No ACTIVE mission. Start one with pantheon summon or pantheon mission start."),
    h(
      "section",
      { class: "columns2" },
      h(
        "div",
        {},
        h("h2", {}, `Pending reviews (${d.reviews.length})`),
        d.reviews.length === 0
          ? h("p", { class: "muted" }, "none")
          : h(
              "ul",
              {},
              ...d.reviews.map((r) =>
                h(
                  "li",
                  {},
                  `${r.id} `,
                  r.title,
                  r.task ? h("span", {}, " · ", taskLink(r.task)) : null,
                  ` · by ${r.requestedBy}`,
                ),
              ),
            ),
        h("h2", {}, `Blocked (${d.blockedTotal})`),
        d.blocked.length === 0
          ? h("p", { class: "muted" }, "none")
          : h(
              "ul",
              {},
              ...d.blocked.map((t) =>
                h(
                  "li",
                  {},
                  taskLink(t.id),
                  " ",
                  t.title,
                  h("span", { class: "muted" }, ` waits on ${t.blockedBy.join(", ")}`),
                ),
              ),
            ),
        d.blockedTotal > 0 ? link("graph?blocked=1", "see the blocked paths") : null,
      ),
      h(
        "div",
        {},
        h("h2", {}, "Recent activity"),
        h(
          "ul",
          { class: "activity" },
          ...d.recent.map((a) => h("li", {}, h("span", { class: "muted" }, ago(a.date)), " ", a.summary)),
        ),
      ),
    ),
  );
}
