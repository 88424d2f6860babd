/**
 * TOML strings for gemini's command files: gemini skips a command file that does not parse, so
 * escaping is not cosmetic. Control characters other than tab and line feed are written as
 * \uXXXX escapes.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

function escapeToml(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`);
}

/** A TOML basic string: one line, quoted. */
export function tomlString(text: string): string {
  return `"${escapeToml(text).replace(/\n/g, "\\n")}"`;
}

/**
 * A TOML multi-line basic string; its value is `text` plus a final newline (the closing quotes
 * sit on their own line). Every quote is escaped, so no `"""` can end it early, and backslashes
 * are doubled, so none becomes an escape or a line-ending backslash.
 */
export function tomlMultilineString(text: string): string {
  return `"""\n${escapeToml(text)}\n"""`;
}
