import { displayWidth } from "./escape.js";
import type { Style } from "./paint.js";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const width = (s: string) => displayWidth(s.replace(ANSI, ""));

/**
 * Wraps one line of prose at word boundaries to the terminal's width: continuation lines start
 * at `hang` columns (default: under the line's own first word, after its leading spaces). A word
 * longer than the room is left whole on its own line (a path or a URL must stay copyable); the
 * terminal folds it. Colour codes take no width. Piped output is returned as it is: a reader or
 * a script gets one line.
 */
export function wrapLine(style: Style, line: string, hang?: number): string {
  if (!style.tty || width(line) <= style.width) return line;
  const lead = /^ */.exec(line)![0];
  const indent = " ".repeat(Math.min(hang ?? lead.length, Math.max(0, style.width - 20)));
  // Each word keeps the spaces before it (alignment padding), except at the start of a line.
  const words = [...line.slice(lead.length).matchAll(/( *)(\S+)/g)].map((m) => ({ gap: m[1]!, word: m[2]! }));
  const out: string[] = [];
  let current = lead;
  let used = lead.length;
  let first = true;
  for (const { gap, word } of words) {
    const w = width(word);
    if (!first && used + gap.length + w > style.width) {
      out.push(current);
      current = indent + word;
      used = indent.length + w;
      continue;
    }
    current += first ? word : gap + word;
    used += first ? w : gap.length + w;
    first = false;
  }
  out.push(current);
  return out.join("\n");
}
