/**
 * A refusal's hint names the CLI line that would help (`pantheon task claim ENG-H-0007 --force`).
 * A model talking to `pantheon mcp` calls tools instead: each CLI command a tool does the same as
 * is written here as that tool's call (`claim({"id":"ENG-H-0007","force":true})`). Commands no
 * tool covers (`pantheon doctor`, `pantheon sync`) stay as they are: they are the Director's.
 */
interface ToolForm {
  tool: string;
  /** Argument names of the positional words, in order; the last takes the rest (`search` words). */
  positional?: string[];
  /** CLI flag → argument name; a flag named here without a value is `true`. */
  flags?: Record<string, string>;
  fixed?: Record<string, string | boolean>;
}

const NOTES = { "--notes": "notes" };
const NUMBERS = new Set(["count", "limit", "n"]);
/** Arguments that are lists: a flag given twice, or positional words, add to them. */
const LISTS = new Set(["dependsOn", "labels", "acceptance"]);
const SWITCHES = new Set(["force", "release"]);

/** Every tool of tools.ts, by the CLI command it does (test/unit/mcp/hint-translation.test.ts keeps them in step). */
export const TOOL_FORMS: Record<string, ToolForm> = {
  "task next": { tool: "next", flags: { "--role": "role", "--count": "count", "--label": "label" } },
  "task show": { tool: "show", positional: ["id"] },
  "task claim": { tool: "claim", positional: ["id"], flags: { "--force": "force" } },
  "task update": { tool: "update", positional: ["id"], flags: { "--status": "status", ...NOTES } },
  "task handoff": { tool: "handoff", positional: ["id"], flags: NOTES },
  "task unassign": { tool: "unassign", positional: ["id"], flags: NOTES },
  "task note": { tool: "note", positional: ["id", "text"] },
  "task close": { tool: "close", positional: ["id"], flags: { "--status": "status", ...NOTES, "--force": "force" } },
  "task ac": { tool: "criterion", positional: ["id", "text"] },
  "task check": { tool: "criterion", positional: ["id", "n"] },
  "task uncheck": { tool: "criterion", positional: ["id", "n"], fixed: { undo: true } },
  "task label": { tool: "label", positional: ["id", "labels"] },
  "task unlabel": { tool: "label", positional: ["id", "labels"], fixed: { remove: true } },
  "task create": {
    tool: "create",
    flags: {
      "--title": "title",
      "--role": "role",
      "--priority": "priority",
      "--description": "description",
      "--depends-on": "dependsOn",
      "--epic": "epic",
      "--label": "labels",
      "--ac": "acceptance",
    },
  },
  "task search": { tool: "search", positional: ["words"], flags: { "--limit": "limit" } },
  "task report": { tool: "report" },
  "task blocked": { tool: "blocked" },
  "task prereqs": { tool: "prereqs", positional: ["id"] },
  "epic show": { tool: "epic", positional: ["id"] },
  "persona activity": { tool: "activity" },
  "review approve": {
    tool: "review",
    positional: ["id"],
    fixed: { decision: "approve" },
    flags: { ...NOTES, "--force": "force" },
  },
  "review reject": {
    tool: "review",
    positional: ["id"],
    fixed: { decision: "reject" },
    flags: { ...NOTES, "--reason": "notes", "--force": "force" },
  },
  "mission start": {
    tool: "mission_start",
    flags: { "--role": "role", "--persona": "persona", "--objective": "objective" },
  },
  "mission end": {
    tool: "mission_end",
    positional: ["id"],
    flags: { "--summary": "summary", "--release": "release" },
  },
};

/** Words that end a command inside a sentence: `pantheon task show X or ...`. */
const STOP = new Set(["or", "and", "then", "to", "first", "after", "before", "when", "if"]);

