import type { Style } from "./paint.js";

/** A progress bar: block characters on a terminal, `[####------]` when piped. */
export function bar(fraction: number, width: number, style: Style): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const full = Math.round(f * width);
  if (!style.tty) return `[${"#".repeat(full)}${"-".repeat(width - full)}]`;
  return style.paint.green("█".repeat(full)) + style.paint.gray("░".repeat(width - full));
}

export function percent(fraction: number): string {
  return `${Math.round(100 * fraction)}%`;
}
