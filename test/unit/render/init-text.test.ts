/** `init`'s report, rendered without a repository (render/ is pure): what each kind of run says. */
import { describe, expect, it } from "vitest";
import { initText, type InitReport } from "../../../src/render/init-text.js";
import { PLAIN as paint, type Style } from "../../../src/render/paint.js";

/** Piped output: no colour, no wrapping. */
const PLAIN: Style = { paint, tty: false, width: 80 };

const report = (over: Partial<InitReport> = {}): InitReport => ({
  project: { name: "demo", roles: ["architect", "engineer"] },
  stateCreated: true,
  adopted: null,
  adoptedRef: null,
  refspecAdded: null,
  refspec: null,
  created: [".pantheon/", ".pantheon/personas/a.md", ".pantheon/personas/b.md", "AGENTS.md"],
  updated: [],
  existing: [],
  leftAlone: [],
  changes: [],
  hook: null,
  hookFile: null,
  hookLine: null,
  mcp: [],
  codexWritableRoots: null,
  ...over,
});
const none = { configFile: null, codexLine: null };

describe("init's report", () => {
  it("the first day: the ✓ line, the files grouped, the commit to make, what next", () => {
    const text = initText(PLAIN, report(), none);
    const lines = text.split("\n");
    expect(lines[0]).toBe('✓ Initialized Pantheon for "demo" on refs/coordination/main');
    expect(lines[1]).toBe("  created .pantheon/ (2 files), AGENTS.md");
    expect(text).toContain('Commit these files: git add .pantheon AGENTS.md && git commit -m "Set up Pantheon"');
    expect(text).toContain("  pantheon summon engineer      start an AI assistant as an engineer persona");
  });

  it("a re-run with --config: the settings it changed, no first-day lines; names escaped", () => {
    const text = initText(
      PLAIN,
      report({
        stateCreated: false,
        project: { name: "de\u001b[31mmo", roles: ["engineer"] },
        created: [],
        existing: ["AGENTS.md"],
        changes: [{ key: "project.name", from: "a", to: "b" }],
      }),
      { configFile: "pantheon.yaml", codexLine: null },
    );
    expect(text.split("\n").slice(0, 3)).toEqual([
      '✓ Pantheon is already set up for "de\\e[31mmo"; applied pantheon.yaml:',
      "  project.name: a → b",
      "  kept    AGENTS.md",
    ]);
    expect(text).not.toContain("Next:");
    expect(text).not.toContain("\u001b");
  });

  it("a hook in shared code: the line to add, whole; codex's writable roots on the first day", () => {
    const text = initText(
      PLAIN,
      report({
        hook: "manual",
        hookFile: ".husky/commit-msg",
        hookLine: 'pantheon hook commit-msg "$1"',
        codexWritableRoots: ["/r/.git/pantheon"],
      }),
      { configFile: null, codexLine: 'writable_roots = ["/r/.git/pantheon"]' },
    );
    expect(text).toContain('Add this line to .husky/commit-msg:\n    pantheon hook commit-msg "$1"');
    expect(text).toContain('  [sandbox_workspace_write]\n  writable_roots = ["/r/.git/pantheon"]');
  });
});
