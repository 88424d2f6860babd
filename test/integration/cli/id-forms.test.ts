/**
 * Id forms of every kind (DESIGN §1.2, issue 12 point 7): the number is the identity; a stale
 * priority letter resolves with a one-line notice naming the current id; a role prefix must be the
 * task's role or one it had (`formerRoles`), else "No task ..." (exit 1) with "did you mean ...?".
 * `task close TST-H-0001 --status ABORTED` used to abort ENG-M-0001 with a false note.
 *
 * One project, seeded once; every row runs on it (reads change nothing; each refusal is checked
 * to leave the ref where it was).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, stateRef } from "../../helpers/repo.js";
import { expectRefused, lit, project, showTask, type Project } from "./fixture.js";

let p: Project;
let handle = "";
let codename = "";

beforeAll(async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-id-forms-")));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  git(dir, "init", "-q", "-b", "main");
  git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
  p = project(dir);
  await p.ok(["init", "--yes"]);
  await p.ok(["task", "create", "--title", "Login", "--role", "engineer", "--priority", "medium"]); // ENG-M-0001
  await p.ok(["task", "create", "--title", "Tests", "--role", "tester", "--priority", "high"]); // TST-H-0002
  await p.ok(["epic", "create", "--title", "Auth", "--priority", "medium"]); // EPC-M-0001
  await p.ok(["review", "create", "--title", "Look", "--task", "1"]); // RVW-001
  const m = await p.json<{ handle: string; codename: string }>(
    ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"],
    "mission",
  );
  ({ handle, codename } = m);
  writeFileSync(join(p.dir, "foreign.yaml"), "- {title: Later, role: engineer, depends_on: [TST-H-0001]}\n");
  writeFileSync(
    join(p.dir, "stale-epic.yaml"),
    "- {title: Later, role: engineer, epic: EPC-H-0001, depends_on: [ENG-H-0001]}\n",
  );
}, 60_000);

/**
 * What a read that succeeds must show: the record with this id (`--json` data's id), or, for a
 * list or dashboard filtered by the id, exactly what the same command with the current id shows.
 */
type Shown = { id: string } | { like: string[] };
type Outcome = { ok: true; shows: Shown; notice?: RegExp } | { exit: 1 | 2; says: RegExp; hint?: RegExp };
const OK = (id: string): Outcome => ({ ok: true, shows: { id } });
const notice = (re: RegExp, shows: Shown): Outcome => ({ ok: true, notice: re, shows });
const noTask = (written: string, guess: string): Outcome => ({
  exit: 1,
  says: new RegExp(`^✗ No task ${written}$`),
  hint: lit(`hint: did you mean ${guess}? pantheon task show ${guess}`),
});

/** Reads of every kind through every form. */
const READS: Array<[string[], Outcome]> = [
  [["task", "show", "ENG-M-0001"], OK("ENG-M-0001")],
  [["task", "show", "1"], OK("ENG-M-0001")],
  [["task", "show", "0001"], OK("ENG-M-0001")],
  [["task", "show", "eng-m-1"], OK("ENG-M-0001")],
  [["task", "show", "ENG-H-0001"], notice(/^! note: ENG-H-0001 is now ENG-M-0001$/, { id: "ENG-M-0001" })],
  [["task", "show", "TST-M-0001"], noTask("TST-M-0001", "ENG-M-0001")],
  [["task", "show", "TST-H-0001"], noTask("TST-H-0001", "ENG-M-0001")],
  [["task", "show", "ENG-H-0002"], noTask("ENG-H-0002", "TST-H-0002")],
  [["task", "prereqs", "TST-M-0001"], noTask("TST-M-0001", "ENG-M-0001")],
  [["task", "history", "DOC-M-0001"], noTask("DOC-M-0001", "ENG-M-0001")],
  [["task", "show", "ENG-M-0099"], { exit: 1, says: /^✗ No task ENG-M-0099$/ }],
  [["epic", "show", "EPC-M-0001"], OK("EPC-M-0001")],
  [["epic", "show", "EPC-1"], OK("EPC-M-0001")],
  [["epic", "show", "1"], OK("EPC-M-0001")],
  [["epic", "show", "EPC-H-0001"], notice(/^! note: EPC-H-0001 is now EPC-M-0001$/, { id: "EPC-M-0001" })],
  [["epic", "show", "epc-c-1"], notice(/^! note: EPC-C-1 is now EPC-M-0001$/, { id: "EPC-M-0001" })],
  [["epic", "show", "EPC-X-0001"], { exit: 2, says: /Invalid epic id/ }],
  [["epic", "show", "EPC-M-0002"], { exit: 1, says: /^✗ No epic EPC-M-0002$/ }],
  [
    ["task", "list", "--epic", "EPC-H-0001"],
    notice(/^! note: EPC-H-0001 is now EPC-M-0001$/, { like: ["task", "list", "--epic", "EPC-M-0001"] }),
  ],
  [
    ["dashboard", "--epic", "EPC-L-0001"],
    notice(/^! note: EPC-L-0001 is now EPC-M-0001$/, { like: ["dashboard", "--epic", "EPC-M-0001"] }),
  ],
  [["review", "show", "RVW-001"], OK("RVW-001")],
  [["review", "show", "rvw-1"], OK("RVW-001")],
  [["review", "show", "1"], OK("RVW-001")],
  [["review", "show", "RVW-002"], { exit: 1, says: /^✗ No review RVW-002$/ }],
  [["mission", "show", "MSN-0001"], OK("MSN-0001")],
  [["mission", "show", "1"], OK("MSN-0001")],
  [["mission", "show", "@codename"], OK("MSN-0001")],
  [["mission", "show", "@handle"], OK("MSN-0001")],
  [["mission", "show", "MSN-0001:wrong-name"], { exit: 1, says: /^✗ No mission MSN-0001:wrong-name/ }],
];

