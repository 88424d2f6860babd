/**
 * An MCP client is never told to run `pantheon ...` where one of its tools does the same: the
 * hints of every error the services, domain, store and API can raise (the hint catalogue, read
 * from the source) are translated into tool calls; the table of forms covers every tool.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_FORMS, translateHint } from "../../../src/mcp/hint-translation.js";
import { TOOLS } from "../../../src/mcp/tools.js";

const SRC = resolve(__dirname, "../../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/**
 * Every `pantheon <command> ...` written in the code whose errors reach a tool, from the word
 * `pantheon` to the end of its line, with `${...}` filled in as an id: what a hint can say.
 */
function hintCatalogue(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const dir of ["services", "domain", "errors", "store", "api"])
    for (const file of files(join(SRC, dir))) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        for (const m of line.matchAll(/pantheon (?:--[a-z-]+ \S+ )*[a-z]+ [a-z]+/g)) {
          // As the string reads at run time: templates filled, escaped backticks plain.
          const text = line
            .slice(m.index)
            .replace(/\$\{[^{}]*\}/g, "ENG-H-0001")
            .replace(/\\`/g, "`");
          out.push({ file: file.slice(SRC.length + 1), text });
        }
      }
    }
  return out;
}

const toolCommands = Object.keys(TOOL_FORMS);
const cliLineOfATool = new RegExp(`pantheon (?:--[a-z-]+ \\S+ )*(${toolCommands.join("|")})\\b`);

describe("hints in an MCP client's terms", () => {
  it("writes a CLI line a tool does as that tool's call, with its arguments", () => {
    expect(translateHint("pantheon task show ENG-H-0012")).toBe('show({"id":"ENG-H-0012"})');
    expect(translateHint("pantheon task prereqs ENG-H-0001 (or --force)")).toBe(
      'prereqs({"id":"ENG-H-0001"}) (or force: true)',
    );
    expect(translateHint('pantheon review reject RVW-001 --reason "add tests for expiry"')).toBe(
      'review({"decision":"reject","id":"RVW-001","notes":"add tests for expiry"})',
    );
    expect(translateHint("pantheon task list (or pantheon task search WORDS)")).toBe(
      'pantheon task list (or search({"words":"WORDS"}))',
    );
    expect(translateHint("pantheon --mission MSN-0003:silent-phoenix task next --count 1")).toBe(
      'next({"mission":"MSN-0003:silent-phoenix","count":1})',
    );
    expect(translateHint("pantheon mission end MSN-0002 (add --release to free its claims)")).toBe(
      'mission_end({"id":"MSN-0002"}) (add release: true to free its claims)',
    );
    expect(translateHint("pantheon task update ENG-H-0001 --status UNDERWAY (claims it) or --status TODO")).toBe(
      'update({"id":"ENG-H-0001","status":"UNDERWAY"}) (claims it) or status: "TODO"',
    );
    // A CLI line no tool does keeps its flags, beside one that was translated.
    expect(
      translateHint("yours: `pantheon task mine --mission MSN-0001`; next: `pantheon task next --mission MSN-0001`"),
    ).toBe('yours: `pantheon task mine --mission MSN-0001`; next: `next({"mission":"MSN-0001"})`');
    expect(translateHint('Task ENG-H-0012 is UNDERWAY; run "pantheon task show ENG-H-0012".')).toBe(
      'Task ENG-H-0012 is UNDERWAY; run "show({"id":"ENG-H-0012"})".',
    );
  });

  it("leaves the Director's commands, which no tool does, as they are", () => {
    for (const hint of [
      "pantheon doctor --fix (rebuilds it)",
      "pantheon sync origin (or --all)",
      "pantheon review list --status pending",
      "pantheon --as <persona> task mine (or --mission <id>)",
    ])
      expect(translateHint(hint)).toBe(hint);
  });

  it("no hint of the catalogue still names a CLI line that a tool does the same as", () => {
    const catalogue = hintCatalogue();
    expect(catalogue.length).toBeGreaterThan(50); // the catalogue is really read
    // A CLI line stays where it needs a flag no tool takes: the tool does not do the same.
    const noTool = /--remove-worktree|--no-review|--json/;
    const left = catalogue
      .map(({ file, text }) => ({ file, text, translated: translateHint(text) }))
      .filter((h) => cliLineOfATool.test(h.translated) && !noTool.test(h.translated));
    expect(left, JSON.stringify(left, null, 2)).toEqual([]);
  });

  it("covers every tool, and each form's arguments are that tool's", () => {
    const tools = new Map(TOOLS.map((t) => [t.name, t]));
    expect(new Set(Object.values(TOOL_FORMS).map((f) => f.tool))).toEqual(new Set(tools.keys()));
    for (const [command, form] of Object.entries(TOOL_FORMS)) {
      const shape = Object.keys(tools.get(form.tool)!.input.def.shape);
      const args = [...(form.positional ?? []), ...Object.values(form.flags ?? {}), ...Object.keys(form.fixed ?? {})];
      for (const a of args) expect(shape, `${command} → ${form.tool}.${a}`).toContain(a);
    }
  });
});

describe("labels and acceptance criteria in a tool's terms", () => {
  it.each([
    ["pantheon task check ENG-H-0001 2", 'criterion({"id":"ENG-H-0001","n":2})'],
    ["pantheon task uncheck ENG-H-0001 2", 'criterion({"undo":true,"id":"ENG-H-0001","n":2})'],
    ['pantheon task ac ENG-H-0001 "returns 404"', 'criterion({"id":"ENG-H-0001","text":"returns 404"})'],
    ["pantheon task label ENG-H-0001 api auth", 'label({"id":"ENG-H-0001","labels":["api","auth"]})'],
    ["pantheon task unlabel ENG-H-0001 api", 'label({"remove":true,"id":"ENG-H-0001","labels":["api"]})'],
    ["pantheon task close ENG-H-0001 --force", 'close({"id":"ENG-H-0001","force":true})'],
    ["pantheon task next --label api", 'next({"label":"api"})'],
    [
      'pantheon task create --title "T" --role eng --label api --label auth --ac "one"',
      'create({"title":"T","role":"eng","labels":["api","auth"],"acceptance":["one"]})',
    ],
  ])("%s", (cli, call) => {
    expect(translateHint(cli)).toBe(call);
  });
});
