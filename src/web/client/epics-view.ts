import { get } from "./api.js";
import { add, badge, h, link } from "./dom.js";
import type { EpicView } from "./types.js";

export function progressBar(percent: number): HTMLElement {
  const fill = h("div", { class: "fill" });
  fill.style.width = `${Math.max(0, Math.min(100, percent))}%`; // CSSOM, which the CSP allows (no style attribute)
  return h("div", { class: "bar", role: "progressbar", "aria-valuenow": percent }, fill);
}

/** Every epic with its derived status and progress. */
export async function epicsView(root: HTMLElement): Promise<void> {
  const epics = await get<EpicView[]>("epics");
  add(
    root,
    h("h1", {}, "Epics"),
    epics.length === 0
      ? h("p", { class: "muted" }, "No epic yet: pantheon epic create --title …")
      : h(
          "section",
          { class: "grid" },
          ...epics.map((e) =>
            h(
              "article",
              { class: "card epic", "data-epic": e.id },
              h("header", {}, h("strong", {}, e.title), " ", badge(e.status)),
              h("div", { class: "muted small" }, `${e.id} · ${e.priority}`),
              progressBar(e.progress.percent),
              h(
                "div",
                { class: "small" },
                `${e.progress.complete} of ${e.progress.total} complete (${e.progress.percent}%)`,
              ),
              e.aborted ? h("p", { class: "warning" }, `aborted: ${e.aborted}`) : null,
              h(
                "div",
                { class: "links" },
                link(`board?epic=${encodeURIComponent(e.id)}`, "board"),
                " · ",
                link(`graph?epic=${encodeURIComponent(e.id)}`, "graph"),
                " · ",
                link(`charts?epic=${encodeURIComponent(e.id)}`, "burn-down"),
              ),
            ),
          ),
        ),
  );
}
