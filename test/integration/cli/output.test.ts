import { describe, expect, it } from "vitest";
import type { CliResult } from "../../helpers/cli.js";
import { runCli } from "../../helpers/cli.js";
import { makeRepo, stateRef, tempDir } from "../../helpers/repo.js";
import { DAEDALUS, HEPH, project, showTask, ZEUS, type Project } from "./fixture.js";

/** DESIGN §4.2: stdout is the result (one JSON document with --json), stderr the chatter. */

const TASK_ID = /^(ARC|ENG|TST|DOC|INS|OPR)-[CHML]-\d{4,}$/;
const MISSION_ID = /^MSN-\d{4,}$/;

/** Exactly one JSON document on stdout, with the envelope; returns it. */
function oneDocument(
  r: CliResult,
  kind: string,
  label: string,
): { schemaVersion: number; kind: string; data: any; changed?: any[] } {
  expect(r.exitCode, `${label}\n${r.stderr}`).toBe(0);
  expect(r.stdout.endsWith("\n"), label).toBe(true);
  expect(r.stdout.trimEnd().includes("\n"), `${label}: one line, one document`).toBe(false);
  expect(r.stdout, `${label}: never coloured`).not.toContain("\u001b");
  const doc = JSON.parse(r.stdout);
  expect(
    Object.keys(doc)
      // Beside data: other records changed, and whether a publishing command published (DESIGN §3.5).
      .filter((k) => !["changed", "published", "publishedReason"].includes(k))
      .sort(),
    label,
  ).toEqual(["data", "kind", "schemaVersion"]);
  expect(doc.schemaVersion, label).toBe(1);
  expect(doc.kind, label).toBe(kind);
  return doc;
}

/** Every record reference in a task view is an id string, never a bare number. */
function expectTaskRefs(t: any, label: string): void {
  expect(t.id, label).toMatch(TASK_ID);
  expect(typeof t.number, label).toBe("number");
  for (const k of ["dependencies", "blockedBy", "waitingOnReview"]) {
    expect(Array.isArray(t[k]), `${label}.${k}`).toBe(true);
    for (const v of t[k]) expect(v, `${label}.${k}`).toMatch(TASK_ID);
  }
  if (t.mission !== null) expect(t.mission, `${label}.mission`).toMatch(MISSION_ID);
  if (t.epic !== null) expect(t.epic, `${label}.epic`).toMatch(/^EPC-[CHML]-\d{4,}$/);
  for (const k of ["formerIds"]) if (k in t) for (const v of t[k]) expect(v, `${label}.${k}`).toMatch(TASK_ID);
}

