import { displayWidth, escapeText, truncate } from "./escape.js";
import type { Style } from "./paint.js";

export interface Column {
  header: string;
  /** A flexible column shrinks (with …) to keep the table within the terminal. */
  flex?: boolean;
  /** Colour for a cell, applied after padding so alignment is kept. */
  color?: (value: string) => ((s: string) => string) | undefined;
  /** Cells Pantheon styled itself (bars): not escaped; their width ignores ANSI codes. */
  raw?: boolean;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

function width(s: string): number {
  return displayWidth(s.replace(ANSI, ""));
}

/**
 * Aligned columns on a terminal, never wider than it; tab-separated lines when piped, so `cut`
 * and `awk` work. Both start with a header row unless `style.headers` is false (`--no-headers`):
 * piped output is read by people too (`pantheon persona activity | less`). With no rows, a
 * terminal gets `empty` (when given) instead of a lone header. Cell text is always escaped.
 */
export function table(columns: Column[], rows: string[][], style: Style, empty?: string): string {
  if (rows.length === 0 && style.tty && empty !== undefined) return style.paint.dim(empty);
  const headers = style.headers !== false;
  // escapeText shows a tab as \t, so no cell can split a piped row.
  const cells = rows.map((r) => r.map((c, i) => (columns[i]?.raw ? c : escapeText(c))));
  if (!style.tty)
    return [...(headers ? [columns.map((c) => c.header)] : []), ...cells].map((r) => r.join("\t")).join("\n");
  // On a terminal a column empty in every row only takes width from the titles: leave it out.
  const keep = columns.map((c, i) => c.flex === true || cells.length === 0 || cells.some((r) => (r[i] ?? "") !== ""));
  const pick = <T>(values: T[]) => values.filter((_, i) => keep[i]);
  return aligned(pick(columns), cells.map(pick), style, headers);
}

function aligned(columns: Column[], cells: string[][], style: Style, headers: boolean): string {
  const widths = columns.map((c, i) =>
    Math.max(headers ? displayWidth(c.header) : 0, ...cells.map((r) => width(r[i] ?? ""))),
  );
  const gap = 2;
  const total = widths.reduce((a, b) => a + b, 0) + gap * (columns.length - 1);
  const flex = columns.findIndex((c) => c.flex);
  if (total > style.width && flex >= 0) widths[flex] = Math.max(8, widths[flex]! - (total - style.width));
  const line = (values: string[], header: boolean) =>
    values
      .map((v, i) => {
        const w = widths[i]!;
        const cut = columns[i]?.raw ? v : truncate(v, w);
        const padded = i === values.length - 1 ? cut : cut + " ".repeat(Math.max(0, w - width(cut)));
        if (header) return style.paint.bold(padded);
        const color = columns[i]?.color?.(v);
        return color ? color(padded) : padded;
      })
      .join(" ".repeat(gap))
      .trimEnd();
  return [
    ...(headers
      ? [
          line(
            columns.map((c) => c.header),
            true,
          ),
        ]
      : []),
    ...cells.map((r) => line(r, false)),
  ].join("\n");
}
