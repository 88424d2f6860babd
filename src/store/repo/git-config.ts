/**
 * Git configuration: a parser that follows git's own `config.c` (parse_value, get_base_var) rather
 * than INI conventions, which differ in ways that matter (`#` inside quotes is data, unquoted
 * whitespace runs survive as single spaces, `[a.B]` is lower-cased but `[a "B"]` is not), the
 * system/global/repository cascade with the settings the environment adds, and the rules git
 * uses to pick a commit identity: the fallback of git-identity.ts, which asks `git var` first.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
export interface ConfigEntry {
  key: string;
  value: string;
}

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\r" || c === "\v" || c === "\f";
const isKeyChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9-]/.test(c);

/** Parses git config text into its entries in file order, keys normalised ("remote.origin.fetch"). */
export function parseGitConfig(text: string): ConfigEntry[] {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const out: ConfigEntry[] = [];
  let section: string | null = null;
  let i = 0;
  const skipLine = (): void => {
    while (i < src.length && src[i] !== "\n") i++;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "\n" || isSpace(c)) {
      i++;
    } else if (c === "#" || c === ";") {
      skipLine();
    } else if (c === "[") {
      const header = parseHeader(src, i + 1);
      // An invalid header poisons the keys below it, as in git (which would refuse the file).
      section = header?.section ?? null;
      if (header) i = header.end;
      else skipLine();
    } else if (/[A-Za-z]/.test(c ?? "") && section !== null) {
      let j = i;
      while (isKeyChar(src[j])) j++;
      const name = src.slice(i, j).toLowerCase();
      while (isSpace(src[j])) j++;
      i = j;
      if (src[i] === "=") {
        const parsed = parseValue(src, i + 1);
        out.push({ key: `${section}.${name}`, value: parsed.value });
        i = parsed.end;
      } else if (i >= src.length || src[i] === "\n" || src[i] === "#" || src[i] === ";") {
        // A bare key is a boolean true (git stores a NULL value; every reader treats it as true).
        out.push({ key: `${section}.${name}`, value: "true" });
        skipLine();
      } else {
        skipLine();
      }
    } else {
      skipLine();
    }
  }
  return out;
}

/** Parses from just after "[" to just after "]"; returns the canonical section prefix. */
function parseHeader(src: string, start: number): { section: string; end: number } | null {
  let i = start;
  while (i < src.length && /[A-Za-z0-9.-]/.test(src[i] ?? "")) i++;
  const name = src.slice(start, i);
  if (name === "") return null;
  if (src[i] === "]") return { section: name.toLowerCase(), end: i + 1 };
  if (!isSpace(src[i])) return null;
  while (isSpace(src[i])) i++;
  if (src[i] !== '"') return null;
  i++;
  let sub = "";
  for (;;) {
    const c = src[i++];
    if (c === undefined || c === "\n") return null;
    if (c === '"') break;
    // In a subsection a backslash escapes any character as itself (git drops the backslash).
    if (c === "\\") {
      const next = src[i++];
      if (next === undefined || next === "\n") return null;
      sub += next;
    } else {
      sub += c;
    }
  }
  if (src[i] !== "]") return null;
  return { section: `${name.toLowerCase()}.${sub}`, end: i + 1 };
}

/** Mirrors git's parse_value: returns the value and the index of the line's newline. */
function parseValue(src: string, start: number): { value: string; end: number } {
  let i = start;
  let value = "";
  let quote = false;
  let comment = false;
  let spaces = 0;
  while (i < src.length) {
    const c = src[i++] as string;
    if (c === "\n") {
      // An unterminated quote is an error in git; we end the value at the line instead.
      return { value, end: i - 1 };
    }
    if (comment) continue;
    if (isSpace(c) && !quote) {
      // Leading whitespace is dropped; inner runs are kept one space per character; trailing
      // whitespace is dropped because it is only flushed when something follows.
      if (value.length > 0) spaces++;
      continue;
    }
    if (!quote && (c === "#" || c === ";")) {
      comment = true;
      continue;
    }
    value += " ".repeat(spaces);
    spaces = 0;
    if (c === "\\") {
      const e = src[i++];
      if (e === "\n") continue; // line continuation
      value += e === "t" ? "\t" : e === "n" ? "\n" : e === "b" ? "\b" : (e ?? "");
      continue;
    }
    if (c === '"') {
      quote = !quote;
      continue;
    }
    value += c;
  }
  return { value, end: i };
}