/** Flags a hint names on their own (`(or --force)`, `or --status TODO`), as arguments. */
const LONE_FLAGS = /(^|[\s(])--(force|release|mission|status|notes)\b( [A-Z]+\b)?/g;

/**
 * The hint with each `pantheon <command ...>` that a tool does written as that tool's call; the
 * call runs to the end of the hint or of its clause (`,` `;` `(` `)`, a word such as `or`, a
 * quote that closes it). Flags standing alone in a hint that names a tool are written as arguments.
 */
export function translateHint(hint: string): string {
  let translated = false;
  const out = hint.replace(
    /\bpantheon ((?:--[a-z-]+ [^\s"]+ )*)([a-z]+) ([a-z]+)\b([^,;()`]*)/g,
    (whole, globals: string, a: string, b: string, rest: string) => {
      const form = TOOL_FORMS[`${a} ${b}`];
      if (!form) return whole;
      const { tokens, end } = commandTokens(rest);
      const call = toolCall(form, [...commandTokens(globals).tokens, ...tokens]);
      if (call === null) return whole;
      translated = true;
      return `${call}${rest.slice(end)}`;
    },
  );
  if (!translated) return out;
  return out.replace(LONE_FLAGS, (m, lead: string, name: string, value: string | undefined, at: number) => {
    // A flag of a CLI line left as it is (no tool does it) stays a flag.
    const before = out.slice(0, at);
    const cli = before.lastIndexOf("pantheon ");
    if (cli >= 0 && !/[(),;]| or /.test(before.slice(cli))) return m;
    if (SWITCHES.has(name)) return `${lead}${name}: true${value ?? ""}`;
    return value ? `${lead}${name}: "${value.trim()}"` : `${lead}${name}`;
  });
}

/** The words of a command at the start of `text`, and where the command ends. */
function commandTokens(text: string): { tokens: string[]; end: number } {
  const tokens: string[] = [];
  let pos = 0;
  let end = 0;
  for (;;) {
    while (text[pos] === " ") pos++;
    // A command quoted in a hint (`pantheon task show X`, 'pantheon ...') ends at its quote.
    if (pos >= text.length || text[pos] === "`" || text[pos] === "'") break;
    let token: string;
    if (text[pos] === '"') {
      const close = text.indexOf('"', pos + 1);
      if (close < 0) break; // an unmatched quote closes the text around the command
      token = text.slice(pos, close + 1);
    } else {
      token = /^[^\s"'`]+/.exec(text.slice(pos))![0];
      if (STOP.has(token)) break;
      // A sentence's full stop or colon is not part of an id.
      const bare = token.replace(/[.:]+$/, "");
      if (bare !== token) {
        tokens.push(bare);
        end = pos + bare.length;
        break;
      }
    }
    tokens.push(token);
    pos += token.length;
    end = pos;
  }
  return { tokens, end };
}

function toolCall(form: ToolForm, tokens: string[]): string | null {
  const named: Record<string, unknown> = {};
  const positional: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === "--mission" || t === "--as") {
      const value = tokens[++i];
      // `--as NAME` has no tool form: a session names its persona once, with mission_start.
      if (t === "--mission" && value !== undefined) named.mission = unquote(value);
      continue;
    }
    if (t.startsWith("--")) {
      const name = form.flags?.[t];
      if (name === undefined) return null; // a flag the tool does not take: leave the CLI line
      if (SWITCHES.has(name)) named[name] = true;
      else {
        const value = unquote(tokens[++i] ?? "...");
        if (LISTS.has(name)) named[name] = [...((named[name] as string[] | undefined) ?? []), value];
        else named[name] = NUMBERS.has(name) && /^\d+$/.test(value) ? Number(value) : value;
      }
      continue;
    }
    positional.push(unquote(t));
  }
  const names = form.positional ?? [];
  if (positional.length > 0 && names.length === 0) return null;
  const out: Record<string, unknown> = { ...form.fixed };
  positional.forEach((value, k) => {
    const name = names[Math.min(k, names.length - 1)]!;
    if (LISTS.has(name)) out[name] = [...((out[name] as string[] | undefined) ?? []), value];
    else if (NUMBERS.has(name) && /^\d+$/.test(value)) out[name] = Number(value);
    else out[name] = k >= names.length ? `${out[name] as string} ${value}` : value;
  });
  Object.assign(out, named);
  return `${form.tool}(${Object.keys(out).length > 0 ? JSON.stringify(out) : ""})`;
}

function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s;
}
