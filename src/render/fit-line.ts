import { displayWidth, escapeText, truncate } from "./escape.js";
import type { Style } from "./paint.js";

/** A piece of a line: text from records is escaped; `color` is applied after fitting. */
export type Segment = string | { text: string; color?: ((s: string) => string) | undefined; raw?: boolean };

/**
 * Joins segments into one line no wider than the terminal: the last segment (usually a title)
 * is cut with `…`. Piped output is not cut.
 */
export function fitLine(style: Style, segments: Segment[]): string {
  const parts = segments.map((s) => (typeof s === "string" ? { text: escapeText(s), color: undefined, raw: false } : { ...s, text: s.raw ? s.text : escapeText(s.text) }));
  if (style.tty) {
    const fixed = parts.slice(0, -1).reduce((w, p) => w + (p.raw ? displayWidth(p.text.replace(/\u001b\[[0-9;]*m/g, "")) : displayWidth(p.text)), 0);
    const last = parts.at(-1);
    if (last && !last.raw) last.text = truncate(last.text, Math.max(1, style.width - fixed));
  }
  return parts.map((p) => (p.color ? p.color(p.text) : p.text)).join("");
}
