import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeRepo } from "../../helpers/repo.js";
import { repo } from "./fixture.js";
import { configFile, requireBundle, standIns } from "./stand-ins.js";

/**
 * Issue 12 point 10: raw control characters from records were written into the files Pantheon
 * writes from record text: a task's planning file, a summoned persona's instructions, the
 * project files `init` renders from the project record (which may be a teammate's, adopted
 * from the remote). Each now shows them escaped (`\e`, `\u{9b}`), keeping line breaks and tabs
 * where multi-line text needs them.
 */

const ESC_SGR = "\u001b[31m";
const OSC_TITLE = "\u001b]0;pwned\u0007";
const C1_CSI = "\u009b2J";
/** With NEL and the line and paragraph separators, which many editors and renderers break lines at. */
const OTHERS = "\u0008\u0000\r\u007f\u202e\u0085\u2028\u2029\u061c";
/** Any control character except newline and tab, C1 controls, line separators, bidi marks. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const OTHERS_SHOWN = "\\u{8}\\u{0}\\r\\u{7f}\\u{202e}\\u{85}\\u{2028}\\u{2029}\\u{61c}";

const TITLE = `Fix ${ESC_SGR}login${OSC_TITLE} now${C1_CSI}${OTHERS}`;
const DESCRIPTION = `First line ${ESC_SGR}red\n\tindented ${C1_CSI}\r\nlast ${OTHERS}`;
const NOTE = `handing over ${OSC_TITLE} ${ESC_SGR}`;

function expectNoRaw(text: string, what: string): void {
  const at = text.search(RAW);
  expect(
    at,
    `${what} holds a raw control character near: ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`,
  ).toBe(-1);
}

describe("control characters from records in the files Pantheon writes", () => {
  beforeAll(requireBundle);

  it("task plan, summon's persona file and init's project files show them escaped; line breaks and tabs stay", async () => {
    const dir = makeRepo();
    const p = repo(dir);
    // YAML double quotes turn \e and \x9b into the raw characters.
    await p.ok([
      "init",
      "--config",
      configFile(`project:\n  name: "Shop\\e[2J\\x9b\\L"\n  description: "An \\e]0;x\\a shop\\P"\n`),
    ]);
    for (const f of readdirSync(join(dir, ".pantheon"), { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    )) {
      expectNoRaw(readFileSync(join(f.parentPath, f.name), "utf8"), `init's ${f.name}`);
    }
    expect(readFileSync(join(dir, ".pantheon", "personas", "engineer.md"), "utf8")).toContain(
      "Shop\\e[2J\\u{9b}\\u{2028}",
    );

    const t = await p.json(
      ["task", "create", "--title", TITLE, "--role", "engineer", "--description", DESCRIPTION],
      "task",
    );
    await p.ok(["task", "note", t.id, NOTE]);

    await p.ok(["task", "plan", t.id]);
    const planText = readFileSync(join(dir, ".pantheon", "planning", `${t.id}.md`), "utf8");
    expectNoRaw(planText, "the planning file");
    expect(planText.split("\n")[0]).toBe(
      `# Plan for ${t.id}: Fix \\e[31mlogin\\e]0;pwned\\u{7} now\\u{9b}2J${OTHERS_SHOWN}`,
    );
    expect(planText).toContain(`First line \\e[31mred\n\tindented \\u{9b}2J\nlast ${OTHERS_SHOWN}`);

    const s = standIns();
    const r = await p.run(["summon", "engineer", "--assistant", "claude", "--task", t.id], s.env());
    expect(r.exitCode, r.stderr).toBe(0);
    const rec = s.one("claude");
    const persona = rec.personaFileContent!;
    expectNoRaw(persona, "the persona file");
    // The brief quotes the task's title (its description and notes stay for `task show`).
    expect(persona).toContain(": Fix \\e[31mlogin\\e]0;pwned\\u{7} now");
    expect(persona).toContain("Shop\\e[2J\\u{9b}\\u{2028}");
    for (const a of rec.argv) expectNoRaw(a, "the assistant's argv");
    const sessions = join(dir, ".git", "pantheon", "sessions");
    const kept = existsSync(sessions)
      ? readdirSync(sessions, { recursive: true, withFileTypes: true }).filter((f) => f.isFile())
      : [];
    for (const f of kept) expectNoRaw(readFileSync(join(f.parentPath, f.name), "utf8"), `the session file ${f.name}`);
  });
});
