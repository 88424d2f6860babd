import type { Style } from "../render/paint.js";

/**
 * What a command returns: `kind` and `data` become the `--json` envelope; `text` is the human
 * rendering (a mutation's first line starts with ✓). Commands never print themselves.
 */
export interface View {
  kind: string;
  data: unknown;
  /** Other records a mutation changed, as views (`changed` in the envelope). */
  changed?: unknown[];
  text(style: Style): string;
}

export function view(kind: string, data: unknown, text: (style: Style) => string, changed?: unknown[]): View {
  return changed && changed.length > 0 ? { kind, data, text, changed } : { kind, data, text };
}

/** The first line of every successful mutation. */
export function check(style: Style, line: string): string {
  return `${style.paint.green("✓")} ${line}`;
}
