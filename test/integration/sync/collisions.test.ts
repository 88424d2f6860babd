/**
 * Number collisions between clones (DESIGN §1.2, §3.4; issue 5 item 4): the published record keeps
 * the number, the local one takes the next free number with `formerNumbers`, every reference to it
 * is rewritten in the merge commit, `sync` prints each renumbering, and old forms keep resolving.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";

/** Three clones where 0 and 1 (and 2) each created TST-H-0001 offline; clone 1 also ENG-M-0002 → its #1. */
async function collision() {
  const { clones, originRef } = await makeOriginAndClones(3);
  const [c0, c1, c2] = clones as [Clone, Clone, Clone];
  await c0.ok(["task", "create", "--title", "Zero's tests", "--role", "tester", "--priority", "high"]);
  const mine = await c1.json<any>(
    ["task", "create", "--title", "One's tests", "--role", "tester", "--priority", "high"],
    "task",
  );
  const dependent = await c1.json<any>(
    ["task", "create", "--title", "One's feature", "--role", "engineer", "--depends-on", "1"],
    "task",
  );
  await c2.ok(["task", "create", "--title", "Two's tests", "--role", "tester", "--priority", "high"]);
  expect([mine.id, dependent.id, dependent.dependencies]).toEqual(["TST-H-0001", "ENG-M-0002", ["TST-H-0001"]]);
  await c0.ok(["sync"]);
  return { c0, c1, c2, originRef };
}

describe("a collision with a dependency on the renumbered task", () => {
  it("the second to sync reports the renumbering, the dependent task follows, formerIds keep the old id", async () => {
    const { c0, c1, c2, originRef } = await collision();
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toMatch(/^✓ Synced with origin: merged/);
    expect(r.stdout).toMatch(/renumbered TST-H-0001 → TST-H-0003\b/);
    expect(c1.ref()).toBe(originRef());

    const moved = await c1.json<any>(["task", "show", "3"], "task");
    expect(moved).toMatchObject({ id: "TST-H-0003", title: "One's tests", formerIds: ["TST-H-0001"] });
    const dep = await c1.json<any>(["task", "show", "2"], "task");
    expect(dep.dependencies, "the dependency was rewritten in the merge commit").toEqual(["TST-H-0003"]);
    expect(dep.blockedBy).toEqual(["TST-H-0003"]);
    const published = await c1.json<any>(["task", "show", "1"], "task");
    expect(published).toMatchObject({ id: "TST-H-0001", title: "Zero's tests", formerIds: [] });

    // the rewrite is part of the merge commit itself (both parents lack it)
    const merge = c1.git("rev-parse", REF).trim();
    expect(c1.git("rev-list", "--parents", "-n", "1", merge).trim().split(" ")).toHaveLength(3);
    const depBlob = JSON.parse(c1.git("cat-file", "-p", `${merge}:tasks/02/2.json`));
    expect(depBlob.dependencies).toEqual([3]);
    expect(JSON.parse(c1.git("cat-file", "-p", `${merge}:tasks/03/3.json`)).formerNumbers).toEqual([1]);

    // a third clone's collision, in --json: the report names ids (DESIGN §4.2)
    const report = await c2.json<any>(["sync"], "sync");
    expect(report.renumbered).toEqual([{ kind: "tasks", from: "TST-H-0001", to: "TST-H-0004" }]);
    expect(report.action).toBe("merged");

    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    expect(new Set([c0.ref(), c1.ref(), c2.ref(), originRef()]).size).toBe(1);
    const all = await c0.json<any[]>(["task", "list"], "tasks");
    expect(all.map((t) => `${t.id} ${t.title}`)).toEqual([
      "TST-H-0001 Zero's tests",
      "ENG-M-0002 One's feature",
      "TST-H-0003 One's tests",
      "TST-H-0004 Two's tests",
    ]);
    for (const c of [c0, c1, c2]) c.expectUntouched();
  });

  it("the old number resolves to the task that owns it now (the published one)", async () => {
    const { c1 } = await collision();
    await c1.ok(["sync"]);
    for (const form of ["1", "0001", "TST-H-0001"]) {
      const t = await c1.json<any>(["task", "show", form], "task");
      expect(t.title, `task show ${form}`).toBe("Zero's tests");
    }
  });

  it("resolving the old number prints a notice naming the renumbered task (DESIGN §1.2)", async () => {
    const { c1 } = await collision();
    await c1.ok(["sync"]);
    const r = await c1.ok(["task", "show", "TST-H-0001"]);
    expect(r.stdout.split("\n")[0]).toContain("Zero's tests");
    expect(r.stderr, "a one-line notice: this clone's TST-H-0001 is now TST-H-0003").toContain("TST-H-0003");
  });
});

describe("a mission renumbered by a collision", () => {
  it("is still found by its codename handle (--mission and PANTHEON_MISSION), and its claims follow it", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    const theirs = await c0.json<any>(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    const mine = await c1.json<any>(["mission", "start", "--role", "engineer", "--persona", "Ptah"], "mission");
    expect([theirs.id, mine.id]).toEqual(["MSN-0001", "MSN-0001"]);
    const handle = `MSN-0001:${mine.codename}`;
    await c1.ok(["task", "create", "--title", "Offline work", "--role", "engineer"]);
    const claimed = await c1.json<any>(["--mission", handle, "task", "claim", "1"], "task");
    expect(claimed.mission).toBe("MSN-0001");

    await c0.ok(["task", "create", "--title", "Zero's work", "--role", "engineer"]);
    await c0.ok(["sync"]);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toContain("MSN-0001 → MSN-0002");
    expect(r.stdout).toContain("ENG-M-0001 → ENG-M-0002");

    const shown = await c1.json<any>(["mission", "show", handle], "mission");
    expect(shown).toMatchObject({ id: "MSN-0002", codename: mine.codename, persona: "Ptah", formerIds: ["MSN-0001"] });
    const offline = await c1.json<any>(["task", "show", "2"], "task");
    expect(offline, "the claim made offline now names the renumbered mission").toMatchObject({
      title: "Offline work",
      claimedBy: "Ptah",
      mission: "MSN-0002",
    });

    // the running assistant still holds the old handle: it acts as Ptah, on MSN-0002
    await c1.ok(["task", "create", "--title", "Next", "--role", "engineer"]);
    const viaFlag = await c1.json<any>(["--mission", handle, "task", "claim", "3"], "task");
    expect(viaFlag).toMatchObject({ claimedBy: "Ptah", mission: "MSN-0002" });
    await c1.ok(["task", "create", "--title", "After", "--role", "engineer"]);
    const viaEnv = await c1.json<any>(["task", "claim", "4"], "task", { env: { PANTHEON_MISSION: handle } });
    expect(viaEnv).toMatchObject({ claimedBy: "Ptah", mission: "MSN-0002" });
    // and Hephaestus's MSN-0001 is untouched by all this
    expect(await c1.json<any>(["mission", "show", "MSN-0001"], "mission")).toMatchObject({
      persona: "Hephaestus",
      codename: theirs.codename,
    });
    c0.expectUntouched();
    c1.expectUntouched();
  });
});
