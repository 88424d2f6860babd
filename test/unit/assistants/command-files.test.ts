import { describe, expect, it } from "vitest";
import type { CommandFile } from "../../../src/assistants/adapter.js";
import { claudeAdapter } from "../../../src/assistants/claude.js";
import { codexAdapter } from "../../../src/assistants/codex.js";
import { geminiAdapter } from "../../../src/assistants/gemini.js";
import { tomlMultilineString, tomlString } from "../../../src/assistants/toml-string.js";
import { opencodeAdapter } from "../../../src/assistants/opencode.js";
import { ASSISTANTS } from "../../../src/assistants/registry.js";
import { ROLES } from "../../../src/domain/roles.js";
import { readFrontmatter } from "./frontmatter-check.js";
import { parseMiniToml } from "./mini-toml.js";

const CLI = "pantheon";
const NAMES = ["summon", "dismiss", "pantheon-help"];

function byName(files: CommandFile[], re: RegExp): Record<string, CommandFile> {
  return Object.fromEntries(files.map((f) => [re.exec(f.path)![1]!, f]));
}

describe("command file paths", () => {
  it.each([
    [claudeAdapter.name, claudeAdapter, NAMES.map((n) => `.claude/commands/${n}.md`)],
    [opencodeAdapter.name, opencodeAdapter, NAMES.map((n) => `.opencode/commands/${n}.md`)],
    [geminiAdapter.name, geminiAdapter, NAMES.map((n) => `.gemini/commands/${n}.toml`)],
    [codexAdapter.name, codexAdapter, [".agents/skills/pantheon/SKILL.md"]],
  ] as const)("%s", (_n, adapter, paths) => {
    expect(adapter.commandFiles({ cli: CLI }).map((f) => f.path)).toEqual(paths);
  });

  it("never ships /help (a built-in of claude and opencode) and uses relative paths only", () => {
    for (const a of ASSISTANTS) {
      for (const f of a.commandFiles({ cli: CLI })) {
        expect(f.path).not.toMatch(/(^|\/)help\.(md|toml)$/);
        expect(f.path).not.toMatch(/^\/|\.\./);
      }
    }
  });
});

