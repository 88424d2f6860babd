/**
 * A tree entry's name is any bytes but NUL and "/": a collaborator with push access can name a
 * stray entry in the state with a CSI (U+009B), a bidi override and a line break. Commands that
 * list records warn about stray entries by path on stderr (a terminal); the name must be shown
 * escaped there, as doctor shows it (docs/security.md, "Onto a terminal"). Found by the issue 12
 * verification: the warning replaced C0 controls only, so C1 controls, bidi marks and the line
 * break (which forged a line of output) reached the terminal raw.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF } from "../../helpers/clones.js";
import { testEnv } from "../../helpers/env.js";

const EVIL_NAME = "notes\u009b2J\u202eX\nforged ✓ Created";
/** Bytes that drive a terminal or reorder text, and line breaks inside a warning. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function gitIn(gitDir: string, args: string[], input?: string): string {
  return execFileSync("git", [`--git-dir=${gitDir}`, ...args], {
    env: testEnv(),
    encoding: "utf8",
    input: input ?? "",
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Adds a blob named `name` inside tasks/01 of the origin's state (mktree -z takes any name). */
function plantStray(origin: string, name: string): void {
  const parent = gitIn(origin, ["rev-parse", REF]).trim();
  const blob = gitIn(origin, ["hash-object", "-w", "--stdin"], "scribbles\n").trim();
  const shard = gitIn(origin, ["ls-tree", "-z", `${REF}:tasks/01`]) + `100644 blob ${blob}\t${name}\0`;
  const shardTree = gitIn(origin, ["mktree", "-z"], shard).trim();
  const tasks =
    gitIn(origin, ["ls-tree", "-z", `${REF}:tasks`])
      .split("\0")
      .filter((l) => l && !l.endsWith("\t01"))
      .map((l) => `${l}\0`)
      .join("") + `040000 tree ${shardTree}\t01\0`;
  const tasksTree = gitIn(origin, ["mktree", "-z"], tasks).trim();
  const top =
    gitIn(origin, ["ls-tree", "-z", REF])
      .split("\0")
      .filter((l) => l && !l.endsWith("\ttasks"))
      .map((l) => `${l}\0`)
      .join("") + `040000 tree ${tasksTree}\ttasks\0`;
  const tree = gitIn(origin, ["mktree", "-z"], top).trim();
  const commit = gitIn(origin, ["commit-tree", tree, "-p", parent, "-m", "a teammate's change"]).trim();
  gitIn(origin, ["update-ref", REF, commit, parent]);
}

describe("a stray entry whose name carries terminal controls and a line break", () => {
  it("task list, dashboard and report warn about it escaped, on one line; the warning still names it", async () => {
    const { origin, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    await c.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    await c.ok(["sync"]);
    plantStray(origin, EVIL_NAME);
    await c.ok(["sync"]);
    for (const argv of [["task", "list"], ["dashboard"], ["task", "report"]]) {
      const r = await c.ok(argv);
      const label = `pantheon ${argv.join(" ")}`;
      const warnings = r.stderr.split("\n").filter((l) => l.includes("stray"));
      expect(warnings, `${label} warns about the stray entry:\n${r.stderr}`).toHaveLength(1);
      expect(warnings[0], label).toContain("notes\\u{9b}2J\\u{202e}X\\nforged");
      expect(r.stderr, `${label}: no raw control in stderr`).not.toMatch(RAW);
      expect(
        r.stderr.split("\n").some((l) => l.startsWith("forged")),
        `${label}: no forged line`,
      ).toBe(false);
    }
  });
});
