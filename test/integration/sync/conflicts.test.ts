/**
 * Records changed in two clones before either synced (DESIGN §3.3; issue 5 items 3 and 5): claims
 * (the one already published wins, the other is reported as dropped and kept as a conflict note),
 * fields edited on both sides (disjoint ones combine; the same one keeps origin's value and notes
 * the other), notes and dependency sets (both sides kept).
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";

/**
 * Two clones in step with Hephaestus's mission (clone 0) and Ptah's (clone 1) both known
 * everywhere, and ENG-M-0001 "Shared work" (plus `extraTasks` more) published.
 */
async function twoClonesWithATask(extraTasks = 0) {
  const { clones, originRef } = await makeOriginAndClones(2);
  const [c0, c1] = clones as [Clone, Clone];
  await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await c0.ok(["task", "create", "--title", "Shared work", "--role", "engineer"]);
  for (let i = 0; i < extraTasks; i++)
    await c0.ok(["task", "create", "--title", `Other ${i + 2}`, "--role", "engineer"]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Ptah"]);
  await c1.ok(["sync"]);
  await c0.ok(["sync"]);
  expect(c0.ref()).toBe(c1.ref());
  return { c0, c1, originRef };
}

const conflictNotes = (t: any) => (t.notes as any[]).filter((n) => n.kind === "conflict");

describe("both clones claim one task offline", () => {
  it("the second to sync is told its claim was dropped; the task keeps origin's claimant with a conflict note", async () => {
    const { c0, c1, originRef } = await twoClonesWithATask();
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await c1.ok(["--as", "Ptah", "task", "claim", "1"]);
    await c0.ok(["sync"]);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toMatch(/^✓ Synced with origin: merged/);
    expect(r.stdout).toContain("ENG-M-0001: your claim by Ptah was dropped; Hephaestus claimed it first on origin");
    expect(c1.ref()).toBe(originRef());

    for (const c of [c1, (await c0.ok(["sync"]), c0)]) {
      const t = await c.json<any>(["task", "show", "1"], "task");
      expect(t, `clone ${c.index}`).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: "MSN-0001" });
      expect(conflictNotes(t), `clone ${c.index}: the losing claim is kept as a conflict note`).toHaveLength(1);
      expect(conflictNotes(t)[0].text).toContain("Ptah");
    }
    // Ptah's mission no longer holds it; Hephaestus's does
    expect((await c1.json<any>(["--as", "Ptah", "task", "mine"], "tasks")).map((t: any) => t.id)).toEqual([]);
    expect((await c1.json<any>(["--as", "Hephaestus", "task", "mine"], "tasks")).map((t: any) => t.id)).toEqual([
      "ENG-M-0001",
    ]);
    c0.expectUntouched();
    c1.expectUntouched();
  });

  it("--json reports the dropped claim with the task's id, both names and the message", async () => {
    const { c0, c1 } = await twoClonesWithATask();
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await c1.ok(["--as", "Ptah", "task", "claim", "1"]);
    await c0.ok(["sync"]);
    const report = await c1.json<any>(["sync"], "sync");
    expect(report.droppedClaims).toEqual([
      {
        task: "ENG-M-0001",
        yours: "Ptah",
        winner: "Hephaestus",
        message: "ENG-M-0001: your claim by Ptah was dropped; Hephaestus claimed it first on origin",
      },
    ]);
    expect(report.conflicts).toEqual([
      { record: "ENG-M-0001", fields: ["status", "claimedBy", "mission", "completedBy"], notedIn: "ENG-M-0001" },
    ]);
  });

  it("a claim made here survives a conflict in another field, and is not reported as dropped", async () => {
    // Regression: sync said "your claim by Ptah was dropped" while Ptah still held the task.
    const { c0, c1 } = await twoClonesWithATask();
    await c1.ok(["--as", "Ptah", "task", "claim", "1"]);
    await c1.ok(["task", "priority", "1", "low"]);
    await c0.ok(["task", "priority", "1", "critical"]);
    await c0.ok(["sync"]);
    const r = await c1.ok(["sync"]);
    const t = await c1.json<any>(["task", "show", "1"], "task");
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Ptah", priority: "CRITICAL" });
    expect(r.stdout).toMatch(/conflict in ENG-C-0001 \(priority\)/);
    expect(r.stdout, "Ptah still holds ENG-C-0001: nothing was dropped").not.toContain(
      "your claim by Ptah was dropped",
    );
  });
});

