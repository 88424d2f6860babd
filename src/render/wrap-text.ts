import { displayWidth } from "./escape.js";
import type { Style } from "./paint.js";

/**
 * Wraps one line of prose at word boundaries to the terminal's width: continuation lines start
 * at `hang` columns (default: under the line's own first word, after its leading spaces). A word
 * longer than the room is left whole on its own line (a path or a URL must stay copyable); the
 * terminal folds it. Piped output is returned as it is: a reader or a script gets one line.
 */
export function wrapLine(style: Style, line: string, hang?: number): string {
  if (!style.tty || displayWidth(line) <= style.width) return line;
  const lead = /^ */.exec(line)![0];
  const indent = " ".repeat(Math.min(hang ?? lead.length, Math.max(0, style.width - 20)));
  const words = line.slice(lead.length).split(/ +/);
  const out: string[] = [];
  let current = lead;
  let width = lead.length;
  let first = true;
  for (const word of words) {
    const w = displayWidth(word);
    if (!first && width + 1 + w > style.width) {
      out.push(current);
      current = indent + word;
      width = indent.length + w;
      continue;
    }
    current += first ? word : ` ${word}`;
    width += first ? w : 1 + w;
    first = false;
  }
  out.push(current);
  return out.join("\n");
}

/** `wrapLine` over each line of a text. */
export function wrapText(style: Style, text: string): string {
  return text
    .split("\n")
    .map((l) => wrapLine(style, l))
    .join("\n");
}