/** Canonicalises a lookup key: section and name are case-insensitive, a subsection is not. */
export function normalizeConfigKey(key: string): string {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first < 0) return key.toLowerCase();
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  if (first === last) return `${section}.${name}`;
  return `${section}.${key.slice(first + 1, last)}.${name}`;
}

export interface GitConfig {
  /** The last value of a key across all files ("user.name"); undefined when unset. */
  get(key: string): string | undefined;
  /** Every value of a multi-valued key ("remote.origin.fetch"), lowest precedence first. */
  getAll(key: string): string[];
  /** Every key set, normalised ("remote.origin.url"), in first-seen order. */
  keys(): string[];
}

const MAX_INCLUDE_DEPTH = 10;

/**
 * Loads system, global and repository config (git's precedence, later wins), the worktree's
 * `config.worktree` when extensions.worktreeConfig is on and `gitDir` is given, then the settings
 * of the environment in git's order: the GIT_CONFIG_COUNT / GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n>
 * pairs a script sets, then GIT_CONFIG_PARAMETERS, where a parent git's `git -c` puts its own.
 */
export function loadGitConfig(commonDir: string | null, env: NodeJS.ProcessEnv, gitDir?: string): GitConfig {
  const home = env.HOME || homedir();
  const entries: ConfigEntry[] = [];
  if (!isTruthy(env.GIT_CONFIG_NOSYSTEM)) readConfigFile(env.GIT_CONFIG_SYSTEM || "/etc/gitconfig", home, entries, 0);
  if (env.GIT_CONFIG_GLOBAL !== undefined) {
    // git reads exactly this file; "/dev/null" (or any missing file) means no global config.
    if (env.GIT_CONFIG_GLOBAL !== "") readConfigFile(env.GIT_CONFIG_GLOBAL, home, entries, 0);
  } else {
    const xdg = env.XDG_CONFIG_HOME
      ? join(env.XDG_CONFIG_HOME, "git", "config")
      : join(home, ".config", "git", "config");
    readConfigFile(xdg, home, entries, 0);
    readConfigFile(join(home, ".gitconfig"), home, entries, 0);
  }
  if (commonDir !== null) {
    const before = entries.length;
    readConfigFile(join(commonDir, "config"), home, entries, 0);
    const worktreeConfig = entries
      .slice(before)
      .filter((e) => e.key === "extensions.worktreeconfig")
      .at(-1)?.value;
    if (gitDir && isTruthy(worktreeConfig)) readConfigFile(join(gitDir, "config.worktree"), home, entries, 0);
  }
  // Pairs a script or a parent process set (git-config(1), ENVIRONMENT).
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  for (let n = 0; Number.isInteger(count) && n < count; n++) {
    const key = env[`GIT_CONFIG_KEY_${n}`];
    if (key) entries.push({ key: normalizeConfigKey(key), value: env[`GIT_CONFIG_VALUE_${n}`] ?? "" });
  }
  // `git -c` in a parent git (hooks, aliases, `git -c k=v pantheon`) reaches us through this one, last.
  for (const [key, value] of parseConfigParameters(env.GIT_CONFIG_PARAMETERS ?? ""))
    entries.push({ key: normalizeConfigKey(key), value });
  return configFromEntries(entries);
}

/**
 * GIT_CONFIG_PARAMETERS as git writes it (config.c, sq_quote): `'key'='value'` pairs separated
 * by spaces, each part single-quoted with `'\''` for a quote; older gits wrote `'key=value'`.
 * A key without a value (`'key'`) is a boolean true. Unparseable text yields what came before it.
 */
