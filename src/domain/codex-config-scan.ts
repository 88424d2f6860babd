/**
 * Finds, in the text of a codex `config.toml`, the settings that decide what its sandbox lets a
 * model write: `sandbox_mode`, `default_permissions` (a permissions profile of the user's own),
 * `sandbox_workspace_write.writable_roots`, the `profile` chosen at the top, and each folder's
 * `trust_level` (`[projects."/repo"]`), with the table each is under (`""` for the top level,
 * `profiles.fast`, `projects./repo`). Not a TOML parser: it reads headers and `key = value` lines
 * (dotted and quoted keys, strings, arrays of strings over several lines) and skips what it
 * cannot read, which `doctor` then does not report and `summon` takes as not set.
 */
export interface CodexSandboxSetting {
  /** The table the key is in, dotted (`""` at the top). */
  table: string;
  key: "sandbox_mode" | "writable_roots" | "default_permissions" | "profile" | "trust_level";
  /** writable_roots: every string of the array; the others: one value. */
  values: string[];
}

export function scanCodexConfig(text: string): CodexSandboxSetting[] {
  const out: CodexSandboxSetting[] = [];
  let table = "";
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = stripComment(lines[i]!).trim();
    if (line === "") continue;
    const header = /^\[\[?\s*(.+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = dotted(header[1]!);
      continue;
    }
    const eq = keyEnd(line);
    if (eq < 0) continue;
    const key = dotted(line.slice(0, eq).trim());
    let value = line.slice(eq + 1).trim();
    // An array may go on over several lines until its brackets close.
    while ((value.startsWith("[") || value.startsWith("{")) && !balanced(value) && i + 1 < lines.length)
      value += ` ${stripComment(lines[++i]!).trim()}`;
    const full = table && key ? `${table}.${key}` : table || key;
    const name = full.split(".").at(-1);
    const at = full.slice(0, Math.max(0, full.length - (name?.length ?? 0) - 1));
    if (name === "sandbox_mode" || name === "default_permissions") {
      const v = strings(value);
      if (v.length === 1) out.push({ table: at, key: name, values: v });
    } else if (name === "profile" && at === "") {
      const v = strings(value);
      if (v.length === 1) out.push({ table: "", key: "profile", values: v });
    } else if (name === "trust_level" && at.startsWith("projects.")) {
      const v = strings(value);
      if (v.length === 1) out.push({ table: at, key: "trust_level", values: v });
    } else if (name === "writable_roots" && at.split(".").at(-1) === "sandbox_workspace_write") {
      out.push({ table: at.split(".").slice(0, -1).join("."), key: "writable_roots", values: strings(value) });
    } else if (name === "sandbox_workspace_write" && value.startsWith("{")) {
      // The inline form: sandbox_workspace_write = { writable_roots = [...] }.
      const roots = /writable_roots\s*=\s*(\[[^\]]*\])/.exec(value);
      if (roots) out.push({ table: at, key: "writable_roots", values: strings(roots[1]!) });
    }
  }
  return out;
}

/** `a."b.c".d` → `a.b.c.d` (quotes dropped; the few tables read here never need them kept). */
function dotted(raw: string): string {
  const parts: string[] = [];
  for (const m of raw.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/g))
    parts.push(m[1] !== undefined ? tomlUnescape(m[1]) : (m[2] ?? m[3] ?? ""));
  return parts.join(".");
}

/** The index of the first `ch` outside a quoted string (a `\\"` inside `"..."` stays quoted), or -1. */
function firstUnquoted(line: string, ch: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ch) return i;
  }
  return -1;
}

/** Where `=` ends the key: the first one outside quotes. */
const keyEnd = (line: string): number => firstUnquoted(line, "=");

/** The line without a `#` comment (a `#` inside a string stays). */
function stripComment(line: string): string {
  const at = firstUnquoted(line, "#");
  return at < 0 ? line : line.slice(0, at);
}

function balanced(value: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return depth <= 0;
}

/** Every string of a value: a string, or the strings of an array. */
function strings(value: string): string[] {
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) =>
    m[1] !== undefined ? tomlUnescape(m[1]) : m[2]!,
  );
}

function tomlUnescape(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_m, e: string) => {
    if (e.length > 1) return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
    return ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" } as Record<string, string>)[e] ?? e;
  });
}
