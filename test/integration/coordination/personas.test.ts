import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";
import { stateRef } from "../../helpers/repo.js";

/** Issue 3, item 3: `persona suggest ROLE`, `persona activity`, `task mine`. */

async function project() {
  return initializedProject();
}

describe("persona suggest", () => {
  it("suggests a free name of the role, and another once that name starts a mission", async () => {
    const p = await project();
    const first = await p.json(["persona", "suggest", "engineer"], "persona");
    expect(typeof first.name).toBe("string");
    expect(first.name.length).toBeGreaterThan(0);
    expect(first.uses).toBe(0);
    expect(first.theme).toBe("mythology");
    // asking changes nothing
    const ref = stateRef(p.dir);
    expect((await p.json(["persona", "suggest", "ENG"], "persona")).name).toBe(first.name);
    expect(stateRef(p.dir)).toBe(ref);

    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", first.name], "mission");
    expect(m.persona).toBe(first.name);
    const second = await p.json(["persona", "suggest", "engineer"], "persona");
    expect(second.name).not.toBe(first.name);
    // `mission start` without --persona picks the suggested name
    const picked = await p.json(["mission", "start", "--role", "engineer"], "mission");
    expect(picked.persona).toBe(second.name);
    expect((await p.json(["persona", "suggest", "engineer"], "persona")).name).not.toBe(second.name);
  });

  it("prefers the least-used free name: a name whose mission ended is free again, but used", async () => {
    const p = await project();
    const first = (await p.json(["persona", "suggest", "tester"], "persona")).name;
    await p.ok(["mission", "start", "--role", "tester", "--persona", first]);
    await p.ok(["mission", "end", "MSN-0001"]);
    const next = await p.json(["persona", "suggest", "tester"], "persona");
    expect(next.name).not.toBe(first); // an unused name beats a used one
    expect(next.uses).toBe(0);
  });

  it("differs per role and refuses an unknown role (exit 2)", async () => {
    const p = await project();
    const eng = (await p.json(["persona", "suggest", "engineer"], "persona")).name;
    const arc = (await p.json(["persona", "suggest", "architect"], "persona")).name;
    expect(eng).not.toBe(arc);
    const admin = await p.json(["persona", "suggest", "administrator"], "persona");
    expect(typeof admin.name).toBe("string");
    const r = await p.run(["persona", "suggest", "wizard"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^✗ /);
    const human = await p.ok(["persona", "suggest", "engineer"]);
    expect(human.stdout).toContain(eng);
  });
});

describe("persona activity", () => {
  it("counts missions, ENDED missions and tasks completed (by completedBy) per persona", async () => {
    const p = await project();
    expect(await p.json<any[]>(["persona", "activity"], "activity")).toEqual([]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["mission", "start", "--role", "inspector", "--persona", "Argus"]);
    for (const title of ["One", "Two", "Three"]) await p.ok(["task", "create", "--title", title, "--role", "engineer"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await p.ok(["--as", "Hephaestus", "task", "close", "1"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "2"]);
    await p.ok(["--as", "Hephaestus", "task", "update", "2", "--status", "REVIEW"]);
    await p.ok(["--as", "Argus", "review", "approve", "RVW-001"]); // completedBy = the claimant
    await p.ok(["--as", "Hephaestus", "task", "claim", "3"]);
    await p.ok(["--as", "Hephaestus", "task", "close", "3"]);
    await p.ok(["task", "reopen", "3", "--notes", "regressed"]); // no longer COMPLETE: not counted
    await p.ok(["mission", "end", "MSN-0001", "--release"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);

    const rows = await p.json<any[]>(["persona", "activity"], "activity");
    expect(rows).toEqual([
      { persona: "Hephaestus", role: "engineer", missions: 2, completedMissions: 1, tasksCompleted: 2 },
      { persona: "Argus", role: "inspector", missions: 1, completedMissions: 0, tasksCompleted: 0 },
    ]);
    const human = await p.ok(["persona", "activity"]);
    expect(human.stdout.split("\n")[0], "piped, the numbers keep their labels").toBe(
      "PERSONA\tROLE\tMISSIONS\tENDED\tTASKS COMPLETED",
    );
    expect(human.stdout.split("\n")[1]).toMatch(/^Hephaestus\tengineer\t2\t1\t2$/);
  });
});

describe("task mine", () => {
  it("lists the persona's live claims only", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    for (const title of ["One", "Two", "Three"]) await p.ok(["task", "create", "--title", title, "--role", "engineer"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "2"]);
    await p.ok(["--as", "Hephaestus", "task", "close", "2"]);
    const mine = await p.json<any[]>(["--as", "Hephaestus", "task", "mine"], "tasks");
    expect(mine.map((t) => t.id)).toEqual(["ENG-M-0001"]);
    const director = await p.run(["task", "mine"]);
    expect(director.exitCode).toBe(2);
  });
});
