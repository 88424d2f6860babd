/**
 * A deliberately small TOML reader for the tests: `key = "basic"` and `key = """multi-line"""`
 * string pairs only, written from the TOML 1.0 spec independently of the escaper under test.
 * Anything outside that subset, a raw control character or an unknown escape is an error.
 */
const ESCAPES: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };

export function parseMiniToml(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`TOML: ${why} at offset ${i}`);
  };
  const skipBlank = () => {
    for (;;) {
      while (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r") i++;
      if (text[i] !== "#") return;
      while (i < text.length && text[i] !== "\n") i++;
    }
  };
  const readString = (multi: boolean): string => {
    let s = "";
    if (multi && text[i] === "\n") i++;
    else if (multi && text.startsWith("\r\n", i)) i += 2;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      if (multi && text.startsWith('"""', i)) {
        let end = i + 3;
        while (text[end] === '"' && end - i < 5) end++; // up to two quotes may close the content
        s += '"'.repeat(end - i - 3);
        i = end;
        return s;
      }
      const c = text[i]!;
      if (!multi && c === '"') return i++, s;
      if (c === "\\") {
        const e = text[i + 1]!;
        if (multi && /[ \t\r\n]/.test(e)) {
          // Line-ending backslash: skip whitespace and newlines up to the next content.
          let j = i + 1;
          while (/[ \t]/.test(text[j] ?? "")) j++;
          if (text[j] !== "\n" && !text.startsWith("\r\n", j)) fail("backslash before whitespace");
          while (/[ \t\r\n]/.test(text[j] ?? "")) j++;
          i = j;
        } else if (e === "u" || e === "U") {
          const n = e === "u" ? 4 : 8;
          const hex = text.slice(i + 2, i + 2 + n);
          if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail("bad unicode escape");
          s += String.fromCodePoint(parseInt(hex, 16));
          i += 2 + n;
        } else if (e in ESCAPES) {
          s += ESCAPES[e];
          i += 2;
        } else fail(`invalid escape \\${e}`);
        continue;
      }
      const code = c.charCodeAt(0);
      if (c === "\n" && !multi) fail("newline in a basic string");
      if (c === "\r" && !(multi && text[i + 1] === "\n")) fail("bare carriage return");
      if ((code < 0x20 && c !== "\t" && c !== "\n" && c !== "\r") || code === 0x7f)
        fail(`control character U+${code.toString(16)}`);
      s += c;
      i++;
    }
  };
  for (skipBlank(); i < text.length; skipBlank()) {
    const key = /^[A-Za-z0-9_-]+/.exec(text.slice(i))?.[0] ?? fail("expected a bare key");
    if (key in out) fail(`duplicate key ${key}`);
    i += key.length;
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] !== "=") fail("expected =");
    i++;
    while (text[i] === " " || text[i] === "\t") i++;
    if (text.startsWith('"""', i)) {
      i += 3;
      out[key] = readString(true);
    } else if (text[i] === '"') {
      i++;
      out[key] = readString(false);
    } else fail("expected a string");
    while (text[i] === " " || text[i] === "\t") i++;
    if (i < text.length && text[i] !== "\n" && text[i] !== "#" && !text.startsWith("\r\n", i)) fail("junk after value");
  }
  return out;
}
