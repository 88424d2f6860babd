import { ApiError } from "./api.js";
import { boardView } from "./board-view.js";
import { chartsView } from "./charts-view.js";
import { add, clear, h } from "./dom.js";
import { epicsView } from "./epics-view.js";
import { graphView } from "./graph-view.js";
import { personasView } from "./personas-view.js";
import { taskView } from "./task-view.js";

const NAV = [
  ["personas", "Personas"],
  ["epics", "Epics"],
  ["board", "Board"],
  ["graph", "Graph"],
  ["charts", "Charts"],
] as const;

const main = document.getElementById("main")!;
const status = document.getElementById("live")!;

function route(): { name: string; arg: string | undefined; params: URLSearchParams } {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, q] = [raw.split("?")[0] ?? "", raw.split("?").slice(1).join("?")];
  const [name, ...rest] = path.split("/");
  return {
    name: name || "personas",
    arg: rest.length > 0 ? decodeURIComponent(rest.join("/")) : undefined,
    params: new URLSearchParams(q),
  };
}

function navigate(name: string, params: URLSearchParams): void {
  const q = params.toString();
  location.hash = `#/${name}${q ? `?${q}` : ""}`;
}

let drawing = 0;
let firstDone = false;

/** Draws the current view afresh (a route change or a change of the state). */
async function render(): Promise<void> {
  const mine = ++drawing;
  const r = route();
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("on", a.getAttribute("data-view") === (r.name === "task" ? "board" : r.name));
  const next = h("div", { class: "view", "data-view": r.name });
  const go = (p: URLSearchParams) => navigate(r.name, p);
  try {
    if (r.name === "personas") await personasView(next);
    else if (r.name === "epics") await epicsView(next);
    else if (r.name === "board") await boardView(next, r.params, go);
    else if (r.name === "task" && r.arg) await taskView(next, r.arg);
    else if (r.name === "graph")
      await graphView(next, r.params, go, (id) => navigate(`task/${encodeURIComponent(id)}`, new URLSearchParams()));
    else if (r.name === "charts") await chartsView(next, r.params, go);
    else add(next, h("p", { class: "error" }, "No such view."), h("a", { href: "#/personas" }, "back to the personas"));
  } catch (e) {
    add(
      next,
      h("p", { class: "error" }, e instanceof Error ? e.message : String(e)),
      e instanceof ApiError && e.hint ? h("p", { class: "muted" }, `hint: ${e.hint}`) : null,
    );
  }
  if (mine !== drawing) return; // a newer draw started meanwhile
  clear(main);
  main.append(next);
  document.body.dataset.rendered = r.name;
  if (!firstDone) {
    firstDone = true;
    performance.mark("pantheon-first-render");
  }
}

let pending: number | undefined;
/** Changes come in bursts (a claim is a commit, a reflog line, a cache update): one redraw after. */
function soon(): void {
  if (pending !== undefined) return;
  pending = window.setTimeout(() => {
    pending = undefined;
    void render().then(() => (status.textContent = `live · updated ${new Date().toLocaleTimeString()}`));
  }, 60);
}

function listen(): void {
  const es = new EventSource("/api/events");
  es.addEventListener("hello", () => (status.textContent = "live"));
  es.addEventListener("change", soon);
  es.onerror = () => (status.textContent = "reconnecting…");
}

document.getElementById("nav")!.append(...NAV.map(([k, label]) => h("a", { href: `#/${k}`, "data-view": k }, label)));
window.addEventListener("hashchange", () => void render());
listen();
void render();