describe("a record edited on both sides", () => {
  it("in different fields: both edits are kept, no conflict", async () => {
    const { c0, c1, originRef } = await twoClonesWithATask();
    await c0.ok(["task", "edit", "1", "--title", "Shared work, renamed"]);
    await c1.ok(["task", "edit", "1", "--description", "Details from clone 1"]);
    await c0.ok(["sync"]);
    const report = await c1.json<any>(["sync"], "sync");
    expect(report).toMatchObject({ action: "merged", conflicts: [], droppedClaims: [] });
    await c0.ok(["sync"]);
    expect(c0.ref()).toBe(originRef());
    for (const c of [c0, c1]) {
      const t = await c.json<any>(["task", "show", "1"], "task");
      expect(t, `clone ${c.index}`).toMatchObject({
        title: "Shared work, renamed",
        description: "Details from clone 1",
      });
      expect(conflictNotes(t)).toEqual([]);
    }
  });

  it("in the same field: origin's value is kept and the other is kept as a conflict note", async () => {
    const { c0, c1 } = await twoClonesWithATask();
    await c0.ok(["task", "priority", "1", "low"]);
    await c1.ok(["task", "priority", "1", "critical"]);
    await c0.ok(["sync"]);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toContain("conflict in ENG-L-0001 (priority): origin's value kept; yours is in its notes");
    await c0.ok(["sync"]);
    expect(c0.ref()).toBe(c1.ref());
    for (const c of [c0, c1]) {
      const t = await c.json<any>(["task", "show", "1"], "task");
      expect(t.priority, `clone ${c.index}`).toBe("LOW");
      expect(conflictNotes(t)).toHaveLength(1);
      expect(conflictNotes(t)[0].text).toMatch(/CRITICAL/);
      expect(conflictNotes(t)[0].text).toMatch(/LOW/);
    }
    // the old id with the stale letter still resolves, with a notice (DESIGN §1.2)
    const stale = await c1.ok(["task", "show", "ENG-C-0001"]);
    expect(stale.stderr).toContain("ENG-L-0001");
  });

  it("notes added on both sides are both kept, in time order", async () => {
    const { c0, c1 } = await twoClonesWithATask();
    await c0.ok(["task", "note", "1", "from clone zero"]);
    await c1.ok(["task", "note", "1", "from clone one"]);
    await c0.ok(["sync"]);
    const report = await c1.json<any>(["sync"], "sync");
    expect(report.conflicts).toEqual([]);
    await c0.ok(["sync"]);
    for (const c of [c0, c1]) {
      const t = await c.json<any>(["task", "show", "1"], "task");
      expect(
        t.notes.map((n: any) => n.text),
        `clone ${c.index}`,
      ).toEqual(["from clone zero", "from clone one"]);
    }
  });

  it("dependency sets merge: one added on each side, one removed on one side", async () => {
    const { c0, c1 } = await twoClonesWithATask(3);
    await c0.ok(["task", "depend", "1", "2"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["task", "depend", "1", "3"]);
    await c1.ok(["task", "depend", "1", "4"]);
    await c1.ok(["task", "undepend", "1", "2"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["sync"]);
    for (const c of [c0, c1]) {
      const t = await c.json<any>(["task", "show", "1"], "task");
      expect([...t.dependencies].sort(), `clone ${c.index}`).toEqual(["ENG-M-0003", "ENG-M-0004"]);
    }
  });
});

describe("what a merge owes the records beside the one it merged", () => {
  it("a dropped claim's review request is WITHDRAWN in the same merge, said in the report; origin never sees it PENDING", async () => {
    const { c0, c1, originRef } = await twoClonesWithATask();
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await c1.ok(["--as", "Ptah", "task", "claim", "1"]);
    await c1.ok(["--as", "Ptah", "task", "update", "1", "--status", "REVIEW"]); // requests RVW-001
    await c0.ok(["sync"]);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toContain(
      "ENG-M-0001: your claim by Ptah was dropped; Hephaestus claimed it first on origin; your review request RVW-001 was withdrawn",
    );
    expect(c1.ref()).toBe(originRef());
    const review = await c1.json<any>(["review", "show", "RVW-001"], "review");
    expect(review).toMatchObject({ status: "WITHDRAWN", requestedBy: "Ptah" });
    expect(review.reason).toBe(
      "withdrawn at sync with origin: Ptah's claim of the task was dropped (Hephaestus's claim reached origin first)",
    );
    const t = await c1.json<any>(["task", "show", "1"], "task");
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus" });
    expect(conflictNotes(t).map((n: any) => n.text)).toContain(
      "RVW-001 requested by Ptah was withdrawn at sync with origin: the claim it was for was dropped (Hephaestus's claim reached origin first)",
    );
    // No PENDING request on a task someone else holds, anywhere.
    await c0.ok(["sync"]);
    expect(await c0.json<any>(["review", "list", "--status", "PENDING"], "reviews")).toEqual([]);
  });

  it("two reviewers approve at once: origin's approval stays and the other reason is in the task's notes, where the report says", async () => {
    const { c0, c1 } = await twoClonesWithATask();
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await c0.ok(["--as", "Hephaestus", "task", "update", "1", "--status", "REVIEW"]);
    await c0.ok(["mission", "start", "--role", "inspector", "--persona", "Thoth"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c1.ok(["mission", "start", "--role", "inspector", "--persona", "Maat"]);
    await c0.ok(["--as", "Thoth", "review", "approve", "RVW-001", "--notes", "reads well [thoth]"]);
    await c1.ok(["--as", "Maat", "review", "approve", "RVW-001", "--notes", "tests pass [maat]"]);
    await c0.ok(["sync"]);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toContain(
      "conflict in RVW-001 (status, reviewer, reason): origin's value kept; yours is in ENG-M-0001's notes",
    );
    expect(await c1.json<any>(["review", "show", "RVW-001"], "review")).toMatchObject({
      status: "APPROVED",
      reviewer: "Thoth",
      reason: "reads well [thoth]",
    });
    const t = await c1.json<any>(["task", "show", "1"], "task");
    expect(t.status).toBe("COMPLETE");
    const kept = conflictNotes(t).map((n: any) => n.text);
    expect(
      kept.some((x: string) => x.startsWith("RVW-001: sync with origin kept status APPROVED, reviewer Thoth")),
    ).toBe(true);
    expect(
      kept.some((x: string) => x.includes("this clone had status APPROVED, reviewer Maat, reason tests pass [maat]")),
    ).toBe(true);
  });

  it("the report puts what needs action first: dropped claims, cycles, conflicts, then renumberings, counted when many", async () => {
    const { c0, c1 } = await twoClonesWithATask(1);
    // Clone 0 publishes ten tasks and a claim; clone 1, offline, made ten of its own, claimed the
    // same task, changed a priority both ways and closed a dependency cycle.
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await c0.ok(["task", "priority", "2", "high"]);
    await c0.ok(["task", "depend", "1", "2"]);
    for (let i = 0; i < 10; i++) await c0.ok(["task", "create", "--title", `Theirs ${i}`, "--role", "engineer"]);
    await c1.ok(["--as", "Ptah", "task", "claim", "1"]);
    await c1.ok(["task", "priority", "2", "low"]);
    await c1.ok(["task", "depend", "2", "1"]);
    for (let i = 0; i < 10; i++) await c1.ok(["task", "create", "--title", `Mine ${i}`, "--role", "tester"]);
    await c0.ok(["sync"]);
    const lines = (await c1.ok(["sync"])).stdout.split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const dropped = at(/your claim by Ptah was dropped/);
    const cycle = at(/the merge closed a dependency cycle/);
    const conflict = at(/^ {2}conflict in ENG-\w-0002 \(priority\)/);
    const renumbered = at(
      /^ {2}renumbered 10 records \(10 tasks; their numbers were taken on origin\): TST-M-0003 → TST-M-0013, /,
    );
    expect(
      [dropped, cycle, conflict, renumbered].every((i) => i > 0),
      lines.join("\n"),
    ).toBe(true);
    expect(dropped).toBeLessThan(cycle);
    expect(cycle).toBeLessThan(conflict);
    expect(conflict).toBeLessThan(renumbered);
    expect(lines[renumbered]).toMatch(/ and 2 more \(--json lists every one\)$/);
    expect(lines.filter((l) => /renumbered/.test(l))).toHaveLength(1);
  });
});
