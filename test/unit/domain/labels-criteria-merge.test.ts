/**
 * The merge rules of labels (a three-way set) and acceptance criteria (by item id), DESIGN §3.3
 * and docs/sync.md: the cases a random history reaches only sometimes, one per test.
 */
import { describe, expect, it } from "vitest";
import { mergeState, type MergeInput, type Touched } from "../../../src/domain/merge/merge-state.js";
import type { Criterion } from "../../../src/domain/schemas/criterion.js";
import { TaskSchema, type Task } from "../../../src/domain/schemas/task.js";
import { aTask } from "../../helpers/builders.js";

const T = (s: number) => `2026-02-01T00:00:${String(s).padStart(2, "0")}.000Z`;

function merged(base: Task, local: Task, remote: Task) {
  const touched: Touched<Task> = { number: base.number, base, local, remote, remoteChanged: true };
  const input: MergeInput = {
    touched: { tasks: [touched], epics: [], missions: [], reviews: [] },
    counters: {
      local: { tasks: base.number, epics: 0, missions: 0, reviews: 0 },
      remote: { tasks: base.number, epics: 0, missions: 0, reviews: 0 },
    },
    remote: "origin",
  };
  const out = mergeState(input);
  const w = out.writes.tasks.find((x) => x.number === base.number) as { value?: Task } | undefined;
  // No write: the remote's record stands as it is.
  return { task: TaskSchema.parse(w?.value ?? remote), conflicts: out.conflicts };
}

const c = (id: string, text: string, o: Partial<Criterion> = {}): Criterion => ({
  id,
  text,
  done: false,
  by: "Director",
  at: T(0),
  ...o,
});

describe("labels merge three-way as a set", () => {
  const base = aTask({ number: 1, labels: ["api", "db"], updatedAt: T(0) });

  it("additions on both sides are kept, a removal on one side stays removed, sorted whichever side merges", () => {
    const local = { ...base, labels: ["auth", "db"], updatedAt: T(2) }; // removed api, added auth
    const remote = { ...base, labels: ["api", "db", "ui"], updatedAt: T(1) }; // added ui
    const a = merged(base, local, remote);
    const b = merged(base, remote, local);
    expect(a.task.labels).toEqual(["auth", "db", "ui"]);
    expect(b.task.labels).toEqual(a.task.labels);
    expect(a.conflicts).toEqual([]);
  });

  it("added on one side and removed on the other: a label the base had and one side removed is gone; one the base lacked and a side added is there", () => {
    // db: removed here, kept (and so "re-added") there → removed. perf: added here, never there → added.
    const local = { ...base, labels: ["api", "perf"], updatedAt: T(2) };
    const remote = { ...base, labels: ["api", "db"], title: "renamed", updatedAt: T(3) };
    expect(merged(base, local, remote).task.labels).toEqual(["api", "perf"]);
    expect(merged(base, remote, local).task.labels).toEqual(["api", "perf"]);
  });

  it("past 20 labels: the published ones first, then this clone's additions in order; the rest are kept in a conflict note", () => {
    const eighteen = Array.from({ length: 18 }, (_, i) => `l${String(i).padStart(2, "0")}`);
    const b = { ...base, labels: eighteen };
    const local = { ...b, labels: [...eighteen, "x1", "x2"], updatedAt: T(2) };
    const remote = { ...b, labels: [...eighteen, "r1", "r2"], updatedAt: T(1) };
    const { task, conflicts } = merged(b, local, remote);
    expect(task.labels).toHaveLength(20);
    expect(task.labels).toEqual(expect.arrayContaining(["r1", "r2"]));
    expect(task.labels).not.toContain("x1");
    expect(conflicts.map((x) => x.fields)).toEqual([["labels"]]);
    const note = task.notes.find((n) => n.kind === "conflict")!;
    expect(note.text).toContain("x1");
    expect(note.text).toContain("x2");
  });
});