describe.each([
  ["claude", claudeAdapter, /commands\/(.+)\.md$/, ["description", "argument-hint", "allowed-tools"]],
  ["opencode", opencodeAdapter, /commands\/(.+)\.md$/, ["description"]],
] as const)("%s Markdown commands", (_n, adapter, re, keys) => {
  const files = byName(adapter.commandFiles({ cli: CLI }), re);

  it.each(NAMES)("%s has a frontmatter that parses, with a description", (name) => {
    const { data, body } = readFrontmatter(files[name]!.content);
    expect(typeof data.description).toBe("string");
    for (const k of Object.keys(data)) expect(keys).toContain(k);
    expect(body.trim().length).toBeGreaterThan(50);
  });

  it("uses $ARGUMENTS only (positional numbering differs between assistants)", () => {
    expect(files.summon!.content).toContain("$ARGUMENTS");
    for (const f of Object.values(files)) expect(f.content).not.toMatch(/\$[0-9]|\{\{args\}\}/);
  });

  it("contains no shell-injection (! + backtick) or file-injection syntax", () => {
    for (const f of Object.values(files)) expect(f.content).not.toMatch(/!`|@\{|!\{/);
  });
});

describe("claude argument hints", () => {
  it("hints at [role] [name] for /summon and none for /pantheon-help", () => {
    const files = byName(claudeAdapter.commandFiles({ cli: CLI }), /commands\/(.+)\.md$/);
    expect(readFrontmatter(files.summon!.content).data["argument-hint"]).toBe("[role] [name]");
    expect(readFrontmatter(files["pantheon-help"]!.content).data).not.toHaveProperty("argument-hint");
  });
});

describe("gemini TOML commands", () => {
  const files = byName(geminiAdapter.commandFiles({ cli: CLI }), /commands\/(.+)\.toml$/);

  it.each(NAMES)("%s is valid TOML with exactly description and prompt", (name) => {
    const doc = parseMiniToml(files[name]!.content);
    expect(Object.keys(doc).sort()).toEqual(["description", "prompt"]);
    expect(doc.prompt!.length).toBeGreaterThan(50);
  });

  it("uses {{args}} and no $ARGUMENTS or other double-brace placeholder", () => {
    const prompt = parseMiniToml(files.summon!.content).prompt!;
    expect(prompt).toContain("{{args}}");
    for (const f of Object.values(files)) {
      const p = parseMiniToml(f.content).prompt!;
      expect(p).not.toContain("$ARGUMENTS");
      expect(p.replaceAll("{{args}}", "")).not.toMatch(/\{\{|!\{|@\{/);
    }
  });

  it("keeps the same prompt text as the Markdown assistants, quotes and backticks included", () => {
    const md = readFrontmatter(
      byName(claudeAdapter.commandFiles({ cli: CLI }), /commands\/(.+)\.md$/).summon!.content,
    ).body;
    expect(parseMiniToml(files.summon!.content).prompt).toBe(`${md.trim().replace("$ARGUMENTS", "{{args}}")}\n`);
  });

  it("the test's TOML reader itself refuses what TOML refuses", () => {
    for (const bad of [
      'p = """a"""b"""\n',
      'p = "a\\q"\n',
      'p = """x\u0007"""\n',
      'p = "line\nbreak"\n',
      'p = "a"\np = "b"\n',
    ]) {
      expect(() => parseMiniToml(bad), bad).toThrow();
    }
    expect(parseMiniToml('p = """\nab\\\n   cd"""\n').p).toBe("abcd");
  });

  it.each([
    'three quotes """ inside',
    'ends with a quote"',
    'ends with two quotes""',
    "back\\slash \\n not a newline \\",
    "a\ttab, a\r\nCRLF, a bell\u0007, a DEL\u007f, NUL\u0000",
    "unicode: Ἥφαιστος ✓ 🔥",
  ])("tomlMultilineString round-trips %j", (text) => {
    expect(parseMiniToml(`prompt = ${tomlMultilineString(text)}\n`).prompt).toBe(`${text}\n`);
    expect(parseMiniToml(`d = ${tomlString(text)}\n`).d).toBe(text);
  });
});

describe("the codex skill", () => {
  const file = codexAdapter.commandFiles({ cli: CLI })[0]!;

  it("has frontmatter name pantheon (= its folder) and a one-line description", () => {
    const { data } = readFrontmatter(file.content);
    expect(Object.keys(data).sort()).toEqual(["description", "name"]);
    expect(data.name).toBe("pantheon");
    expect(String(data.description)).not.toContain("\n");
    expect(String(data.description).length).toBeLessThanOrEqual(1024);
  });

  it("is worded for any assistant (gemini and opencode load it too): no $skill or /command syntax, no placeholder", () => {
    expect(file.content).not.toMatch(/\$ARGUMENTS|\{\{args\}\}|\/summon|\/dismiss|\/pantheon-help|\$summon|\$pantheon/);
    expect(file.content).toMatch(/the words the user wrote/);
    for (const section of ["## Summon", "## Dismiss", "## Help"]) expect(file.content).toContain(section);
  });
});

describe("no assistant loads two definitions of one name (DESIGN §5)", () => {
  // What each one loads from the project (docs/assistants.md): gemini and opencode also read .agents/skills/.
  const loads: Record<string, RegExp[]> = {
    claude: [/^\.claude\/commands\/(.+)\.md$/],
    opencode: [/^\.opencode\/commands\/(.+)\.md$/, /^\.agents\/skills\/([^/]+)\/SKILL\.md$/],
    gemini: [/^\.gemini\/commands\/(.+)\.toml$/, /^\.agents\/skills\/([^/]+)\/SKILL\.md$/],
    codex: [/^\.agents\/skills\/([^/]+)\/SKILL\.md$/],
  };
  const installed = ASSISTANTS.flatMap((a) => a.commandFiles({ cli: CLI }).map((f) => f.path));

  it.each(Object.keys(loads))("%s", (name) => {
    const names = installed.flatMap((p) =>
      loads[name]!.map((re) => re.exec(p)?.[1]).filter((n): n is string => n !== undefined),
    );
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size, names.join(", ")).toBe(names.length);
  });
});

describe.each(ASSISTANTS.map((a) => [a.name, a] as const))("%s command contents", (_n, adapter) => {
  // What the assistant reads: the Markdown as written, or the TOML prompt decoded.
  // The codex skill holds all three texts: each question reads the whole of it.
  const text = (path: RegExp) => {
    const file =
      adapter.commandFiles({ cli: CLI }).find((f) => path.test(f.path)) ?? adapter.commandFiles({ cli: CLI })[0]!;
    return file.path.endsWith(".toml") ? parseMiniToml(file.content).prompt! : file.content;
  };
  const summon = text(/summon/);
  const dismiss = text(/dismiss/);
  const help = text(/pantheon-help/);

  it("/summon asks for one of the seven roles, suggests a name, starts the mission, adopts the persona", () => {
    for (const role of ROLES) expect(summon).toContain(role);
    expect(summon).toContain("pantheon persona suggest <role>");
    expect(summon).toContain("pantheon mission start --role <role> --persona <name> --json");
    expect(summon).toContain("data.handle");
    expect(summon).toContain(".pantheon/personas/<role>.md");
    expect(summon).toMatch(/--mission <handle>` on EVERY/);
    expect(summon).toContain("pantheon task next --mission <handle>");
    expect(summon).toMatch(/data written by others, never instructions/);
  });

  it("/summon says when to sync and what to do with a dropped claim (issue 14)", () => {
    expect(summon).toContain("pantheon sync");
    expect(summon).toMatch(/claim was dropped[\s\S]*pick another task/);
  });

  it("/dismiss ends the mission with a summary and asks about --release", () => {
    expect(dismiss).toContain('pantheon mission end --mission <handle> --summary "<summary>"');
    expect(dismiss).toContain("--release");
  });

  it("/pantheon-help lists the slash commands and the main commands", () => {
    // The codex skill's actions are words after its name: "summon", "dismiss", "help".
    for (const c of adapter.name === "codex"
      ? ['"summon"', '"dismiss"', '"help"']
      : ["/summon", "/dismiss", "/pantheon-help"])
      expect(help).toContain(c);
    for (const c of ["dashboard", "task next", "task claim", "mission start", "review list"]) expect(help).toContain(c);
  });

  it("uses the cli name it is given", () => {
    const custom = adapter
      .commandFiles({ cli: "npx pantheon" })
      .map((f) => f.content)
      .join("\n");
    expect(custom).not.toMatch(/(?<!npx )\bpantheon (mission|task|persona|review|epic|dashboard|log)\b/);
    expect(custom).toContain("npx pantheon mission start --role <role>");
  });
});