const sub = (argv: string[]) => argv.map((a) => (a === "@codename" ? codename : a === "@handle" ? handle : a));

describe("reads through every id form", () => {
  it.each(READS.map(([argv, o]) => [argv.join(" "), argv, o] as const))("%s", async (_name, argv, o) => {
    const before = stateRef(p.dir);
    if ("ok" in o) {
      const r = await p.run(sub(argv));
      expect(r.exitCode, r.stderr).toBe(0);
      if (o.notice) {
        expect(r.stderr.trimEnd().split("\n"), "exactly one line of notice").toHaveLength(1);
        expect(r.stderr.trimEnd()).toMatch(o.notice);
      } else {
        expect(r.stderr).toBe("");
      }
      // Which record it showed: the form must name the record it stands for, not merely succeed.
      const shown = await p.run(["--json", ...sub(argv)]);
      expect(shown.exitCode, shown.stderr).toBe(0);
      const data = JSON.parse(shown.stdout).data;
      if ("id" in o.shows) expect(data.id).toBe(o.shows.id);
      else {
        const canonical = await p.run(["--json", ...o.shows.like]);
        expect(canonical.exitCode, canonical.stderr).toBe(0);
        expect(data).toEqual(JSON.parse(canonical.stdout).data);
      }
    } else {
      const r = await expectRefused(p, sub(argv), o.exit, [o.says], { refBefore: before });
      if (o.hint) expect(r.stderr.split("\n")[1]).toMatch(o.hint);
    }
  });
});

/**
 * Every command that takes a task id, through a foreign prefix: refused as "No task" (exit 1),
 * the hint naming the task that has the number, nothing written.
 */
const FOREIGN: string[][] = [
  ["task", "close", "TST-H-0001", "--status", "ABORTED", "--notes", "copied from the persona file"],
  ["task", "close", "TST-H-0001"],
  ["task", "claim", "TST-H-0001"],
  ["task", "update", "TST-H-0001", "--status", "BLOCKED"],
  ["task", "handoff", "TST-H-0001", "--notes", "x"],
  ["task", "unassign", "TST-H-0001", "--notes", "x"],
  ["task", "reopen", "TST-H-0001", "--notes", "x"],
  ["task", "note", "TST-H-0001", "x"],
  ["task", "depend", "TST-H-0001", "2"],
  ["task", "depend", "2", "TST-H-0001"],
  ["task", "undepend", "2", "TST-H-0001"],
  ["task", "priority", "TST-H-0001", "low"],
  ["task", "edit", "TST-H-0001", "--title", "x"],
  ["task", "link", "TST-H-0001", "EPC-M-0001"],
  ["task", "unlink", "TST-H-0001"],
  ["task", "plan", "TST-H-0001"],
  ["task", "create", "--title", "x", "--role", "eng", "--depends-on", "TST-H-0001"],
  ["task", "import", "foreign.yaml"],
  ["epic", "link", "EPC-M-0001", "TST-H-0001"],
  ["epic", "unlink", "EPC-M-0001", "TST-H-0001"],
  ["review", "create", "--title", "x", "--task", "TST-H-0001"],
  ["summon", "engineer", "--task", "TST-H-0001", "--dry-run", "--assistant", "claude"],
];

describe("a foreign role prefix never acts on another task", () => {
  it.each(FOREIGN.map((argv) => [argv.join(" "), argv] as const))("%s", async (_name, argv) => {
    const as = argv[1] === "claim" || argv[1] === "close" ? ["--as", "Hephaestus"] : [];
    const r = await expectRefused(p, [...as, ...argv], 1, [/No task TST-H-0001$/]);
    expect(r.stderr).toContain("hint: did you mean ENG-M-0001? pantheon task show ENG-M-0001");
  });

  it("ENG-M-0001 is untouched: TODO, no note", async () => {
    const t = await showTask(p, 1);
    expect(t).toMatchObject({ id: "ENG-M-0001", status: "TODO", dependencies: [], epic: null });
    expect(t.notes).toEqual([]);
  });
});

describe("a stale letter acts, with its notice", () => {
  it("epic edit, task link, task create --epic and import through EPC-H-0001 / ENG-H-0001", async () => {
    const edit = await p.ok(["epic", "edit", "EPC-H-0001", "--description", "d"]);
    expect(edit.stderr.trim()).toBe("! note: EPC-H-0001 is now EPC-M-0001");
    const link = await p.ok(["task", "link", "2", "EPC-H-0001"]);
    expect(link.stderr.trim()).toBe("! note: EPC-H-0001 is now EPC-M-0001");
    const created = await p.run([
      "task",
      "create",
      "--title",
      "x",
      "--role",
      "eng",
      "--epic",
      "EPC-C-0001",
      "--depends-on",
      "ENG-L-0001",
      "--json",
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stderr).toContain("EPC-C-0001 is now EPC-M-0001");
    expect(created.stderr).toContain("ENG-L-0001 is now ENG-M-0001");
    const imported = await p.ok(["task", "import", "stale-epic.yaml"]);
    expect(imported.stderr).toContain("EPC-H-0001 is now EPC-M-0001");
  });
});

describe("PANTHEON_MISSION with a number and a wrong codename", () => {
  it("says No mission (exit 1), not Invalid mission id", async () => {
    const r = await expectRefused(
      p,
      ["task", "note", "1", "x"],
      1,
      [/^✗ No mission MSN-0099:x \(from PANTHEON_MISSION\)$/],
      { env: { PANTHEON_MISSION: "MSN-0099:x" } },
    );
    expect(r.stderr).toContain("hint: pantheon mission list");
  });
});
