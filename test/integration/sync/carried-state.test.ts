/**
 * What a sync merge carries besides ordinary records (DESIGN §2.1, §3.3; issue 5 item 3): unknown
 * and corrupt entries travel unchanged, and two ACTIVE missions with one persona name after a
 * merge are shown (doctor, dashboard) and both keep working.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";
import { writeOntoRef } from "../cli/fixture.js";

const blob = (c: Clone, path: string) => c.git("rev-parse", `${REF}:${path}`).trim();

describe("entries a merge does not understand", () => {
  it("an unknown entry and a corrupt record published by one clone survive another clone's merge unchanged", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Fine", "--role", "engineer"]);
    writeOntoRef(c0.dir, { "extensions/board.json": '{"columns":3}\n', "tasks/09/9.json": "{ not json\n" });
    await c0.ok(["sync"]);
    const unknown = blob(c0, "extensions/board.json");
    const corrupt = blob(c0, "tasks/09/9.json");

    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toMatch(/merged/);
    expect(blob(c1, "extensions/board.json")).toBe(unknown);
    expect(blob(c1, "tasks/09/9.json")).toBe(corrupt);
    // list-type commands skip the corrupt record with a warning and keep working
    const list = await c1.run(["task", "list", "--json"]);
    expect(list.exitCode).toBe(0);
    expect(
      JSON.parse(list.stdout)
        .data.map((t: any) => t.title)
        .sort(),
    ).toEqual(["Fine", "Mine"]);
    c1.expectUntouched();
  });

  it("an unknown entry added locally is sent with the merge", async () => {
    const { clones, origin } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Theirs", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    writeOntoRef(c1.dir, { "extensions/mine.txt": "kept\n" });
    await c1.ok(["sync"]);
    expect(git(origin, "cat-file", "-p", `${REF}:extensions/mine.txt`)).toBe("kept\n");
  });
});

describe("one persona name on two ACTIVE missions after a merge", () => {
  it("is shown by doctor and the dashboard, and both missions keep working", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    const a = await c0.json<any>(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    const b = await c1.json<any>(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    await c0.ok(["task", "create", "--title", "For the first", "--role", "engineer"]);
    await c0.ok(["task", "create", "--title", "For the second", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    const missions = await c1.json<any[]>(["mission", "list", "--active"], "missions");
    expect(missions.map((m) => [m.id, m.persona, m.status])).toEqual([
      ["MSN-0001", "Hephaestus", "ACTIVE"],
      ["MSN-0002", "Hephaestus", "ACTIVE"],
    ]);
    const doctor = await c1.run(["doctor"]);
    expect(doctor.exitCode, doctor.stderr).toBe(0);
    expect(doctor.stdout + doctor.stderr).toMatch(/Hephaestus.*two ACTIVE missions|two ACTIVE missions.*Hephaestus/);
    const dashboard = await c1.ok(["dashboard"]);
    expect(dashboard.stdout.match(/Hephaestus/g)?.length ?? 0).toBeGreaterThanOrEqual(2);

    const first = await c1.json<any>(["--mission", `MSN-0001:${a.codename}`, "task", "claim", "1"], "task");
    expect(first).toMatchObject({ claimedBy: "Hephaestus", mission: "MSN-0001" });
    const second = await c1.json<any>(["--mission", `MSN-0001:${b.codename}`, "task", "claim", "2"], "task");
    expect(second, "the renumbered mission, found by its codename").toMatchObject({
      claimedBy: "Hephaestus",
      mission: "MSN-0002",
    });
  });
});
