import { displayWidth, escapeText, truncate } from "./escape.js";
import type { Style } from "./paint.js";

export interface Column {
  header: string;
  /** The column that takes what is left (a title): cut with … once the others gave way. */
  flex?: boolean;
  /**
   * A flexible column's least legible width (default 8): a table that cannot give it this much
   * drops its droppable columns first. Another column with `min` gives way before the flexible
   * one, down to `min`, its cells shortened by `fit`; without `min` it is never cut.
   */
  min?: number;
  /** Shortens a cell to a width (`ENG-H-0003 +2` for a list of ids); default: cut with `…`. */
  fit?: (value: string, width: number) => string;
  /** On a terminal too narrow for the rest, columns with `drop` go first (lowest first). */
  drop?: number;
  /** Colour for a cell, applied after padding so alignment is kept. */
  color?: (value: string) => ((s: string) => string) | undefined;
  /** Cells Pantheon styled itself (bars): not escaped; their width ignores ANSI codes. */
  raw?: boolean;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const GAP = 2;
const FLEX_FLOOR = 8;

function width(s: string): number {
  return displayWidth(s.replace(ANSI, ""));
}

/**
 * Aligned columns on a terminal, never wider than it; tab-separated lines when piped, so `cut`
 * and `awk` work. Both start with a header row unless `style.headers` is false (`--no-headers`):
 * piped output is read by people too (`pantheon persona activity | less`). With no rows, a
 * terminal gets `empty` (when given) instead of a lone header. Cell text is always escaped.
 * On a narrow terminal, columns with `min` give way first, then droppable columns go, and the
 * flexible one is cut last.
 */
export function table(columns: Column[], rows: string[][], style: Style, empty?: string): string {
  if (rows.length === 0 && style.tty && empty !== undefined) return style.paint.dim(empty);
  const headers = style.headers !== false;
  const cells = escapeCells(columns, rows);
  if (!style.tty)
    return [...(headers ? [columns.map((c) => c.header)] : []), ...cells].map((r) => r.join("\t")).join("\n");
  const kept = visible(columns, cells, style);
  return aligned(
    kept.map((i) => columns[i]!),
    cells.map((r) => kept.map((i) => r[i] ?? "")),
    style,
    headers,
  );
}

/**
 * Whether these columns fit the terminal with every column at its least width (the flexible
 * one at its `min`) and none dropped: a view with a narrower layout (two columns in one) picks it
 * when this says no.
 */
export function tableFits(columns: Column[], rows: string[][], style: Style): boolean {
  if (!style.tty) return true;
  const cells = escapeCells(columns, rows);
  const keep = shown(columns, cells);
  return leastWidth(columns, cells, style, (i) => keep[i]!) <= style.width;
}

function escapeCells(columns: Column[], rows: string[][]): string[][] {
  return rows.map((r) => r.map((c, i) => (columns[i]?.raw ? c : escapeText(c).replace(/\t/g, " "))));
}

/** On a terminal a column empty in every row only takes width from the titles: left out. */
function shown(columns: Column[], cells: string[][]): boolean[] {
  return columns.map((c, i) => c.flex === true || cells.length === 0 || cells.some((r) => (r[i] ?? "") !== ""));
}

/** The positions of the columns shown: the non-empty ones, less droppable ones the width needs. */
function visible(columns: Column[], cells: string[][], style: Style): number[] {
  const keep = shown(columns, cells);
  const droppable = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => c.drop !== undefined && keep[i])
    .sort((a, b) => a.c.drop! - b.c.drop! || b.i - a.i);
  for (const { i } of droppable) {
    if (leastWidth(columns, cells, style, (k) => keep[k]!) <= style.width) break;
    keep[i] = false;
  }
  return columns.map((_, i) => i).filter((i) => keep[i]);
}

function natural(column: Column, cells: string[][], i: number, headers: boolean): number {
  return Math.max(headers ? displayWidth(column.header) : 0, ...cells.map((r) => width(r[i] ?? "")));
}

function leastWidth(columns: Column[], cells: string[][], style: Style, keep: (i: number) => boolean): number {
  const headers = style.headers !== false;
  const widths = columns.flatMap((c, i) => {
    if (!keep(i)) return [];
    const full = natural(c, cells, i, headers);
    return [c.flex ? Math.min(full, c.min ?? FLEX_FLOOR) : c.min !== undefined ? Math.min(full, c.min) : full];
  });
  return widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);
}

/** Column widths for the terminal: `min` columns give way first (rightmost first), then the flexible one. */
function fitWidths(columns: Column[], cells: string[][], style: Style, headers: boolean): number[] {
  const widths = columns.map((c, i) => natural(c, cells, i, headers));
  let over = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1) - style.width;
  for (let i = columns.length - 1; i >= 0 && over > 0; i--) {
    const c = columns[i]!;
    if (c.flex || c.min === undefined || widths[i]! <= c.min) continue;
    const cut = Math.min(over, widths[i]! - c.min);
    widths[i]! -= cut;
    over -= cut;
  }
  const flex = columns.findIndex((c) => c.flex);
  if (over > 0 && flex >= 0) widths[flex] = Math.max(FLEX_FLOOR, widths[flex]! - over);
  return widths;
}

function aligned(columns: Column[], cells: string[][], style: Style, headers: boolean): string {
  const widths = fitWidths(columns, cells, style, headers);
  const line = (values: string[], header: boolean) =>
    values
      .map((v, i) => {
        const w = widths[i]!;
        const c = columns[i];
        const cut = c?.raw || width(v) <= w ? v : !header && c?.fit ? truncate(c.fit(v, w), w) : truncate(v, w);
        const padded = i === values.length - 1 ? cut : cut + " ".repeat(Math.max(0, w - width(cut)));
        if (header) return style.paint.bold(padded);
        const color = c?.color?.(v);
        return color ? color(padded) : padded;
      })
      .join(" ".repeat(GAP))
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

/**
 * `ENG-H-0002,ENG-H-0003 +1`: as many ids of a comma-separated list as fit the width, and how
 * many more there are. Never cuts inside an id unless not even one fits.
 */
export function fitIds(value: string, w: number): string {
  const ids = value.split(",").filter((s) => s !== "");
  for (let k = ids.length; k >= 1; k--) {
    const s = ids.slice(0, k).join(",") + (k < ids.length ? ` +${ids.length - k}` : "");
    if (displayWidth(s) <= w) return s;
  }
  return ids.length > 1 && w >= `+${ids.length}`.length + 2
    ? `${truncate(ids[0]!, w - `+${ids.length - 1}`.length - 1)} +${ids.length - 1}`
    : truncate(value, w);
}
