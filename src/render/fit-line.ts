import { displayWidth, escapeText, truncate } from "./escape.js";
import type { Style } from "./paint.js";

/** A piece of a line: text from records is escaped; `color` is applied after fitting. */
export type Segment =
  | string
  | { text: string; color?: ((s: string) => string) | undefined; raw?: boolean; flex?: boolean };

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Joins segments into one line no wider than the terminal: the segment marked `flex` (else the
 * last one, usually a title) is cut with `…`. Piped output is not cut.
 */
export function fitLine(style: Style, segments: Segment[]): string {
  const parts = segments.map((s) =>
    typeof s === "string"
      ? { text: escapeText(s), color: undefined, raw: false, flex: false }
      : { flex: false, ...s, text: s.raw ? s.text : escapeText(s.text) },
  );
  if (style.tty) {
    const flexIndex = Math.max(
      0,
      parts.findIndex((p) => p.flex) >= 0 ? parts.findIndex((p) => p.flex) : parts.length - 1,
    );
    const fixed = parts.reduce((w, p, i) => (i === flexIndex ? w : w + displayWidth(p.text.replace(ANSI, ""))), 0);
    const flex = parts[flexIndex];
    if (flex && !flex.raw) flex.text = truncate(flex.text, Math.max(1, style.width - fixed));
  }
  return parts.map((p) => (p.color ? p.color(p.text) : p.text)).join("");
}

/** Joins short items with a separator, starting a new line before one would pass the width. */
export function wrapItems(
  style: Style,
  indent: string,
  items: Array<{ text: string; color?: ((s: string) => string) | undefined }>,
  separator = " · ",
): string[] {
  const lines: string[] = [];
  let current = "";
  let width = 0;
  for (const item of items) {
    const w = displayWidth(item.text);
    const sep = width === 0 ? indent : separator;
    if (style.tty && width > 0 && width + sep.length + w > style.width) {
      lines.push(current);
      current = "";
      width = 0;
    }
    const lead = width === 0 ? indent : style.paint.dim(separator);
    current += lead + (item.color ? item.color(item.text) : item.text);
    width += (width === 0 ? indent.length : separator.length) + w;
  }
  if (current) lines.push(current);
  return lines;
}