describe("acceptance criteria merge by item id", () => {
  const base = aTask({
    number: 2,
    acceptance: [c("ac-one", "returns 404"), c("ac-two", "documented")],
    updatedAt: T(0),
  });

  it("a check here and a rewording there of one criterion both land; new criteria of both sides are kept, the published ones first", () => {
    const local = {
      ...base,
      acceptance: [
        { ...base.acceptance[0]!, done: true, by: "Hephaestus", at: T(3) },
        base.acceptance[1]!,
        c("ac-local", "rate limited", { at: T(3) }),
      ],
      updatedAt: T(3),
    };
    const remote = {
      ...base,
      acceptance: [
        { ...base.acceptance[0]!, text: "returns 404 for unknown ids", at: T(2) },
        base.acceptance[1]!,
        c("ac-remote", "logged", { at: T(2) }),
      ],
      updatedAt: T(2),
    };
    const { task, conflicts } = merged(base, local, remote);
    expect(conflicts).toEqual([]);
    expect(task.acceptance.map((x) => [x.id, x.text, x.done, x.by])).toEqual([
      ["ac-one", "returns 404 for unknown ids", true, "Hephaestus"],
      ["ac-two", "documented", false, "Director"],
      ["ac-remote", "logged", false, "Director"],
      ["ac-local", "rate limited", false, "Director"],
    ]);
    expect(task.acceptance[0]!.at).toBe(T(3));
  });

  it("unchecked here, still checked there: the one-sided change is taken, with who made it", () => {
    const b = { ...base, acceptance: [c("ac-one", "returns 404", { done: true, by: "Athena", at: T(1) })] };
    const local = { ...b, acceptance: [{ ...b.acceptance[0]!, done: false, by: "Argus", at: T(4) }], updatedAt: T(4) };
    const remote = { ...b, title: "renamed", updatedAt: T(5) };
    const { task } = merged(b, local, remote);
    expect(task.acceptance[0]).toMatchObject({ done: false, by: "Argus" });
    expect(task.title).toBe("renamed");
  });

  it("one criterion reworded differently on both sides: the published wording wins whichever changed last, this clone's is kept in a conflict note", () => {
    const local = (at: number) => ({
      ...base,
      acceptance: [{ ...base.acceptance[0]!, text: "here's wording", at: T(at) }, base.acceptance[1]!],
      updatedAt: T(at),
    });
    const remote = (at: number) => ({
      ...base,
      acceptance: [{ ...base.acceptance[0]!, text: "origin's wording", at: T(at) }, base.acceptance[1]!],
      updatedAt: T(at),
    });
    // No clock decides (DESIGN §3.3): a later local change, a later remote one and a tie all
    // keep the published text; only the item's `at` follows the later change.
    for (const [l, r] of [
      [5, 4],
      [4, 5],
      [4, 4],
    ] as const) {
      const m = merged(base, local(l), remote(r));
      expect(m.task.acceptance[0]!.text).toBe("origin's wording");
      expect(m.task.acceptance[0]!.at).toBe(T(Math.max(l, r)));
      expect(m.conflicts).toMatchObject([{ fields: ["acceptance"] }]);
      expect(m.task.notes.find((n) => n.kind === "conflict")!.text).toBe(
        "sync with origin: kept criterion origin's wording from origin; this clone had criterion here's wording",
      );
    }
  });

  it("a key this version does not know, changed on one side only, is taken from that side", () => {
    // A newer version's `weight`: set to 2 here, earlier than the rewording there, which kept 1.
    const item = { ...base.acceptance[0]!, weight: 1 };
    const b = { ...base, acceptance: [item, base.acceptance[1]!] };
    const local = { ...b, acceptance: [{ ...item, done: true, at: T(3), weight: 2 }, base.acceptance[1]!] };
    const remote = {
      ...b,
      acceptance: [{ ...item, text: "returns 404 for unknown ids", at: T(4) }, base.acceptance[1]!],
    };
    const m = merged(b, local, remote);
    expect(m.conflicts).toEqual([]);
    expect(m.task.acceptance[0]).toMatchObject({
      text: "returns 404 for unknown ids",
      done: true,
      weight: 2,
      at: T(4),
    });
  });

  it("a criterion the base had and one side removed stays removed", () => {
    const local = { ...base, acceptance: [base.acceptance[1]!], updatedAt: T(2) };
    const remote = { ...base, acceptance: [{ ...base.acceptance[0]!, done: true, at: T(1) }, base.acceptance[1]!] };
    expect(merged(base, local, remote).task.acceptance.map((x) => x.id)).toEqual(["ac-two"]);
  });

  it("past 50 criteria, this clone's additions beyond the limit are kept in a conflict note", () => {
    const list = (side: string, n: number) =>
      Array.from({ length: n }, (_, i) => c(`${side}-${String(i).padStart(3, "0")}`, `${side} ${i}`));
    const b = { ...base, acceptance: list("base", 40) };
    const local = { ...b, acceptance: [...b.acceptance, ...list("mine", 8)], updatedAt: T(2) };
    const remote = { ...b, acceptance: [...b.acceptance, ...list("theirs", 8)], updatedAt: T(1) };
    const { task, conflicts } = merged(b, local, remote);
    expect(task.acceptance).toHaveLength(50);
    expect(task.acceptance.filter((x) => x.id.startsWith("theirs"))).toHaveLength(8);
    expect(task.acceptance.filter((x) => x.id.startsWith("mine"))).toHaveLength(2);
    expect(conflicts.map((x) => x.fields)).toEqual([["acceptance"]]);
    expect(task.notes.find((n) => n.kind === "conflict")!.text).toContain("mine 7");
  });

  it("a task written before labels and criteria decodes with both empty", () => {
    const { labels: _l, acceptance: _a, ...old } = aTask({ number: 4 });
    const t = TaskSchema.parse(old);
    expect([t.labels, t.acceptance]).toEqual([[], []]);
  });
});
