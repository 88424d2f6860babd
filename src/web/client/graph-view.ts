import { graphlib, layout } from "@dagrejs/dagre";
import { get, query } from "./api.js";
import { add, h, s } from "./dom.js";
import type { EpicView, GraphView } from "./types.js";

const [W, H] = [170, 46];

/** Title text cut to what fits a node; the whole title is the node's tooltip. */
const short = (t: string, n = 24) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/** Lays the graph out with dagre (dependencies below what needs them) and draws it as SVG. */
function draw(g: GraphView, open: (id: string) => void): SVGElement {
  const graph = new graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 48, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const n of g.nodes) graph.setNode(n.id, { width: W, height: H });
  for (const e of g.edges) graph.setEdge(e.from, e.to);
  layout(graph);
  const size = graph.graph();
  const svg = s("svg", {
    class: "graph",
    width: Math.ceil(size.width ?? 0),
    height: Math.ceil(size.height ?? 0),
    viewBox: `0 0 ${Math.ceil(size.width ?? 0)} ${Math.ceil(size.height ?? 0)}`,
    role: "img",
    "aria-label": "dependency graph",
  });
  svg.append(
    s(
      "defs",
      {},
      s(
        "marker",
        {
          id: "arrow",
          viewBox: "0 0 10 10",
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: "auto-start-reverse",
        },
        s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }),
      ),
    ),
  );
  for (const e of g.edges) {
    const pts: Array<{ x: number; y: number }> =
      (graph.edge(e.from, e.to) as { points?: Array<{ x: number; y: number }> } | undefined)?.points ?? [];
    const d = pts.map((p, i) => `${i === 0 ? "M" : "L"} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
    svg.append(
      s(
        "path",
        { d, class: `edge${e.blocking ? " blocking" : ""}`, "marker-end": "url(#arrow)" },
        s("title", {}, `${e.from} depends on ${e.to}${e.blocking ? " (blocks it)" : ""}`),
      ),
    );
  }
  for (const n of g.nodes) {
    const p = graph.node(n.id);
    const x = p.x - W / 2;
    const y = p.y - H / 2;
    svg.append(
      s(
        "g",
        {
          class: `node s-${n.status.toLowerCase()}${n.blocked ? " blocked" : ""}`,
          transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
          tabindex: 0,
          "data-task": n.id,
          onclick: () => open(n.id),
          onkeydown: (ev: Event) => (ev as KeyboardEvent).key === "Enter" && open(n.id),
        },
        s("title", {}, `${n.id} ${n.title} [${n.status}]${n.blocked ? ` blocked by ${n.blockedBy.join(", ")}` : ""}`),
        s("rect", { width: W, height: H, rx: 6 }),
        s("text", { x: 8, y: 18, class: "nid" }, `${n.id} · ${n.status}`),
        s("text", { x: 8, y: 36 }, short(n.title)),
      ),
    );
  }
  return svg;
}

/** The dependency graph of an epic, around a task, or of the blocked paths; blocked paths in red. */
export async function graphView(
  root: HTMLElement,
  params: URLSearchParams,
  navigate: (p: URLSearchParams) => void,
  open: (id: string) => void,
): Promise<void> {
  const epic = params.get("epic") ?? undefined;
  const task = params.get("task") ?? undefined;
  const [g, epics] = await Promise.all([get<GraphView>(`graph${query({ epic, task })}`), get<EpicView[]>("epics")]);
  const pick = (k: string, v: string) => navigate(new URLSearchParams(v === "" ? {} : { [k]: v }));
  const taskInput = h("input", {
    type: "text",
    name: "task",
    placeholder: "around task (ENG-H-0007)",
    value: task ?? "",
  });
  const controls = h(
    "form",
    { class: "filters", onsubmit: (e: Event) => (e.preventDefault(), pick("task", taskInput.value.trim())) },
    h(
      "button",
      { type: "button", class: g.scope.kind === "blocked" ? "on" : "", onclick: () => pick("blocked", "1") },
      "blocked paths",
    ),
    h(
      "select",
      {
        name: "epic",
        "aria-label": "epic",
        onchange: (e: Event) => pick("epic", (e.target as HTMLSelectElement).value),
      },
      h("option", { value: "" }, "an epic…"),
      ...epics.map((x) => h("option", { value: x.id, selected: x.id === g.scope.id }, `${x.id} ${short(x.title, 40)}`)),
    ),
    taskInput,
  );
  const what =
    g.scope.kind === "blocked"
      ? "Blocked paths"
      : g.scope.kind === "epic"
        ? `Epic ${g.scope.id}`
        : `Around ${g.scope.id}`;
  add(
    root,
    h("h1", {}, "Dependency graph ", h("span", { class: "muted" }, what)),
    controls,
    h(
      "p",
      { class: g.omitted > 0 ? "warning" : "muted small" },
      g.omitted > 0
        ? `Showing ${g.nodes.length} of ${g.total} tasks: ${g.omitted} left out (the nearest are drawn). Narrow it: an epic, or the graph around one task.`
        : `${g.nodes.length} task${g.nodes.length === 1 ? "" : "s"}, ${g.edges.length} dependenc${g.edges.length === 1 ? "y" : "ies"}. Arrows point to what a task depends on; red: a dependency that blocks.`,
    ),
    g.nodes.length === 0
      ? h("p", { class: "muted" }, g.scope.kind === "blocked" ? "Nothing is blocked." : "No task here.")
      : h("div", { class: "graph-wrap" }, draw(g, open)),
  );
}
