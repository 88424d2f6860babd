/** Colour functions; the CLI passes picocolors or the plain set (NO_COLOR, pipes, --no-color). */
export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
  gray(s: string): string;
}

const id = (s: string) => s;
export const PLAIN: Paint = {
  bold: id,
  dim: id,
  red: id,
  green: id,
  yellow: id,
  blue: id,
  magenta: id,
  cyan: id,
  gray: id,
};

/** How human output is laid out: a terminal gets aligned, coloured tables; a pipe gets TSV. */
export interface Style {
  paint: Paint;
  tty: boolean;
  width: number;
  /** Tables start with a header row, on a terminal and piped alike; false with `--no-headers`. */
  headers?: boolean;
}

/** The first line of every successful mutation. */
export function check(style: Style, line: string): string {
  return `${style.paint.green("✓")} ${line}`;
}
