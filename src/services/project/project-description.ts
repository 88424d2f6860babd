import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UNSAFE_CHARS } from "../../domain/control-chars.js";

/** Longer than a project's one-line description: a README pasted into a manifest. */
const MAX = 300;

/**
 * The description the project's manifest already gives (`package.json`, `Cargo.toml`'s
 * `[package]`, `pyproject.toml`'s `[project]` or `[tool.poetry]`), as `init`'s default; "" when
 * none does. go.mod has no description field. One line, control characters dropped: it is a
 * default the Director sees and may change, and it ends up in briefs (fenced as data there).
 */
export function detectProjectDescription(root: string | null): string {
  if (!root) return "";
  const found = fromPackageJson(read(root, "package.json")) ?? fromCargo(read(root, "Cargo.toml"));
  return clean(found ?? fromPyproject(read(root, "pyproject.toml")) ?? "");
}

function read(root: string, file: string): string | null {
  try {
    return readFileSync(join(root, file), "utf8");
  } catch {
    return null;
  }
}

function fromPackageJson(text: string | null): string | null {
  if (text === null) return null;
  try {
    const doc = JSON.parse(text) as { description?: unknown };
    return typeof doc.description === "string" ? doc.description : null;
  } catch {
    return null; // not JSON: no default, and init is not the place to say so
  }
}

function fromCargo(text: string | null): string | null {
  return text === null ? null : tomlString(text, "package", "description");
}

function fromPyproject(text: string | null): string | null {
  if (text === null) return null;
  return tomlString(text, "project", "description") ?? tomlString(text, "tool.poetry", "description");
}

/**
 * `key = "value"` (or `'value'`) in a TOML table: the one form a manifest's description takes.
 * Anything else (a multi-line string, `description.workspace = true`) gives no default.
 */
function tomlString(text: string, table: string, key: string): string | null {
  let inTable = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[([^[\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) {
      inTable = header[1]!.trim() === table;
      continue;
    }
    if (!inTable) continue;
    const m = new RegExp(`^${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|'([^']*)')\\s*(#.*)?$`).exec(line);
    if (m) return m[2] ?? unescapeBasic(m[1]!);
  }
  return null;
}

function unescapeBasic(s: string): string {
  return s.replace(/\\(["\\nt])/g, (_, c: string) => (c === "n" ? " " : c === "t" ? " " : c));
}

function clean(s: string): string {
  const one = s.replace(UNSAFE_CHARS, " ").replace(/\s+/g, " ").trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1).trimEnd()}…` : one;
}
