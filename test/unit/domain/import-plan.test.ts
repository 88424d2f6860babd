import { describe, expect, it } from "vitest";
import { planImport } from "../../../src/domain/import-plan.js";
import { UsageError } from "../../../src/errors.js";

/** `task import`: the whole file is validated before anything is written (issue 3, item 5). */

function usageError(doc: unknown, file = "plan.yaml"): UsageError {
  try {
    planImport(doc, file);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(2);
    expect((e as UsageError).hint).toBeTruthy();
    return e as UsageError;
  }
  throw new Error("expected a usage error");
}

describe("planImport", () => {
  it("plans entries in file order with defaults", () => {
    const plan = planImport(
      [
        { title: "Design", role: "architect" },
        { title: "Build", role: "ENG", priority: "high", description: "the thing" },
      ],
      "p.yaml",
    );
    expect(plan).toEqual([
      {
        title: "Design",
        role: "architect",
        priority: "MEDIUM",
        description: "",
        entryDeps: [],
        taskDeps: [],
        epic: null,
        labels: [],
        acceptance: [],
      },
      {
        title: "Build",
        role: "engineer",
        priority: "HIGH",
        description: "the thing",
        entryDeps: [],
        taskDeps: [],
        epic: null,
        labels: [],
        acceptance: [],
      },
    ]);
  });

  it("plans labels (lowercased, sorted, without repeats) and acceptance criteria (a line, or {text, done})", () => {
    const [p] = planImport(
      [
        {
          title: "A",
          role: "eng",
          labels: ["db", "API", "api"],
          acceptance: ["returns 404", { text: "docs", done: true }],
        },
      ],
      "p.yaml",
    );
    expect(p!.labels).toEqual(["api", "db"]);
    expect(p!.acceptance).toEqual([
      { text: "returns 404", done: false },
      { text: "docs", done: true },
    ]);
  });

  it("accepts {tasks: [...]} as well as a bare list", () => {
    expect(planImport({ tasks: [{ title: "A", role: "tst" }] }, "p.json")).toHaveLength(1);
  });

  it("accepts roles and priorities as DESIGN §1.1 allows (code, prefix, letter, any case)", () => {
    const plan = planImport(
      [
        { title: "a", role: "Engineer", priority: "C" },
        { title: "b", role: "tst", priority: "low" },
        { title: "c", role: "doc", priority: "h" },
        { title: "d", role: "OPR", priority: "Medium" },
      ],
      "p",
    );
    expect(plan.map((p) => [p.role, p.priority])).toEqual([
      ["engineer", "CRITICAL"],
      ["tester", "LOW"],
      ["documentarian", "HIGH"],
      ["operator", "MEDIUM"],
    ]);
  });

  it("resolves depends_on by the key of an earlier entry to its index", () => {
    const plan = planImport(
      [
        { key: "design", title: "Design", role: "architect" },
        { key: "impl", title: "Build", role: "engineer", depends_on: ["design"] },
        { title: "Test", role: "tester", depends_on: ["impl", "design"] },
      ],
      "p",
    );
    expect(plan.map((p) => p.entryDeps)).toEqual([[], [0], [1, 0]]);
    expect(plan.map((p) => p.taskDeps)).toEqual([[], [], []]);
  });

  it("keeps depends_on naming existing tasks as written, for the service to resolve as any id (DESIGN §1.2)", () => {
    const plan = planImport(
      [{ title: "Test", role: "tester", depends_on: ["ENG-H-0007", "arc-m-12", 3, "0042", "#5"] }],
      "p",
    );
    expect(plan[0]!.taskDeps).toEqual(["ENG-H-0007", "arc-m-12", "3", "0042", "#5"]);
    expect(plan[0]!.entryDeps).toEqual([]);
  });

  it("mixes keys and existing tasks", () => {
    const plan = planImport(
      [
        { key: "a", title: "A", role: "eng" },
        { title: "B", role: "eng", depends_on: ["a", "ENG-M-0001"] },
      ],
      "p",
    );
    expect(plan[1]).toMatchObject({ entryDeps: [0], taskDeps: ["ENG-M-0001"] });
  });

  it("checks an epic's form and keeps it as written", () => {
    const plan = planImport(
      [
        { title: "A", role: "eng", epic: "EPC-H-0002" },
        { title: "B", role: "eng", epic: 3 },
        { title: "C", role: "eng", epic: null },
      ],
      "p",
    );
    expect(plan.map((p) => p.epic)).toEqual(["EPC-H-0002", "3", null]);
  });

  it("treats a null description as empty", () => {
    expect(planImport([{ title: "A", role: "eng", description: null }], "p")[0]!.description).toBe("");
  });

  it("returns an empty plan for an empty list", () => {
    expect(planImport([], "p")).toEqual([]);
  });

  it("refuses a document that is not a list", () => {
    for (const doc of [null, "text", 42, { title: "A", role: "eng" }, { tasks: "no" }]) {
      const e = usageError(doc, "plan.yaml");
      expect(e.message).toContain("plan.yaml");
    }
  });

  it("refuses a key used twice, naming the second entry", () => {
    const e = usageError([
      { key: "a", title: "A", role: "eng" },
      { title: "B", role: "eng" },
      { key: "a", title: "C", role: "eng" },
    ]);
    expect(e.message).toContain("entry 3");
    expect(e.message).toContain('"a"');
  });

  it("refuses depends_on naming an unknown key, naming the entry", () => {
    const e = usageError([
      { key: "a", title: "A", role: "eng" },
      { title: "B", role: "eng", depends_on: ["nope"] },
    ]);
    expect(e.message).toContain("plan.yaml entry 2");
    expect(e.message).toContain("nope");
  });

  it("resolves a key that only a later entry defines (the file is one commit); refuses an entry depending on itself and a cycle", () => {
    const plan = planImport(
      [
        { title: "A", role: "eng", depends_on: ["later"] },
        { key: "later", title: "B", role: "eng" },
      ],
      "f.yaml",
    );
    expect(plan.map((p) => p.entryDeps)).toEqual([[1], []]);
    expect(usageError([{ key: "me", title: "A", role: "eng", depends_on: ["me"] }], "f.yaml").message).toBe(
      'f.yaml entry 1 (key "me") depends on itself',
    );
    expect(
      usageError(
        [
          { key: "a", title: "A", role: "eng", depends_on: ["b"] },
          { key: "b", title: "B", role: "eng", depends_on: ["a"] },
        ],
        "f.yaml",
      ).message,
    ).toBe(
      'f.yaml: entries depend on each other in a cycle: entry 1 (key "a") → entry 2 (key "b") → entry 1 (key "a")',
    );
  });

  it("refuses an unknown field, naming the entry and the field", () => {
    const e = usageError([
      { title: "A", role: "eng" },
      { title: "B", role: "eng", owner: "Hephaestus" },
    ]);
    expect(e.message).toContain("entry 2");
    expect(e.message).toContain("owner");
  });

  it.each([
    ["an unknown role", { title: "B", role: "wizard" }, "wizard"],
    ["an ambiguous role", { title: "B", role: "a" }, "a"],
    ["the administrator role", { title: "B", role: "administrator" }, "administrator"],
    ["a bad priority", { title: "B", role: "eng", priority: "urgent" }, "urgent"],
    ["a missing title", { role: "eng" }, "title"],
    ["a blank title", { title: "   ", role: "eng" }, "title"],
    ["a missing role", { title: "B" }, "role"],
    ["a title that is not text", { title: 5, role: "eng" }, "title"],
    ["a bad dependency id", { title: "B", role: "eng", depends_on: ["ENG-X-12"] }, "ENG-X-12"],
    ["a bad epic id", { title: "B", role: "eng", epic: "EPX-1" }, "EPX-1"],
    ["depends_on that is not a list", { title: "B", role: "eng", depends_on: "a" }, "depends_on"],
    ["a label that is not a word", { title: "B", role: "eng", labels: ["has space"] }, "has space"],
    ["21 labels", { title: "B", role: "eng", labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }, "20 labels"],
    ["a criterion of two lines", { title: "B", role: "eng", acceptance: ["one\ntwo"] }, "\\n"],
    ["a blank criterion", { title: "B", role: "eng", acceptance: ["  "] }, "blank"],
    ["a criterion with an unknown key", { title: "B", role: "eng", acceptance: [{ text: "x", by: "me" }] }, "by"],
    ["an entry that is not an object", "just a title", "entry 4"],
  ])("refuses %s with exit 2, naming the entry", (_name, bad, mention) => {
    const good = { title: "A", role: "eng" };
    const e = usageError([good, good, good, bad, good]);
    expect(e.message).toContain("plan.yaml entry 4");
    expect(e.message.toLowerCase()).toContain(String(mention).toLowerCase());
  });

  it("plans 2,000 entries chained by key", () => {
    const doc = Array.from({ length: 2000 }, (_, i) => ({
      key: `k${i}`,
      title: `Task ${i}`,
      role: "eng",
      ...(i > 0 && { depends_on: [`k${i - 1}`] }),
    }));
    const plan = planImport(doc, "big.json");
    expect(plan).toHaveLength(2000);
    expect(plan[1999]!.entryDeps).toEqual([1998]);
  });
});
