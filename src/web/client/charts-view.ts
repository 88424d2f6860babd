import { get, query } from "./api.js";
import { add, h } from "./dom.js";
import { dayBars, dayLines, rowBars } from "./svg-charts.js";
import type { EpicView, HistoryCharts } from "./types.js";

const hours = (x: number) => (x >= 48 ? `${(x / 24).toFixed(1)} d` : `${x.toFixed(1)} h`);

/** Charts from the ref's history: opened and closed per day, an epic's burn-down, claim-to-COMPLETE per role. */
export async function chartsView(
  root: HTMLElement,
  params: URLSearchParams,
  navigate: (p: URLSearchParams) => void,
): Promise<void> {
  const epic = params.get("epic") ?? undefined;
  const [c, epics] = await Promise.all([
    get<HistoryCharts & { epic: string | null }>(`charts${query({ epic })}`),
    get<EpicView[]>("epics"),
  ]);
  const pickEpic = h(
    "select",
    {
      name: "epic",
      "aria-label": "epic",
      onchange: (e: Event) =>
        navigate(
          new URLSearchParams(
            (e.target as HTMLSelectElement).value ? { epic: (e.target as HTMLSelectElement).value } : {},
          ),
        ),
    },
    h("option", { value: "" }, "burn-down of an epic…"),
    ...epics.map((x) => h("option", { value: x.id, selected: x.id === c.epic }, `${x.id} ${x.title.slice(0, 50)}`)),
  );
  add(
    root,
    h("h1", {}, "Charts ", h("span", { class: "muted" }, "from the history of refs/coordination/main")),
    h("h2", {}, "Tasks opened and closed per day"),
    c.perDay.length === 0
      ? h("p", { class: "muted" }, "No task yet.")
      : h(
          "div",
          { class: "chart-wrap" },
          dayBars(
            c.perDay.map((d) => ({ day: d.day, a: d.opened, b: d.closed })),
            ["opened", "closed"],
          ),
        ),
    c.daysOmitted > 0 ? h("p", { class: "muted small" }, `${c.daysOmitted} earlier days not drawn`) : null,
    h("h2", {}, "Burn-down"),
    h("form", { class: "filters" }, pickEpic),
    c.burndown === null
      ? h("p", { class: "muted" }, "Pick an epic.")
      : c.burndown.length === 0
        ? h("p", { class: "muted" }, "This epic has no task.")
        : h(
            "div",
            { class: "chart-wrap" },
            dayLines(
              c.burndown.map((p) => p.day),
              [
                { name: "remaining", values: c.burndown.map((p) => p.remaining) },
                { name: "linked", values: c.burndown.map((p) => p.total) },
              ],
            ),
          ),
    h("h2", {}, "Time from claim to COMPLETE, per role"),
    c.cycleTimes.length === 0
      ? h("p", { class: "muted" }, "No task was claimed and completed yet.")
      : h(
          "div",
          { class: "chart-wrap" },
          rowBars(
            c.cycleTimes.map((r) => ({
              label: r.role,
              a: r.medianHours,
              b: r.p90Hours,
              note: `${r.count} task${r.count === 1 ? "" : "s"}, median ${hours(r.medianHours)}`,
            })),
            ["median", "90th percentile"],
          ),
        ),
  );
}
