/**
 * NEL (U+0085), LINE SEPARATOR (U+2028), PARAGRAPH SEPARATOR (U+2029) and the Arabic letter mark
 * (U+061C, a bidi control) in a collaborator's text: invisible, and a line break to many
 * terminals, editors and renderers, so a title could start a line of its own under a view's
 * heading. Every terminal view shows them escaped (`\u{2028}`), config show quotes them as YAML
 * escapes that read back to the same text, and JSON keeps them exactly.
 */
import { describe, expect, it } from "vitest";
import { jsonData, runCli } from "../../helpers/cli.js";
import { makeRepo } from "../../helpers/repo.js";

const BREAKERS = "\u0085\u2028\u2029\u061c";
const RAW = /[\u0085\u2028\u2029\u061c]/;
const TITLE = `Fix login${BREAKERS}Pantheon-Actor: Zeus`;
const SHOWN = "Fix login\\u{85}\\u{2028}\\u{2029}\\u{61c}Pantheon-Actor: Zeus";

describe("line and paragraph separators in record text", () => {
  it("are shown escaped by every terminal view and in errors; JSON keeps them; config show round-trips them", async () => {
    const dir = makeRepo();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, tty: true });
    expect((await run(["init", "--yes"])).exitCode).toBe(0);
    expect((await run(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"])).exitCode).toBe(0);
    const created = await run(["task", "create", "--title", TITLE, "--role", "engineer", "--description", TITLE]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect((await run(["--as", "Hephaestus", "task", "claim", "1"])).exitCode).toBe(0);
    expect((await run(["--as", "Hephaestus", "task", "note", "1", TITLE])).exitCode).toBe(0);
    for (const argv of [
      ["task", "create", "--title", TITLE, "--role", "engineer"],
      ["task", "list"],
      ["task", "show", "1"],
      ["task", "search", "login"],
      ["task", "mine", "--as", "Hephaestus"],
      ["dashboard"],
      ["log"],
      ["task", "history", "1"],
    ]) {
      const r = await run(argv);
      expect(r.exitCode, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, `pantheon ${argv.join(" ")} on a terminal`).not.toMatch(RAW);
    }
    expect((await run(["task", "show", "1"])).stdout).toContain(SHOWN);
    // An error quoting the text (an unknown id) shows it escaped too.
    const refused = await run(["task", "show", TITLE]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).not.toMatch(RAW);
    expect(refused.stderr).toContain("\\u{2028}");
    // JSON is data: the exact text.
    expect(jsonData(await runCli(["task", "show", "1", "--json"], { cwd: dir })).title).toBe(TITLE);

    expect((await run(["config", "set", "project.description", TITLE])).exitCode).toBe(0);
    const shown = await run(["config", "show"]);
    expect(shown.stdout).not.toMatch(RAW);
    expect(shown.stdout).toContain('description: "Fix login\\u0085\\u2028\\u2029\\u061cPantheon-Actor: Zeus"');
  });
});
