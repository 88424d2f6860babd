/**
 * Labels and acceptance criteria changed in two clones before either synced (DESIGN §3.3,
 * docs/sync.md): labels merge three-way as a set, criteria by id, and both clones converge on
 * the same state, through a bare origin and real git.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";

async function twoClonesWithATask() {
  const { clones, originRef } = await makeOriginAndClones(2);
  const [c0, c1] = clones as [Clone, Clone];
  await c0.ok([
    "task",
    "create",
    "--title",
    "Task API",
    "--role",
    "engineer",
    "--label",
    "api",
    "--label",
    "v1",
    "--ac",
    "returns 404 for unknown ids",
    "--ac",
    "documented",
  ]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  expect(c0.ref()).toBe(c1.ref());
  return { c0, c1, originRef };
}

const view = async (c: Clone) => {
  const t = await c.json<any>(["task", "show", "1"], "task");
  return { labels: t.labels, acceptance: t.acceptance.map((x: any) => [x.text, x.done]), notes: t.notes.length };
};

describe("labels and criteria changed in two clones", () => {
  it("both clones' changes land, by set and by id, and the clones converge (list --label included)", async () => {
    const { c0, c1, originRef } = await twoClonesWithATask();
    // Clone 0: adds auth, removes v1, checks criterion 1, adds a criterion.
    await c0.ok(["task", "label", "1", "auth"]);
    await c0.ok(["task", "unlabel", "1", "v1"]);
    await c0.ok(["task", "check", "1", "1"]);
    await c0.ok(["task", "ac", "1", "rate limited"]);
    // Clone 1, offline meanwhile: adds db, keeps v1, checks criterion 2, adds another.
    await c1.ok(["task", "label", "1", "db"]);
    await c1.ok(["task", "check", "1", "2"]);
    await c1.ok(["task", "ac", "1", "logged"]);
    expect((await c1.json<any[]>(["task", "list", "--label", "db"], "tasks")).length).toBe(1);

    await c0.ok(["sync"]);
    const merge = await c1.json<any>(["sync"], "sync");
    expect(merge.conflicts).toEqual([]);
    await c0.ok(["sync"]);
    expect(c0.ref()).toBe(originRef());
    expect(c1.ref()).toBe(originRef());

    const expected = {
      labels: ["api", "auth", "db"],
      acceptance: [
        ["returns 404 for unknown ids", true],
        ["documented", true],
        ["rate limited", false], // published first: its number stays 3
        ["logged", false],
      ],
      notes: 0,
    };
    for (const c of [c0, c1]) {
      expect(await view(c), `clone ${c.index}`).toEqual(expected);
      // The read cache follows the merge: a list by label answers from it.
      expect((await c.json<any[]>(["task", "list", "--label", "db"], "tasks")).map((t) => t.id)).toEqual([
        "ENG-M-0001",
      ]);
      expect(await c.json<any[]>(["task", "list", "--label", "v1"], "tasks"), `clone ${c.index}`).toEqual([]);
    }
    // Numbers are what `task show` lists: the merged fourth criterion is checked as 4 everywhere.
    await c0.ok(["task", "check", "1", "4"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    expect((await view(c1)).acceptance[3]).toEqual(["logged", true]);
    c0.expectUntouched();
    c1.expectUntouched();
  });

  it("one criterion unchecked here and another checked there, a label added here and another removed there: all four land, with no conflict", async () => {
    const { c0, c1 } = await twoClonesWithATask();
    await c0.ok(["task", "check", "1", "1"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["task", "uncheck", "1", "1"]);
    await c0.ok(["task", "label", "1", "auth"]);
    await c1.ok(["task", "check", "1", "2"]);
    await c1.ok(["task", "unlabel", "1", "api"]);
    await c1.ok(["sync"]);
    const r = await c0.json<any>(["sync"], "sync");
    expect(r.conflicts).toEqual([]);
    await c1.ok(["sync"]);
    for (const c of [c0, c1])
      expect(await view(c), `clone ${c.index}`).toEqual({
        labels: ["auth", "v1"],
        acceptance: [
          ["returns 404 for unknown ids", false],
          ["documented", true],
        ],
        notes: 0,
      });
  });
});
