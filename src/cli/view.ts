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

/**
 * A list whose JSON views are made as they are written: every task of 50,000 as views at once
 * took ~40 MB more at peak than a slice at a time. JSON.stringify sees the whole array.
 */
export class MappedList<T, V> {
  constructor(
    readonly items: readonly T[],
    readonly map: (item: T) => V,
  ) {}

  get length(): number {
    return this.items.length;
  }

  slice(from: number, to: number): V[] {
    return this.items.slice(from, to).map(this.map);
  }

  toJSON(): V[] {
    return this.items.map(this.map);
  }
}

// The first line of every successful mutation: render/paint.ts, so a renderer can write it too.
export { check } from "../render/paint.js";