export function parseConfigParameters(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  const quoted = (): string | null => {
    if (text[i] !== "'") return null;
    let v = "";
    i++;
    for (;;) {
      const end = text.indexOf("'", i);
      if (end < 0) return null;
      v += text.slice(i, end);
      i = end + 1;
      // '\'' continues the same word with a literal quote.
      if (text.startsWith("\\''", i)) {
        v += "'";
        i += 3;
        continue;
      }
      return v;
    }
  };
  while (i < text.length) {
    while (text[i] === " ") i++;
    if (i >= text.length) break;
    const first = quoted();
    if (first === null) break;
    if (text[i] === "=") {
      i++;
      const value = quoted();
      if (value === null) break;
      out.push([first, value]);
    } else {
      const eq = first.indexOf("=");
      out.push(eq < 0 ? [first, "true"] : [first.slice(0, eq), first.slice(eq + 1)]);
    }
  }
  return out;
}

/** Wraps parsed entries (lowest precedence first) in the GitConfig lookup interface. */
export function configFromEntries(entries: readonly ConfigEntry[]): GitConfig {
  const byKey = new Map<string, string[]>();
  for (const { key, value } of entries) {
    const list = byKey.get(key);
    if (list) list.push(value);
    else byKey.set(key, [value]);
  }
  return {
    get: (key) => byKey.get(normalizeConfigKey(key))?.at(-1),
    getAll: (key) => [...(byKey.get(normalizeConfigKey(key)) ?? [])],
    keys: () => [...byKey.keys()],
  };
}

function readConfigFile(path: string, home: string, into: ConfigEntry[], depth: number): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return; // missing or unreadable: git skips a missing file; an unreadable one is not ours to fix
  }
  for (const entry of parseGitConfig(text)) {
    into.push(entry);
    // include.path is spliced in place, so its values sit between the lines around it.
    if (entry.key === "include.path" && entry.value !== "" && depth < MAX_INCLUDE_DEPTH) {
      const target = entry.value.startsWith("~/") ? join(home, entry.value.slice(2)) : entry.value;
      readConfigFile(isAbsolute(target) ? target : resolve(dirname(path), target), home, into, depth + 1);
    }
  }
}

function isTruthy(v: string | undefined): boolean {
  return v !== undefined && v !== "" && !/^(0|false|no|off)$/i.test(v);
}

export interface Identity {
  name: string;
  email: string;
  source: "env" | "config" | "fallback";
}

export const FALLBACK_IDENTITY = { name: "Director", email: "director@pantheon.invalid" } as const;

/** Picks the commit identity as git does (author env, committer env, author.* / user.* config, $EMAIL), else the Director fallback. */
export function resolveIdentity(env: NodeJS.ProcessEnv, config: GitConfig): Identity {
  const pick = (fromEnv: Array<string | undefined>, fromConfig: Array<string | undefined>) => {
    const e = fromEnv.map((v) => v?.trim()).find((v) => v);
    if (e) return { value: e, source: "env" as const };
    const c = fromConfig.map((v) => v?.trim()).find((v) => v);
    if (c) return { value: c, source: "config" as const };
    return null;
  };
  const name = pick(
    [env.GIT_AUTHOR_NAME, env.GIT_COMMITTER_NAME],
    [config.get("author.name"), config.get("user.name")],
  );
  let email = pick(
    [env.GIT_AUTHOR_EMAIL, env.GIT_COMMITTER_EMAIL],
    [config.get("author.email"), config.get("user.email")],
  );
  // git falls back to $EMAIL after the config, before guessing from the host name.
  if (!email && env.EMAIL?.trim()) email = { value: env.EMAIL.trim(), source: "env" };
  if (!name && !email) return { ...FALLBACK_IDENTITY, source: "fallback" };
  const source = name?.source === "env" || email?.source === "env" ? "env" : "config";
  return { name: name?.value ?? FALLBACK_IDENTITY.name, email: email?.value ?? FALLBACK_IDENTITY.email, source };
}
