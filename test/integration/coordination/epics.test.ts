import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";

/** Issue 3, item 1: epics, their links, and status/progress derived right after any change. */

async function project() {
  return initializedProject();
}

type P = Awaited<ReturnType<typeof project>>;

async function tasks(p: P, n: number, role = "engineer"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= n; i++)
    ids.push((await p.json(["task", "create", "--title", `Work item ${i}`, "--role", role], "task")).id);
  return ids;
}

describe("epic create, show, list", () => {
  it("creates an epic with an id from its priority, empty: TODO at 0/0 and 0%", async () => {
    const p = await project();
    const e = await p.json(
      ["epic", "create", "--title", "Payments", "--priority", "critical", "--description", "take money"],
      "epic",
    );
    expect(e).toMatchObject({
      id: "EPC-C-0001",
      number: 1,
      title: "Payments",
      description: "take money",
      priority: "CRITICAL",
      status: "TODO",
      aborted: null,
      progress: { complete: 0, total: 0, percent: 0 },
      tasks: [],
    });
    const second = await p.json(["epic", "create", "--title", "Search"], "epic");
    expect(second.id).toBe("EPC-M-0002");
    expect((await p.json<any[]>(["epic", "list"], "epics")).map((x) => x.id)).toEqual(["EPC-C-0001", "EPC-M-0002"]);
    // any form of its id shows it
    for (const ref of ["EPC-C-0001", "1", "EPC-1", "epc-c-0001"])
      expect((await p.json(["epic", "show", ref], "epic")).id).toBe("EPC-C-0001");
  });

  it("refuses an unknown epic (exit 1) and a malformed id (exit 2)", async () => {
    const p = await project();
    await p.refused(["epic", "show", "EPC-H-0009"], 1);
    await p.refused(["epic", "show", "EPX-1"], 2);
    await p.refused(["epic", "create", "--title", "  "], 2);
    await p.refused(["epic", "create", "--title", "x", "--priority", "urgent"], 2);
  });

  it("shows status and progress derived right after each task change", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    const [a, b, c] = await tasks(p, 3);
    const e = (await p.json(["epic", "create", "--title", "Login"], "epic")).id;
    await p.ok(["epic", "link", e, a!, b!, c!]);
    const show = async () => {
      const x = await p.json(["epic", "show", e], "epic");
      return [x.status, x.progress.complete, x.progress.total, x.progress.percent];
    };
    expect(await show()).toEqual(["TODO", 0, 3, 0]);
    await p.ok(["--as", "Hephaestus", "task", "claim", a!]);
    expect(await show()).toEqual(["UNDERWAY", 0, 3, 0]);
    await p.ok(["--as", "Hephaestus", "task", "close", a!]);
    expect(await show()).toEqual(["UNDERWAY", 1, 3, 33]);
    await p.ok(["task", "close", b!, "--status", "ABORTED", "--notes", "not needed"]);
    expect(await show()).toEqual(["UNDERWAY", 1, 2, 50]);
    await p.ok(["--as", "Hephaestus", "task", "claim", c!]);
    await p.ok(["--as", "Hephaestus", "task", "close", c!]);
    expect(await show()).toEqual(["COMPLETE", 2, 2, 100]);
    await p.ok(["task", "reopen", c!, "--notes", "regression"]);
    expect(await show()).toEqual(["UNDERWAY", 1, 2, 50]);
    // unlinking the open task completes the epic again: derived, never stored
    await p.ok(["epic", "unlink", e, c!]);
    expect(await show()).toEqual(["COMPLETE", 1, 1, 100]);
  });

  it("is not COMPLETE when every linked task is ABORTED", async () => {
    const p = await project();
    const [a, b] = await tasks(p, 2);
    const e = (await p.json(["epic", "create", "--title", "Doomed"], "epic")).id;
    await p.ok(["epic", "link", e, a!, b!]);
    await p.ok(["task", "close", a!, "--status", "ABORTED", "--notes", "no"]);
    await p.ok(["task", "close", b!, "--status", "ABORTED", "--notes", "no"]);
    const x = await p.json(["epic", "show", e], "epic");
    expect(x.status).not.toBe("COMPLETE");
    expect(x.progress).toEqual({ complete: 0, total: 0, percent: 0 });
  });
});

