/**
 * Characters that drive a terminal or reorder what a reader sees: C0 and C1 controls (NEL,
 * U+0085, among them), DEL, the line and paragraph separators (U+2028, U+2029: a line break to
 * many editors, renderers and JavaScript, so a title could start a line of its own), and the
 * bidirectional marks and overrides (LRM, RLM, ALM, U+202A-E, U+2066-9). Record text is any
 * collaborator's text, so it passes through one of the escapes below wherever Pantheon prints
 * it or writes it into a file.
 */
// eslint-disable-next-line no-control-regex
export const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\u001b": "\\e" };

/** The visible form of one unsafe character: `\e`, `\n`, `\u{9b}`. */
export function escapeChar(c: string): string {
  return NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`;
}

/** For one line (a name in a prompt, a message): every unsafe character escaped, line breaks too. */
export function escapeInline(s: string): string {
  // Nearly every text has nothing to escape, and a test costs a third of a replace that finds
  // nothing: every cell of a 50,000-task list passes here.
  return UNSAFE_ONE.test(s) ? s.replace(UNSAFE_CHARS, escapeChar) : s;
}

const UNSAFE_ONE = new RegExp(UNSAFE_CHARS.source);

/**
 * For files Pantheon writes from records (planning files, persona instructions): every unsafe
 * character escaped except line breaks and tabs, which multi-line descriptions need. A CRLF
 * line end becomes LF; a lone CR (which rewinds a terminal line) is escaped.
 */
export function escapeFileText(s: string): string {
  return s.replace(/\r\n/g, "\n").replace(UNSAFE_CHARS, (c) => (c === "\n" || c === "\t" ? c : escapeChar(c)));
}
