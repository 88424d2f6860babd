/**
 * An epic as a scope (DESIGN §1.5, §4.1): `task prereqs EPC-...` answers "what must be done
 * before the release", and `dashboard --epic` shows only the personas and the activity of that
 * epic's tasks.
 */
import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";

type P = Awaited<ReturnType<typeof initializedProject>>;

/** A release epic whose docs wait on tests, which wait on an implementation, which waits on a design outside it; another epic beside it. */
async function release(p: P): Promise<void> {
  await p.ok(["mission", "start", "--role", "architect", "--persona", "Athena"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
  await p.ok(["epic", "create", "--title", "Release 1.0", "--priority", "high"]);
  await p.ok(["epic", "create", "--title", "Build cleanup"]);
  await p.ok(["task", "create", "--title", "Design sign-in", "--role", "architect", "--priority", "high"]);
  await p.ok([
    "task",
    "create",
    "--title",
    "Implement sign-in",
    "--role",
    "eng",
    "--depends-on",
    "1",
    "--epic",
    "EPC-H-0001",
  ]);
  await p.ok([
    "task",
    "create",
    "--title",
    "Test sign-in",
    "--role",
    "tester",
    "--depends-on",
    "2",
    "--epic",
    "EPC-H-0001",
  ]);
  await p.ok([
    "task",
    "create",
    "--title",
    "Document sign-in",
    "--role",
    "doc",
    "--priority",
    "low",
    "--depends-on",
    "3",
    "--epic",
    "1",
  ]);
  await p.ok(["task", "create", "--title", "Release notes", "--role", "doc", "--priority", "critical", "--epic", "1"]);
  await p.ok(["task", "create", "--title", "Faster build", "--role", "eng", "--epic", "EPC-M-0002"]);
  await p.ok(["--as", "Athena", "task", "claim", "1"]);
  await p.ok(["--as", "Daedalus", "task", "claim", "6"]);
}

describe("task prereqs EPC-...: what must be done before the release", () => {
  it("lists the epic's open tasks and what they wait on, in an order that can be worked, with who holds each", async () => {
    const p = await initializedProject();
    await release(p);
    const data = await p.json<any[]>(["task", "prereqs", "EPC-H-0001"], "tasks");
    expect(data.map((t) => [t.id, t.status, t.claimedBy])).toEqual([
      ["DOC-C-0005", "TODO", null],
      ["ARC-H-0001", "UNDERWAY", "Athena"],
      ["ENG-M-0002", "TODO", null],
      ["TST-M-0003", "TODO", null],
      ["DOC-L-0004", "TODO", null],
    ]);
    const human = (await p.ok(["task", "prereqs", "EPC-H-0001"], { tty: true, columns: 100 })).stdout;
    expect(human.split("\n")[0]).toBe('To finish EPC-H-0001 "Release 1.0", in order:');
    expect(human).toMatch(/2\s+ARC-H-0001\s+UNDERWAY\s+Athena\s+Design sign-in/);
    // A stale letter resolves with a notice, as every epic id does; an unknown epic is not found.
    const stale = await p.ok(["task", "prereqs", "EPC-L-0001"]);
    expect(stale.stderr).toContain("note: EPC-L-0001 is now EPC-H-0001");
    await p.refused(["task", "prereqs", "EPC-H-0009"], 1, /No epic EPC-H-0009/);
  });

  it("an epic whose tasks are all closed has nothing left", async () => {
    const p = await initializedProject();
    await p.ok(["epic", "create", "--title", "Done"]);
    await p.ok(["task", "create", "--title", "Only", "--role", "eng", "--epic", "1"]);
    await p.ok(["task", "close", "1", "--status", "ABORTED", "--notes", "not needed"]);
    expect(await p.json(["task", "prereqs", "EPC-M-0001"], "tasks")).toEqual([]);
    expect((await p.ok(["task", "prereqs", "EPC-M-0001"])).stdout).toBe("EPC-M-0001 has no open task\n");
  });
});

describe("dashboard --epic scopes personas and activity too", () => {
  it("shows only personas holding the epic's tasks, with those claims, and only activity on the epic and its tasks", async () => {
    const p = await initializedProject();
    await release(p);
    await p.ok(["--as", "Hephaestus", "task", "claim", "ENG-M-0002", "--force"]);
    await p.ok(["task", "note", "6", "other epic's note"]);
    const d = await p.json<any>(["dashboard", "--epic", "EPC-H-0001"], "dashboard");
    expect(d.missions.map((m: any) => [m.persona, m.claims.map((t: any) => t.id)])).toEqual([
      ["Hephaestus", ["ENG-M-0002"]],
    ]);
    expect(d.recent.length).toBeGreaterThan(0);
    for (const c of d.recent)
      expect(c.summary, c.summary).toMatch(/ENG-M-0002|TST-M-0003|DOC-L-0004|DOC-C-0005|EPC-H-0001/);
    expect(d.recent[0].summary).toContain("ENG-M-0002 claim by Hephaestus");
    // Unscoped, everyone and everything.
    const all = await p.json<any>(["dashboard"], "dashboard");
    expect(all.missions.map((m: any) => m.persona)).toEqual(["Athena", "Hephaestus", "Daedalus"]);
    expect(all.recent[0].summary).toContain("ENG-M-0006");
  });
});
