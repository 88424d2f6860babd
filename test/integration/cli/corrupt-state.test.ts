import { describe, expect, it } from "vitest";
import { git, makeRepo, readStateFile, stateRef } from "../../helpers/repo.js";
import { blobId, expectRefused, HEPH, lit, project, REF, showTask, writeOntoRef, type Project } from "./fixture.js";

/**
 * DESIGN §2.1: a record that fails to parse or validate is reported by path and commit; list
 * commands skip it with a warning, commands that need it fail naming it, others keep working, and
 * every write carries it unchanged. A newer schemaVersion is refused with "upgrade".
 */

const PATH = "tasks/02/2.json";

async function threeTasks(): Promise<Project> {
  const p = project(makeRepo());
  await p.ok(["init", "--yes"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  for (const title of ["One", "Two", "Three"]) await p.ok(["task", "create", "--title", title, "--role", "engineer"]);
  return p;
}

const corruptions: [string, (good: string) => string][] = [
  ["invalid JSON", () => '{"number": 2, "title": "Two",\n'],
  [
    "a schema-invalid record",
    (good) => JSON.stringify({ ...JSON.parse(good), status: "WIBBLE", title: "" }, null, 2) + "\n",
  ],
  ["a record missing its fields", () => '{"number": 2}\n'],
  [
    "a record whose number does not match its path",
    (good) => JSON.stringify({ ...JSON.parse(good), number: 7 }, null, 2) + "\n",
  ],
];

describe.each(corruptions)("a corrupt task record on the ref: %s", (_name, corrupt) => {
  async function corrupted(): Promise<{ p: Project; commit: string; blob: string }> {
    const p = await threeTasks();
    const commit = writeOntoRef(p.dir, { [PATH]: corrupt(readStateFile(p.dir, PATH)) });
    return { p, commit, blob: blobId(p.dir, PATH) };
  }

  it("list skips it with a warning; show fails naming it; other reads work; a write that reads it fails; other writes carry it unchanged", async () => {
    const { p, commit, blob } = await corrupted();
    // Reads.
    const r = await p.ok(["task", "list"]);
    expect(r.stdout).toContain("ENG-M-0001");
    expect(r.stdout).toContain("ENG-M-0003");
    expect(r.stdout).not.toMatch(/-0002/);
    expect(r.stderr).toContain(PATH);
    expect(r.stderr).toContain(commit.slice(0, 7));
    const j = await p.ok(["task", "list", "--json"]);
    expect(JSON.parse(j.stdout).data.map((t: { id: string }) => t.id)).toEqual(["ENG-M-0001", "ENG-M-0003"]);
    expect(j.stderr).toContain(PATH);

    await expectRefused(p, ["task", "show", "2"], 1, [lit(PATH)]);
    const shown = await p.run(["task", "show", "ENG-M-0002", "--json"]);
    expect(shown.exitCode).toBe(1);
    expect(shown.stdout).toBe("");
    const err = JSON.parse(shown.stderr).error;
    expect(err.code).toBe("E_CORRUPT_RECORD");
    expect(err.message).toContain(PATH);
    expect(err.message).toContain(commit.slice(0, 7));

    expect((await showTask(p, 1)).title).toBe("One");
    expect((await showTask(p, 3)).title).toBe("Three");
    await p.ok(["mission", "list"]);
    await p.ok(["mission", "show", "MSN-0001"]);

    // Writes: one that reads the record fails naming it; the others work and carry it.
    await expectRefused(p, [...HEPH, "task", "claim", "2"], 1, [lit(PATH)]);
    await expectRefused(p, ["task", "note", "2", "hello"], 1, [lit(PATH)]);
    await expectRefused(p, ["task", "depend", "1", "2"], 1, [lit(PATH)]);
    await expectRefused(p, ["task", "create", "--title", "x", "--role", "eng", "--depends-on", "2"], 1, [lit(PATH)]);
    expect(stateRef(p.dir)).toBe(commit);

    await p.ok([...HEPH, "task", "claim", "1"]);
    await p.ok(["task", "note", "3", "still fine"]);
    const created = await p.json(["task", "create", "--title", "Four", "--role", "eng"], "task");
    expect(created.id).toBe("ENG-M-0004");
    await p.ok(["mission", "start", "--role", "tester", "--persona", "Artemis"]);
    expect(blobId(p.dir, PATH), "the corrupt blob is carried, byte for byte").toBe(blob);
    expect(git(p.dir, "rev-list", "--count", `${commit}..${REF}`).trim()).toBe("4");
    expect((await showTask(p, 1)).status).toBe("UNDERWAY");
  });
});

describe("a project.json with a newer schemaVersion", () => {
  const newer: [string, (good: string) => string][] = [
    [
      "schemaVersion 99, otherwise valid",
      (good) => JSON.stringify({ ...JSON.parse(good), schemaVersion: 99 }, null, 2) + "\n",
    ],
    ["schemaVersion 99 with a layout this version cannot parse", () => '{"schemaVersion": 99, "layout": "v99"}\n'],
  ];
  const commands: string[][] = [
    ["task", "list"],
    ["task", "show", "1"],
    ["task", "create", "--title", "x", "--role", "eng"],
    [...HEPH, "task", "claim", "1"],
    ["task", "note", "1", "hi"],
    ["mission", "start", "--role", "engineer", "--persona", "Daedalus"],
    ["mission", "list"],
    ["mission", "show", "MSN-0001"],
    ["mission", "end", "MSN-0001"],
    ["persona", "list"],
    ["init", "--yes"],
  ];

  it.each(newer)("%s: every command exits 1 saying to upgrade, and nothing is written", async (_name, rewrite) => {
    const p = await threeTasks();
    writeOntoRef(p.dir, { "project.json": rewrite(readStateFile(p.dir, "project.json")) });
    for (const argv of commands) {
      const before = stateRef(p.dir);
      const r = await p.run(argv);
      expect(r.exitCode, `${argv.join(" ")}\n${r.stderr}`).toBe(1);
      expect(r.stdout, argv.join(" ")).toBe("");
      expect(r.stderr, argv.join(" ")).toMatch(/^✗ /);
      expect(r.stderr, argv.join(" ")).toMatch(/upgrade/i);
      expect(stateRef(p.dir), argv.join(" ")).toBe(before);
      const j = await p.run([...argv, "--json"]);
      expect(JSON.parse(j.stderr).error.code, argv.join(" ")).toBe("E_SCHEMA_VERSION");
    }
  });
});
