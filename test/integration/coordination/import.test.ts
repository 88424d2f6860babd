import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";
import { git, readStateFile, stateRef } from "../../helpers/repo.js";
import { testEnv } from "../../helpers/env.js";

/** Issue 3, item 5: `task import FILE` (YAML or JSON), validated whole, one commit. */

const REF = "refs/coordination/main";

async function project() {
  const p = await initializedProject();
  const file = (name: string, content: string) => {
    writeFileSync(join(p.dir, name), content);
    return name;
  };
  return { ...p, file };
}

const commits = (dir: string) => Number(git(dir, "rev-list", "--count", REF).trim());

describe("task import", () => {
  it("imports a YAML list: keys of earlier entries and existing ids in depends_on, an epic, in one commit", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "architect", "--persona", "Athena"]);
    const design = await p.json(["task", "create", "--title", "Design the schema", "--role", "architect"], "task");
    await p.ok(["--as", "Athena", "task", "claim", design.id]);
    await p.ok(["--as", "Athena", "task", "close", design.id]);
    const open = await p.json(["task", "create", "--title", "Pick a database", "--role", "architect"], "task");
    const epic = await p.json(["epic", "create", "--title", "Storage", "--priority", "high"], "epic");
    const before = commits(p.dir);

    const yaml = p.file(
      "plan.yaml",
      `# the storage plan
- key: migrate
  title: Write the migrations
  role: eng
  priority: high
  description: |
    Every table, reversible.
  depends_on: [${design.id}]
  epic: ${epic.id}
- key: seed
  title: Seed data
  role: engineer
  depends_on: [migrate, ${open.number}]
- title: Test the migrations
  role: tst
  priority: L
  depends_on:
    - migrate
    - seed
  epic: 1
`,
    );
    const created = await p.json<any[]>(["task", "import", yaml], "tasks");
    expect(commits(p.dir)).toBe(before + 1);
    expect(created.map((t) => [t.id, t.title, t.role, t.priority, t.status])).toEqual([
      ["ENG-H-0003", "Write the migrations", "engineer", "HIGH", "TODO"],
      ["ENG-M-0004", "Seed data", "engineer", "MEDIUM", "TODO"],
      ["TST-L-0005", "Test the migrations", "tester", "LOW", "TODO"],
    ]);
    // The stored records, as `task show` sees them.
    const migrate = await p.json(["task", "show", "3"], "task");
    expect(migrate).toMatchObject({
      dependencies: [design.id],
      blockedBy: [],
      epic: epic.id,
      description: "Every table, reversible.\n",
    });
    const seed = await p.json(["task", "show", "4"], "task");
    expect(seed.dependencies).toEqual(["ENG-H-0003", open.id]);
    expect(seed.blockedBy).toEqual(["ENG-H-0003", open.id]);
    const check = await p.json(["task", "show", "5"], "task");
    expect(check).toMatchObject({ dependencies: ["ENG-H-0003", "ENG-M-0004"], epic: epic.id });
    expect((await p.json(["epic", "show", epic.id], "epic")).progress).toEqual({ complete: 0, total: 2, percent: 0 });
    // the counters moved once for the whole file
    expect(JSON.parse(readStateFile(p.dir, "counters.json")).tasks).toBe(5);
    // the one commit names every record (runs may be written as ranges: tasks/3-5)
    const message = git(p.dir, "log", "-1", "--format=%B", REF);
    expect(recordsNamed(message, "tasks")).toEqual([3, 4, 5]);
  });

  it("the import's own JSON output names existing dependencies and the epic by id, and a COMPLETE dependency does not block", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "architect", "--persona", "Athena"]);
    const design = await p.json(["task", "create", "--title", "Design", "--role", "architect"], "task");
    await p.ok(["--as", "Athena", "task", "claim", design.id]);
    await p.ok(["--as", "Athena", "task", "close", design.id]);
    const epic = await p.json(["epic", "create", "--title", "Storage", "--priority", "high"], "epic");
    const f = p.file(
      "one.json",
      JSON.stringify([{ title: "Build", role: "engineer", depends_on: [design.id], epic: epic.id }]),
    );
    const [t] = await p.json<any[]>(["task", "import", f], "tasks");
    expect.soft(t.dependencies).toEqual([design.id]);
    expect.soft(t.blockedBy).toEqual([]);
    expect.soft(t.epic).toBe(epic.id);
  });

  it("imports a JSON file ({tasks: [...]} or a list) in one commit", async () => {
    const p = await project();
    const existing = await p.json(["task", "create", "--title", "Existing", "--role", "operator"], "task");
    const before = commits(p.dir);
    const f = p.file(
      "plan.json",
      JSON.stringify({
        tasks: [
          { key: "a", title: "Alpha", role: "documentarian" },
          { key: "b", title: "Beta", role: "inspector", depends_on: ["a", existing.id], priority: "critical" },
          { title: "Gamma", role: "OPR", depends_on: ["b", 1], description: null },
        ],
      }),
    );
    const created = await p.json<any[]>(["task", "import", f], "tasks");
    expect(created.map((t) => t.id)).toEqual(["DOC-M-0002", "INS-C-0003", "OPR-M-0004"]);
    expect(commits(p.dir)).toBe(before + 1);
    expect((await p.json(["task", "show", "3"], "task")).dependencies).toEqual(["DOC-M-0002", existing.id]);
    expect((await p.json(["task", "show", "4"], "task")).dependencies).toEqual(["INS-C-0003", existing.id]);
    // human output starts with ✓ and names the range
    const g = p.file("more.json", JSON.stringify([{ title: "Delta", role: "eng" }]));
    const human = await p.ok(["task", "import", g]);
    expect(human.stdout).toMatch(/^✓ Imported 1 task/);
  });

  it.each([
    [
      "an unknown role in the last entry",
      [
        { title: "A", role: "eng" },
        { title: "B", role: "eng" },
        { title: "C", role: "wizard" },
      ],
      /entry 3/,
    ],
    [
      "a depends_on key nobody defined",
      [
        { key: "a", title: "A", role: "eng" },
        { title: "B", role: "eng", depends_on: ["a", "zz"] },
      ],
      /entry 2/,
    ],
    [
      "a key used twice",
      [
        { key: "a", title: "A", role: "eng" },
        { key: "a", title: "B", role: "eng" },
      ],
      /entry 2/,
    ],
    [
      "an unknown field",
      [
        { title: "A", role: "eng" },
        { title: "B", role: "eng", assignee: "Hephaestus" },
      ],
      /entry 2.*assignee/,
    ],
    ["a missing title", [{ title: "A", role: "eng" }, { role: "eng" }], /entry 2/],
    ["a bad priority", [{ title: "A", role: "eng", priority: "urgent" }], /entry 1/],
  ])("refuses %s with exit 2 naming the entry, and writes NOTHING", async (_name, entries, mention) => {
    const p = await project();
    await p.json(["task", "create", "--title", "Before", "--role", "engineer"], "task");
    const ref = stateRef(p.dir);
    const f = p.file("bad.json", JSON.stringify(entries));
    const r = await p.run(["task", "import", f]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toMatch(/^✗ /);
    expect(r.stderr.split("\n")[0]).toMatch(mention);
    expect(r.stderr).toContain("bad.json");
    expect(stateRef(p.dir)).toBe(ref);
    expect(JSON.parse(readStateFile(p.dir, "counters.json")).tasks).toBe(1);
  });

  it("a dependency may name a LATER entry's key (the file is one commit): numbers stay in file order", async () => {
    const p = await project();
    const before = commits(p.dir);
    const f = p.file(
      "forward.yaml",
      `- key: a
  title: Ship
  role: eng
  depends_on: [b, c]
- key: b
  title: Build
  role: eng
  depends_on: [c]
- key: c
  title: Design
  role: arc
`,
    );
    const created = await p.json<any[]>(["task", "import", f], "tasks");
    expect(created.map((t) => [t.id, t.dependencies])).toEqual([
      ["ENG-M-0001", ["ENG-M-0002", "ARC-M-0003"]],
      ["ENG-M-0002", ["ARC-M-0003"]],
      ["ARC-M-0003", []],
    ]);
    expect(commits(p.dir)).toBe(before + 1);
    expect((await p.json(["task", "show", "1"], "task")).blockedBy).toEqual(["ENG-M-0002", "ARC-M-0003"]);
  });

  it.each([
    [
      "an over-long title",
      [
        { title: "A", role: "eng" },
        { key: "long", title: "x".repeat(250), role: "eng" },
      ],
      'bad.json entry 2 (key "long"): title is 250 characters long; at most 200',
    ],
    [
      "an over-long title without a key",
      [{ title: `${"y".repeat(50)}z`.repeat(5), role: "eng" }],
      `bad.json entry 1 ("${"y".repeat(40)}…"): title is 255 characters long; at most 200`,
    ],
    [
      "an over-long description",
      [{ title: "Spec", role: "eng", description: "d".repeat(20_001) }],
      'bad.json entry 1 ("Spec"): description is 20001 characters long; at most 20000',
    ],
    ["an empty key", [{ key: "", title: "A", role: "eng" }], 'bad.json entry 1 ("A"): key must not be empty'],
    ["a title that is a number", [{ title: 42, role: "eng" }], "bad.json entry 1: title must be text, not 42"],
    ["a missing role", [{ title: "A" }], 'bad.json entry 1 ("A"): role is missing (a role\'s name (text))'],
    [
      "depends_on that is not a list",
      [{ title: "A", role: "eng", depends_on: "b" }],
      'bad.json entry 1 ("A"): depends_on must be a list of keys, task ids or numbers, not "b"',
    ],
    [
      "a depends_on item of the wrong type",
      [{ title: "A", role: "eng", depends_on: [true] }],
      'bad.json entry 1 ("A"): depends_on item 1 must be a key of an entry, a task id or a number, not true',
    ],
    [
      "a depends_on that is neither a key nor a task id",
      [{ key: "a", title: "A", role: "eng", depends_on: ["zz"] }],
      'bad.json entry 1 (key "a"): depends_on "zz" is neither the key of an entry in bad.json nor a task id',
    ],
    [
      "a cycle among entries",
      [
        { key: "a", title: "A", role: "eng", depends_on: ["b"] },
        { key: "b", title: "B", role: "eng", depends_on: ["c"] },
        { key: "c", title: "C", role: "eng", depends_on: ["a"] },
      ],
      'bad.json: entries depend on each other in a cycle: entry 1 (key "a") → entry 2 (key "b") → entry 3 (key "c") → entry 1 (key "a")',
    ],
    [
      "an entry that depends on itself",
      [{ key: "me", title: "A", role: "eng", depends_on: ["me"] }],
      'bad.json entry 1 (key "me") depends on itself',
    ],
  ])(
    "says what is wrong with %s: the entry, the field and the limit; exit 2, nothing written",
    async (_name, entries, line) => {
      const p = await project();
      const ref = stateRef(p.dir);
      const f = p.file("bad.json", JSON.stringify(entries));
      const r = await p.run(["task", "import", f]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr.split("\n")[0]).toBe(`✗ ${line}`);
      expect(r.stderr).not.toContain("Invalid input");
      expect(stateRef(p.dir)).toBe(ref);
    },
  );

  it("refuses a dependency on a task that does not exist, or an epic that does not exist, writing nothing", async () => {
    const p = await project();
    const ref = stateRef(p.dir);
    for (const entries of [
      [
        { title: "A", role: "eng" },
        { title: "B", role: "eng", depends_on: ["ENG-M-0099"] },
      ],
      [{ title: "A", role: "eng", epic: "EPC-H-0005" }],
    ]) {
      const f = p.file("missing.json", JSON.stringify(entries));
      const r = await p.run(["task", "import", f]);
      expect(r.exitCode, r.stderr).not.toBe(0);
      expect([1, 2]).toContain(r.exitCode);
      expect(r.stderr).toMatch(/^✗ .*(99|5)/);
      expect(stateRef(p.dir)).toBe(ref);
    }
  });

  it("refuses a YAML syntax error, a missing file, an empty list, and a document that is not a list (exit 2)", async () => {
    const p = await project();
    const ref = stateRef(p.dir);
    const cases = [
      p.file("broken.yaml", "- title: A\n  role: eng\n - title: B\n"),
      "nowhere.yaml",
      p.file("empty.json", "[]"),
      p.file("scalar.yaml", "just text\n"),
      p.file("broken.json", '[{"title": "A", '),
    ];
    for (const f of cases) {
      const r = await p.run(["task", "import", f]);
      expect(r.exitCode, `${f}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^✗ /);
      expect(r.stdout).toBe("");
    }
    expect(stateRef(p.dir)).toBe(ref);
  });

  it("imports 2,000 entries in one command and one commit, correctly", async () => {
    const p = await project();
    const before = commits(p.dir);
    const roles = ["engineer", "tester", "architect", "operator"];
    const entries = Array.from({ length: 2000 }, (_, i) => ({
      key: `k${i}`,
      title: `Bulk task ${i}`,
      role: roles[i % roles.length],
      priority: i % 10 === 0 ? "high" : "low",
      ...(i > 0 && i % 3 === 0 ? { depends_on: [`k${i - 1}`, `k${Math.floor(i / 2)}`] } : {}),
    }));
    const f = p.file("big.json", JSON.stringify(entries));
    const created = await p.json<any[]>(["task", "import", f], "tasks");
    expect(created).toHaveLength(2000);
    expect(commits(p.dir)).toBe(before + 1);
    expect(created.map((t) => t.number)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(created[0]).toMatchObject({ id: "ENG-H-0001", title: "Bulk task 0" });
    expect(created[1999]).toMatchObject({ id: "OPR-L-2000", title: "Bulk task 1999" });
    expect(created[999]!.dependencies).toEqual([taskIdOf(999), taskIdOf(500)]);
    expect(JSON.parse(readStateFile(p.dir, "counters.json")).tasks).toBe(2000);
    const named = recordsNamed(git(p.dir, "log", "-1", "--format=%B", REF), "tasks");
    expect(named).toHaveLength(2000);
    expect(named[1999]).toBe(2000);
    // readable back, sharded (tasks/NN/number.json)
    expect(JSON.parse(readStateFile(p.dir, "tasks/00/2000.json")).title).toBe("Bulk task 1999");
    const report = await p.json(["task", "report"], "report");
    expect(report.total).toBe(2000);
    expect(report.byStatus.TODO).toBe(2000);
    const shown = await p.json(["task", "show", "1000"], "task");
    expect(shown.dependencies).toEqual([taskIdOf(999), taskIdOf(500)]);
  });
});

describe("task import writes one pack (DESIGN §2.4a)", () => {
  it("a large import leaves no loose object: one pack (no .keep left), git fsck clean, read back by git and by pantheon", async () => {
    const p = await project();
    const loose = () => Number(/^count: (\d+)$/m.exec(git(p.dir, "count-objects", "-v"))![1]);
    const packs = () => readdirSync(join(p.dir, ".git", "objects", "pack"));
    const before = { loose: loose(), packs: packs(), tip: stateRef(p.dir) };
    const entries = Array.from({ length: 700 }, (_, i) => ({ key: `k${i}`, title: `Packed ${i}`, role: "engineer" }));
    entries[699] = { ...entries[699]!, depends_on: ["k0"] } as (typeof entries)[number];
    const r = await p.run(["task", "import", p.file("many.json", JSON.stringify(entries))]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ Imported 700 tasks: ENG-M-0001 … ENG-M-0700$/m);
    // Not one object of the import's 700 blobs, shard trees and commit was written loose.
    expect(loose()).toBe(before.loose);
    const added = packs().filter((f) => !before.packs.includes(f));
    expect(added.map((f) => f.replace(/[0-9a-f]{40}/, "X")).sort()).toEqual(["pack-X.idx", "pack-X.pack"]);
    expect(readdirSync(join(p.dir, ".git", "objects", "pantheon")).filter((f) => f.startsWith("tmp_"))).toEqual([]);
    const fsck = spawnSync("git", ["fsck", "--strict", "--no-dangling"], {
      cwd: p.dir,
      env: testEnv(),
      encoding: "utf8",
    });
    expect({ status: fsck.status, out: `${fsck.stdout}${fsck.stderr}`.trim() }).toEqual({ status: 0, out: "" });
    // git reads it (verify-pack checks every entry against the index), and so does pantheon.
    git(p.dir, "verify-pack", join(p.dir, ".git", "objects", "pack", added.find((f) => f.endsWith(".idx"))!));
    expect(git(p.dir, "rev-parse", `${REF}^`).trim()).toBe(before.tip);
    expect(JSON.parse(readStateFile(p.dir, "tasks/00/700.json"))).toMatchObject({
      title: "Packed 699",
      dependencies: [1],
    });
    const shown = await p.json(["task", "show", "700"], "task");
    expect(shown.dependencies).toEqual(["ENG-M-0001"]);
    expect((await p.json(["task", "report"], "report")).total).toBe(700);
    // A mutation after it writes loose objects as before.
    await p.ok(["task", "note", "700", "after the import"]);
    expect(loose()).toBeGreaterThan(before.loose);
  });
});

/** Task numbers the last commit's Pantheon-Records trailer names, ranges expanded. */
function recordsNamed(message: string, kind: string): number[] {
  const line = message.split("\n").find((l) => l.startsWith("Pantheon-Records: ")) ?? "";
  const out: number[] = [];
  for (const item of line
    .slice("Pantheon-Records: ".length)
    .split(",")
    .map((s) => s.trim())) {
    const m = new RegExp(`^${kind}/(\\d+)(?:-(\\d+))?$`).exec(item);
    if (!m) continue;
    for (let n = Number(m[1]); n <= Number(m[2] ?? m[1]); n++) out.push(n);
  }
  return out;
}

/** The id `task import` gives the i-th 1-based bulk task above. */
function taskIdOf(n: number): string {
  const role = ["ENG", "TST", "ARC", "OPR"][(n - 1) % 4];
  const prio = (n - 1) % 10 === 0 ? "H" : "L";
  return `${role}-${prio}-${String(n).padStart(4, "0")}`;
}