describe("epic link and unlink", () => {
  it("links tasks (listing them under changed) and moves a task from its previous epic with a notice", async () => {
    const p = await project();
    const [a, b] = await tasks(p, 2);
    const e1 = (await p.json(["epic", "create", "--title", "One"], "epic")).id;
    const e2 = (await p.json(["epic", "create", "--title", "Two"], "epic")).id;
    const linked = await p.envelope(["epic", "link", e1, a!, b!]);
    expect(linked.data.tasks.map((t: any) => t.id)).toEqual([a, b]);
    expect(linked.changed!.map((t: any) => [t.id, t.epic])).toEqual([
      [a, e1],
      [b, e1],
    ]);

    const r = await p.ok(["epic", "link", e2, b!]);
    expect(r.stdout).toMatch(/^✓ /);
    // Both epics by id: never "moves from epic 1".
    expect(r.stderr).toContain(`note: ${b} moves from ${e1} to ${e2}`);
    expect((await p.json(["task", "show", b!], "task")).epic).toBe(e2);
    expect((await p.json(["epic", "show", e1], "epic")).tasks.map((t: any) => t.id)).toEqual([a]);
    expect((await p.json(["epic", "show", e2], "epic")).tasks.map((t: any) => t.id)).toEqual([b]);
    // `task list --epic` agrees
    expect((await p.json<any[]>(["task", "list", "--epic", e2], "tasks")).map((t) => t.id)).toEqual([b]);
  });

  it("linking a task that is already linked changes nothing else", async () => {
    const p = await project();
    const [a] = await tasks(p, 1);
    const e = (await p.json(["epic", "create", "--title", "One"], "epic")).id;
    await p.ok(["epic", "link", e, a!]);
    const again = await p.envelope(["epic", "link", e, a!]);
    expect(again.changed ?? []).toEqual([]);
    expect(again.data.tasks.map((t: any) => t.id)).toEqual([a]);
  });

  it("refuses to link an unknown task or to an unknown epic, writing nothing (even for the good tasks named)", async () => {
    const p = await project();
    const [a] = await tasks(p, 1);
    const e = (await p.json(["epic", "create", "--title", "One"], "epic")).id;
    await p.refused(["epic", "link", e, a!, "ENG-M-0099"], 1);
    expect((await p.json(["task", "show", a!], "task")).epic).toBeNull();
    await p.refused(["epic", "link", "EPC-M-0042", a!], 1);
    await p.refused(["epic", "link", e, "not-an-id"], 2);
  });

  it("unlinks tasks, and refuses a task not in that epic with the ref unchanged", async () => {
    const p = await project();
    const [a, b, c] = await tasks(p, 3);
    const e1 = (await p.json(["epic", "create", "--title", "One"], "epic")).id;
    const e2 = (await p.json(["epic", "create", "--title", "Two"], "epic")).id;
    await p.ok(["epic", "link", e1, a!, b!]);
    await p.ok(["epic", "link", e2, c!]);

    await p.refused(["epic", "unlink", e1, c!], 1, new RegExp(c!));
    await p.refused(["epic", "unlink", e2, a!], 1);
    // one bad task among good ones: nothing is unlinked
    await p.refused(["epic", "unlink", e1, a!, c!], 1);
    expect((await p.json(["task", "show", a!], "task")).epic).toBe(e1);

    const un = await p.envelope(["epic", "unlink", e1, a!]);
    expect(un.data.tasks.map((t: any) => t.id)).toEqual([b]);
    expect(un.changed!.map((t: any) => [t.id, t.epic])).toEqual([[a, null]]);
    await p.refused(["epic", "unlink", e1, a!], 1);
  });
});

