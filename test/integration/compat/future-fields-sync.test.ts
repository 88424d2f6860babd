/**
 * Forward compatibility at a sync merge (DESIGN §1.3, §3.3; issue 12): a field this version does
 * not know is merged three-way like a known one. A one-sided change (added, changed or removed)
 * is taken from whichever side made it; a change on both sides keeps the published value and
 * notes the other. Never dropped, whichever side this clone is on.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { rewriteState, stateJson } from "../../helpers/state-plumbing.js";

const T1 = "tasks/01/1.json";
const T2 = "tasks/02/2.json";
const E1 = "epics/01/1.json";

/** Two clones in step, with tasks 1 and 2 and epic 1 published, task 1 carrying a future field and a note with a future key. */
async function twoClones() {
  const { clones, originRef } = await makeOriginAndClones(2);
  const [a, b] = clones as [Clone, Clone];
  await a.ok(["task", "create", "--title", "One", "--role", "engineer"]);
  await a.ok(["task", "create", "--title", "Two", "--role", "engineer"]);
  await a.ok(["epic", "create", "--title", "Epic"]);
  await a.ok(["task", "note", "1", "a note"]);
  rewriteState(a.dir, {
    [T1]: (t) => ({ ...t, futureField: "base", notes: t.notes.map((n: object) => ({ ...n, futureNoteKey: "kept" })) }),
    [E1]: (e) => ({ ...e, futureField: "base" }),
    "counters.json": (c) => ({ ...c, futureKind: 3 }),
    "project.json": (p) => ({ ...p, futureField: "project", features: { ...p.features, futureFeature: true } }),
  });
  await a.ok(["sync"]);
  await b.ok(["sync"]);
  expect(b.ref()).toBe(a.ref());
  expect(stateJson(b.dir, T1).futureField, "a fast-forward carries the planted commit as is").toBe("base");
  return { a, b, originRef };
}

const conflictNotes = (t: any) => (t.notes as any[]).filter((n) => n.kind === "conflict");

describe("a sync merge keeps fields this version does not know", () => {
  it("one-sided changes on each side are all taken: a future field changed here, added there, removed here, beside known edits", async () => {
    const { a, b, originRef } = await twoClones();
    // B (published first): a known edit of task 1, a future field added to task 2, a known edit of the epic, a new task.
    await b.ok(["task", "note", "1", "from B"]);
    rewriteState(b.dir, { [T2]: (t) => ({ ...t, futureField: "added by B" }) });
    await b.ok(["epic", "edit", "1", "--title", "Epic, renamed by B"]);
    await b.ok(["task", "create", "--title", "Three", "--role", "engineer"]);
    await b.ok(["sync"]);
    // A (merges): the future field of task 1 changed, a known edit of task 2, the epic's future field removed, a counter of a future kind raised.
    rewriteState(a.dir, {
      [T1]: (t) => ({ ...t, futureField: "changed by A" }),
      [E1]: ({ futureField: _, ...e }) => e,
      "counters.json": (c) => ({ ...c, futureKind: 8 }),
    });
    await a.ok(["task", "priority", "2", "high"]);
    const r = await a.json<any>(["sync"], "sync");
    expect(r.action).toBe("merged");
    expect(r.conflicts, "nothing was changed on both sides").toEqual([]);
    await b.ok(["sync"]);
    expect(b.ref()).toBe(a.ref());
    expect(a.ref()).toBe(originRef());

    const t1 = stateJson(a.dir, T1);
    expect(t1.futureField, "A's change of an unknown field, merged into B's edit of the record").toBe("changed by A");
    expect(t1.notes.map((n: any) => n.text)).toEqual(["a note", "from B"]);
    expect(t1.notes[0].futureNoteKey, "a future key inside a note").toBe("kept");
    const t2 = stateJson(a.dir, T2);
    expect(t2.futureField, "B's added unknown field, merged into A's edit").toBe("added by B");
    expect(t2.priority).toBe("HIGH");
    const e1 = stateJson(a.dir, E1);
    expect("futureField" in e1, "A removed the unknown field; B did not touch it").toBe(false);
    expect(e1.title).toBe("Epic, renamed by B");
    const counters = stateJson(a.dir, "counters.json");
    expect(counters.futureKind, "a future counter is merged (the maximum), not dropped").toBe(8);
    expect(counters.tasks).toBe(3);
    const project = stateJson(a.dir, "project.json");
    expect(project.futureField).toBe("project");
    expect(project.features.futureFeature).toBe(true);
  });

  it("an unknown field changed differently on both sides: the published value stays, this clone's is kept as a conflict note and reported", async () => {
    const { a, b } = await twoClones();
    rewriteState(b.dir, { [T1]: (t) => ({ ...t, futureField: "B's value" }) });
    await b.ok(["sync"]);
    rewriteState(a.dir, { [T1]: (t) => ({ ...t, futureField: "A's value" }) });
    await a.ok(["task", "edit", "1", "--title", "One, renamed by A"]);
    const r = await a.json<any>(["sync"], "sync");
    expect(r.conflicts).toEqual([{ record: "ENG-M-0001", fields: ["futureField"], notedIn: "ENG-M-0001" }]);
    await b.ok(["sync"]);
    expect(b.ref()).toBe(a.ref());
    const t1 = stateJson(b.dir, T1);
    expect(t1.futureField, "the published side wins, as for a known field").toBe("B's value");
    expect(t1.title, "A's one-sided known edit is still taken").toBe("One, renamed by A");
    const notes = conflictNotes(t1);
    expect(notes).toHaveLength(1);
    expect(notes[0].text).toContain("futureField");
    expect(notes[0].text).toContain("A's value");
  });

  it("the same unknown value set on both sides merges without a conflict", async () => {
    const { a, b } = await twoClones();
    rewriteState(b.dir, { [T1]: (t) => ({ ...t, futureField: "same" }) });
    await b.ok(["task", "note", "1", "B"]);
    await b.ok(["sync"]);
    rewriteState(a.dir, { [T1]: (t) => ({ ...t, futureField: "same" }) });
    await a.ok(["task", "note", "1", "A"]);
    const r = await a.json<any>(["sync"], "sync");
    expect(r.conflicts).toEqual([]);
    expect(stateJson(a.dir, T1).futureField).toBe("same");
  });
});
