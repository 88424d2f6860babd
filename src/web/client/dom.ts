// Every record text reaches the page as a text node or an attribute value set through the DOM:
// never parsed as markup, so a title like `<img onerror=…>` is shown, not run (the CSP forbids inline
// script as well).

type Attr = string | number | boolean | undefined | null | ((e: Event) => void);
export type Child = Node | string | number | null | undefined | false;

function fill(el: Element, attrs: Record<string, Attr>, children: Child[]): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else el.setAttribute(k === "className" ? "class" : k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** An HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, Attr> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  fill(el, attrs, children);
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element; its text, like HTML's, only through text nodes. */
export function s(tag: string, attrs: Record<string, Attr> = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG, tag) as SVGElement;
  fill(el, attrs, children);
  return el;
}

/** A link to a view of this page (ids are encoded: they come from the state). */
export function link(route: string, ...children: Child[]): HTMLAnchorElement {
  return h("a", { href: `#/${route}` }, ...children);
}

export function taskLink(id: string, ...children: Child[]): HTMLAnchorElement {
  return link(`task/${encodeURIComponent(id)}`, ...(children.length > 0 ? children : [id]));
}

export function badge(text: string, kind = text): HTMLSpanElement {
  return h("span", { class: `badge b-${kind.toLowerCase().replace(/[^a-z-]/g, "")}` }, text);
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** "3 min ago" from an ISO date. */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

/** Appends children, skipping the absent ones (`cond ? el : null`). */
export function add(parent: Element, ...children: Child[]): void {
  fill(parent, {}, children);
}