describe("epic edit and abort", () => {
  it("edits title, priority (the id follows it) and description", async () => {
    const p = await project();
    const e = await p.json(["epic", "create", "--title", "Old", "--priority", "low"], "epic");
    expect(e.id).toBe("EPC-L-0001");
    const edited = await p.json(
      ["epic", "edit", e.id, "--title", "New", "--priority", "high", "--description", "now with details"],
      "epic",
    );
    expect(edited).toMatchObject({ id: "EPC-H-0001", title: "New", priority: "HIGH", description: "now with details" });
    // the stale id still resolves (the number is identity)
    expect((await p.json(["epic", "show", "EPC-L-0001"], "epic")).id).toBe("EPC-H-0001");
    await p.refused(["epic", "edit", e.id], 2);
    await p.refused(["epic", "edit", e.id, "--title", ""], 2);
  });

  it("aborts once with a reason; a second abort is refused; linking to it is refused", async () => {
    const p = await project();
    const [a, b] = await tasks(p, 2);
    const e = (await p.json(["epic", "create", "--title", "Descoped", "--priority", "high"], "epic")).id;
    await p.ok(["epic", "link", e, a!]);
    await p.refused(["epic", "abort", e, "--reason", "   "], 2);
    await p.refused(["epic", "abort", e], 2);

    const aborted = await p.json(["epic", "abort", e, "--reason", "descoped for 1.0"], "epic");
    expect(aborted).toMatchObject({ id: e, status: "ABORTED", aborted: "descoped for 1.0" });
    // its tasks are left as they are
    expect(await p.json(["task", "show", a!], "task")).toMatchObject({ status: "TODO", epic: e });

    await p.refused(["epic", "abort", e, "--reason", "again"], 1, /ABORTED/);
    await p.refused(["epic", "link", e, b!], 1, /ABORTED/);
    await p.refused(["task", "link", b!, e], 1, /ABORTED/);
    expect((await p.json(["task", "show", b!], "task")).epic).toBeNull();
    expect((await p.json(["epic", "show", e], "epic")).status).toBe("ABORTED");
  });

  it("refuses to create a task straight into an ABORTED epic, as linking is refused", async () => {
    const p = await project();
    const e = (await p.json(["epic", "create", "--title", "Descoped"], "epic")).id;
    await p.ok(["epic", "abort", e, "--reason", "gone"]);
    await p.refused(["task", "create", "--title", "Late work", "--role", "engineer", "--epic", e], 1);
  });
});

describe("task create --epic, task link, task unlink", () => {
  it("creates a task linked to an epic", async () => {
    const p = await project();
    const e = (await p.json(["epic", "create", "--title", "Login", "--priority", "high"], "epic")).id;
    const t = await p.json(["task", "create", "--title", "Add login", "--role", "engineer", "--epic", e], "task");
    expect(t.epic).toBe(e);
    expect((await p.json(["epic", "show", e], "epic")).tasks.map((x: any) => x.id)).toEqual([t.id]);
    // by number too
    const u = await p.json(["task", "create", "--title", "Add logout", "--role", "engineer", "--epic", "1"], "task");
    expect(u.epic).toBe(e);
    await p.refused(["task", "create", "--title", "X", "--role", "engineer", "--epic", "EPC-H-0077"], 1);
    await p.refused(["task", "create", "--title", "X", "--role", "engineer", "--epic", "nope"], 2);
  });

  it("task link ID EPIC links (moving from another epic), task unlink ID unlinks", async () => {
    const p = await project();
    const [a] = await tasks(p, 1);
    const e1 = (await p.json(["epic", "create", "--title", "One"], "epic")).id;
    const e2 = (await p.json(["epic", "create", "--title", "Two"], "epic")).id;

    const linked = await p.json(["task", "link", a!, e1], "task");
    expect(linked).toMatchObject({ id: a, epic: e1 });
    expect((await p.json(["epic", "show", e1], "epic")).progress.total).toBe(1);

    const moved = await p.json(["task", "link", a!, e2], "task");
    expect(moved.epic).toBe(e2);
    expect((await p.json(["epic", "show", e1], "epic")).progress.total).toBe(0);

    const human = await p.ok(["task", "unlink", a!]);
    expect(human.stdout).toMatch(/^✓ .*Unlinked/);
    expect((await p.json(["task", "show", a!], "task")).epic).toBeNull();
    expect((await p.json(["epic", "show", e2], "epic")).tasks).toEqual([]);

    // a task in no epic cannot be unlinked
    await p.refused(["task", "unlink", a!], 1);
    await p.refused(["task", "link", a!, "EPC-M-0009"], 1);
    await p.refused(["task", "link", "ENG-M-0099", e1], 1);
  });

  it("task unlink --json returns the task without its epic", async () => {
    const p = await project();
    const [a] = await tasks(p, 1);
    const e = (await p.json(["epic", "create", "--title", "One"], "epic")).id;
    await p.ok(["task", "link", a!, e]);
    const un = await p.json(["task", "unlink", a!], "task");
    expect(un).toMatchObject({ id: a, epic: null });
  });
});