async function seeded(): Promise<Project> {
  const p = project(makeRepo());
  await p.ok(["init", "--yes"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
  await p.ok(["mission", "start", "--role", "administrator", "--persona", "Zeus"]);
  return p;
}

describe("--json: one document per command, with the documented kind", () => {
  it("every command", async () => {
    const dir = makeRepo();
    const p = project(dir);
    const cases: [string[], string][] = [
      [["init", "--yes"], "init"],
      [["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission"],
      [["mission", "start", "--role", "eng", "--persona", "Daedalus"], "mission"],
      [["mission", "start", "--role", "administrator"], "mission"],
      [["mission", "list"], "missions"],
      [["mission", "list", "--active"], "missions"],
      [["mission", "show", "MSN-0001"], "mission"],
      [["persona", "list"], "personas"],
      [["persona", "list", "--role", "tester"], "personas"],
      [["task", "create", "--title", "Design", "--role", "eng", "--priority", "high"], "task"],
      [["task", "create", "--title", "Build", "--role", "eng", "--depends-on", "ENG-H-0001"], "task"],
      [["task", "show", "ENG-H-0001"], "task"],
      [["task", "list"], "tasks"],
      [["task", "list", "--status", "todo", "--limit", "1"], "tasks"],
      [[...HEPH, "task", "claim", "1"], "task"],
      [[...HEPH, "task", "update", "1", "--status", "BLOCKED", "--notes", "keys"], "task"],
      [[...HEPH, "task", "update", "1", "--status", "UNDERWAY"], "task"],
      [[...HEPH, "task", "update", "1", "--status", "REVIEW"], "task"],
      [["task", "note", "1", "a note"], "task"],
      [["task", "priority", "2", "low"], "task"],
      [["task", "edit", "2", "--title", "Build it"], "task"],
      [["task", "undepend", "2", "1"], "task"],
      [["task", "depend", "2", "1"], "task"],
      [[...HEPH, "task", "close", "1"], "task"],
      [["task", "reopen", "1", "--notes", "again"], "task"],
      [["task", "undepend", "2", "ENG-H-0001"], "task"],
      [[...DAEDALUS, "task", "claim", "2"], "task"],
      [[...DAEDALUS, "task", "handoff", "2", "--notes", "yours"], "task"],
      [["task", "unassign", "2", "--notes", "back"], "task"],
      [["task", "close", "2", "--status", "ABORTED", "--notes", "dropped"], "task"],
      [["mission", "end", "MSN-0002", "--release"], "mission"],
    ];
    for (const [argv, kind] of cases) {
      const label = `pantheon ${argv.join(" ")} --json`;
      const r = await p.run([...argv, "--json"]);
      const doc = oneDocument(r, kind, label);
      expect(r.stderr, `${label}: nothing on stderr`).toBe("");
      if (kind === "task") expectTaskRefs(doc.data, label);
      if (kind === "tasks") for (const t of doc.data) expectTaskRefs(t, label);
      if (kind === "mission") expect(doc.data.id, label).toMatch(MISSION_ID);
      if (kind === "missions") for (const m of doc.data) expect(m.id, label).toMatch(MISSION_ID);
      if (kind === "personas") expect(Array.isArray(doc.data), label).toBe(true);
    }
  });

  it("task references are ids: dependencies, blockedBy, waitingOnReview, mission", async () => {
    const p = await seeded();
    await p.ok(["task", "create", "--title", "Design", "--role", "eng", "--priority", "high"]);
    await p.ok(["task", "create", "--title", "Spec", "--role", "eng", "--priority", "critical"]);
    await p.ok([
      "task",
      "create",
      "--title",
      "Build",
      "--role",
      "eng",
      "--depends-on",
      "1",
      "--depends-on",
      "ENG-C-0002",
    ]);
    await p.ok([...HEPH, "task", "claim", "1"]);
    await p.ok([...HEPH, "task", "update", "1", "--status", "REVIEW"]);
    const t = await showTask(p, 3);
    expect(t).toMatchObject({
      dependencies: ["ENG-H-0001", "ENG-C-0002"],
      blockedBy: ["ENG-C-0002"],
      waitingOnReview: ["ENG-H-0001"],
    });
    expect(await showTask(p, 1)).toMatchObject({ mission: "MSN-0001", claimedBy: "Hephaestus" });
    const m = await p.json(["mission", "show", "MSN-0001"], "mission");
    expect(m.claims.map((c: { id: string }) => c.id)).toEqual(["ENG-H-0001"]);
    const list = await p.json(["task", "list"], "tasks");
    for (const item of list) expectTaskRefs(item, "task list");
  });

  it("task show has description, notes, formerIds and allowedActions; list items are summaries", async () => {
    const p = await seeded();
    await p.ok(["task", "create", "--title", "Design", "--role", "eng", "--description", "the details"]);
    await p.ok(["task", "note", "1", "first note"]);
    const shown = await showTask(p, 1);
    expect(shown).toMatchObject({ description: "the details", formerIds: [] });
    expect(shown.notes).toHaveLength(1);
    expect(shown.notes[0]).toMatchObject({ kind: "note", by: "Director", text: "first note" });
    expect(typeof shown.notes[0].id).toBe("string");
    expect(Array.isArray(shown.allowedActions)).toBe(true);
    for (const k of [
      "id",
      "number",
      "title",
      "role",
      "priority",
      "status",
      "dependencies",
      "blockedBy",
      "waitingOnReview",
      "epic",
      "claimedBy",
      "mission",
      "completedBy",
      "createdAt",
      "updatedAt",
    ]) {
      expect(shown, k).toHaveProperty(k);
    }
    // allowedActions follow the actor.
    expect((await showTask(p, 1, HEPH)).allowedActions).toContain("claim");
    expect(shown.allowedActions).not.toContain("claim");
    const [item] = await p.json(["task", "list"], "tasks");
    for (const k of ["description", "notes", "formerIds", "allowedActions"]) expect(item, k).not.toHaveProperty(k);
    expect(item.id).toBe("ENG-M-0001");
  });

  it("a mutation that changes other records lists them under a top-level changed, as ids", async () => {
    const p = await seeded();
    await p.ok(["task", "create", "--title", "One", "--role", "eng"]);
    await p.ok([...HEPH, "task", "claim", "1"]);
    const doc = oneDocument(
      await p.run(["mission", "end", "MSN-0001", "--release", "--json"]),
      "mission",
      "mission end --release",
    );
    expect(doc.changed?.map((c: { id: string }) => c.id)).toEqual(["ENG-M-0001"]);
  });
});

describe("human output", () => {
  it("every mutation's first line starts with ✓ and names the record", async () => {
    const p = await seeded();
    const cases: [string[], RegExp][] = [
      [["task", "create", "--title", "Design", "--role", "eng"], /ENG-M-0001/],
      [["task", "create", "--title", "Build", "--role", "eng"], /ENG-M-0002/],
      [[...HEPH, "task", "claim", "1"], /ENG-M-0001/],
      [[...HEPH, "task", "update", "1", "--status", "REVIEW"], /ENG-M-0001/],
      [[...HEPH, "task", "update", "1", "--status", "UNDERWAY"], /ENG-M-0001/],
      [[...HEPH, "task", "update", "1", "--status", "BLOCKED", "--notes", "x"], /ENG-M-0001/],
      [["task", "note", "1", "hello"], /ENG-M-0001/],
      [["task", "depend", "2", "1"], /ENG-M-0002/],
      [["task", "undepend", "2", "1"], /ENG-M-0002/],
      [["task", "priority", "2", "high"], /ENG-H-0002/],
      [["task", "edit", "2", "--description", "more"], /ENG-H-0002/],
      [[...HEPH, "task", "handoff", "1", "--notes", "yours"], /ENG-M-0001/],
      [[...DAEDALUS, "task", "claim", "1"], /ENG-M-0001/],
      [[...ZEUS, "task", "unassign", "1", "--notes", "back"], /ENG-M-0001/],
      [[...DAEDALUS, "task", "claim", "1"], /ENG-M-0001/],
      [[...DAEDALUS, "task", "close", "1"], /ENG-M-0001/],
      [["task", "reopen", "1", "--notes", "again"], /ENG-M-0001/],
      [["task", "close", "1", "--status", "ABORTED", "--notes", "no"], /ENG-M-0001/],
      [["mission", "start", "--role", "tester", "--persona", "Artemis"], /MSN-0004/],
      [["mission", "end", "MSN-0004"], /MSN-0004/],
    ];
    for (const [argv, names] of cases) {
      const r = await p.ok(argv);
      const first = r.stdout.split("\n")[0]!;
      expect(first, argv.join(" ")).toMatch(/^✓ /);
      expect(first, argv.join(" ")).toMatch(names);
    }
    const init = await runCli(["init", "--yes"], { cwd: makeRepo() });
    expect(init.stdout).toMatch(/^✓ /);
  });

  it("reads print tab-separated lines off a terminal and an aligned table on one", async () => {
    const p = await seeded();
    await p.ok(["task", "create", "--title", "Design the flow", "--role", "eng"]);
    await p.ok(["task", "create", "--title", "Build", "--role", "tester"]);
    const plain = await p.ok(["task", "list"]);
    const rows = plain.stdout.trimEnd().split("\n");
    expect(rows, "a header row, then the tasks").toHaveLength(3);
    expect(rows[0]!.split("\t")).toEqual(["ID", "STATUS", "TITLE", "CLAIMED BY", "BLOCKED BY"]);
    expect(rows[1]!.split("\t")[0]).toBe("ENG-M-0001");
    expect(rows[2]!.split("\t")[0]).toBe("TST-M-0002");
    const bare = (await p.ok(["--no-headers", "task", "list"])).stdout.trimEnd().split("\n");
    expect(bare, "--no-headers drops it").toEqual(rows.slice(1));
    const table = await p.ok(["task", "list"], { tty: true });
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+STATUS/);
    expect(table.stdout).not.toContain("\t");
  });

  it("-q prints only the ✓ line of a mutation", async () => {
    const p = await seeded();
    await p.ok(["task", "create", "--title", "Design", "--role", "eng"]);
    const r = await p.ok(["-q", ...HEPH, "task", "claim", "1"]);
    expect(r.stdout).toMatch(/^✓ [^\n]*\n$/);
  });
});

describe("errors", () => {
  it("--json errors are one document on stderr, nothing on stdout", async () => {
    const p = await seeded();
    await p.ok(["task", "create", "--title", "Design", "--role", "eng"]);
    const outside = tempDir();
    const uninitialised = makeRepo();
    const cases: [string, string[], string, number, string?][] = [
      ["usage", ["task", "list", "--wat"], "E_USAGE", 2],
      ["bad value", ["task", "create", "--title", "x", "--role", "wizard"], "E_USAGE", 2],
      ["not found", ["task", "show", "999"], "E_NOT_FOUND", 1],
      ["refused", ["task", "claim", "1"], "E_INVALID_TRANSITION", 1],
      ["not a repository", ["task", "list"], "E_NOT_A_REPO", 1, outside],
      ["no state yet", ["task", "list"], "E_NOT_INITIALIZED", 1, uninitialised],
    ];
    for (const [label, argv, code, exit, cwd] of cases) {
      const before = stateRef(p.dir);
      const r = await runCli([...argv, "--json"], { cwd: cwd ?? p.dir });
      expect(r.exitCode, label).toBe(exit);
      expect(r.stdout, label).toBe("");
      expect(r.stderr.trimEnd().includes("\n"), `${label}: one line`).toBe(false);
      const doc = JSON.parse(r.stderr);
      expect(Object.keys(doc), label).toEqual(["error"]);
      expect(doc.error.code, label).toBe(code);
      expect(typeof doc.error.message, label).toBe("string");
      expect(typeof doc.error.hint, label).toBe("string");
      expect(doc.error.hint.length, label).toBeGreaterThan(0);
      expect(stateRef(p.dir), label).toBe(before);
    }
  });
});

describe("text from records cannot drive the terminal", () => {
  const EVIL =
    "Fix \u001b[31mred\u001b[0m and \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 \u009b2J \u202egnp.exe";

  it("is escaped on a terminal (tty, NO_COLOR) and round-trips exactly in JSON", async () => {
    const p = await seeded();
    const created = await p.run(["task", "create", "--title", EVIL, "--role", "eng", "--description", EVIL], {
      tty: true,
    });
    expect(created.exitCode, created.stderr).toBe(0);
    await p.ok(["task", "note", "1", EVIL], { tty: true });
    await p.ok([...HEPH, "task", "claim", "1"], { tty: true });
    const outputs = [
      created,
      await p.ok(["task", "show", "1"], { tty: true }),
      await p.ok(["task", "list"], { tty: true }),
      await p.ok(["task", "list"]),
      await p.ok(["task", "show", "1"]),
      await p.ok(["mission", "show", "MSN-0001"], { tty: true }),
      await p.ok(["task", "note", "1", EVIL], { tty: true }),
    ];
    for (const r of outputs) {
      expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(r.stderr).not.toContain("\u001b");
    }
    expect(outputs[1]!.stdout).toContain("red");
    const shown = await showTask(p, 1);
    expect(shown.title).toBe(EVIL);
    expect(shown.description).toBe(EVIL);
    expect(shown.notes[0].text).toBe(EVIL);
    const raw = await p.ok(["task", "show", "1", "--json"], { tty: true });
    expect(JSON.parse(raw.stdout).data.title).toBe(EVIL);
  });

  it("an id typed with control characters is escaped in the error", async () => {
    const p = await seeded();
    const r = await p.run(["task", "show", "\u001b[31m1"], { tty: true });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain("\u001b");
    expect(r.stderr.split("\n")[0]).toMatch(/^✗ /);
  });
});
