import { describe, expect, it } from "vitest";
import { makeRepo, readStateFile } from "../../helpers/repo.js";
import { expectRefused, HEPH, project, showTask, writeOntoRef, type Project } from "./fixture.js";

/** DESIGN §1.2: the number is the identity; prefix and letter follow role and priority. */

async function withTask(priority = "medium"): Promise<Project> {
  const p = project(makeRepo());
  await p.ok(["init", "--yes"]);
  await p.ok(["task", "create", "--title", "Login", "--role", "engineer", "--priority", priority]);
  return p;
}

describe("task ids", () => {
  it("after task priority 1 high, ENG-M-0001 still resolves with a one-line notice naming ENG-H-0001", async () => {
    const p = await withTask("medium");
    const changed = await p.ok(["task", "priority", "1", "high"]);
    expect(changed.stdout.split("\n")[0]).toMatch(/^✓ .*ENG-M-0001.*ENG-H-0001/);

    const stale = await p.run(["task", "show", "ENG-M-0001", "--json"]);
    expect(stale.exitCode, stale.stderr).toBe(0);
    expect(JSON.parse(stale.stdout).data.id).toBe("ENG-H-0001");
    const notice = stale.stderr.trimEnd().split("\n");
    expect(notice, "exactly one line of notice").toHaveLength(1);
    expect(notice[0]).toContain("ENG-M-0001");
    expect(notice[0]).toContain("ENG-H-0001");

    const human = await p.run(["task", "show", "eng-m-1"]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(/^ENG-H-0001/);
    expect(human.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(human.stderr).toContain("ENG-H-0001");
  });

  it("1, 0001, ENG-H-0001 and their variants resolve without a notice", async () => {
    const p = await withTask("high");
    for (const form of ["1", "0001", "ENG-H-0001", "eng-h-0001", "ENG-H-1", " 1 "]) {
      const r = await p.run(["task", "show", form, "--json"]);
      expect.soft(r.exitCode, `${JSON.stringify(form)}\n${r.stderr}`).toBe(0);
      expect.soft(JSON.parse(r.stdout || "{}").data?.id, JSON.stringify(form)).toBe("ENG-H-0001");
      expect.soft(r.stderr, JSON.stringify(form)).toBe("");
    }
  });

  it("the id letter follows the priority", async () => {
    const p = await withTask("medium");
    for (const [priority, id] of [
      ["critical", "ENG-C-0001"],
      ["LOW", "ENG-L-0001"],
      ["h", "ENG-H-0001"],
      ["Medium", "ENG-M-0001"],
    ] as const) {
      const t = await p.json(["task", "priority", "1", priority], "task");
      expect(t.id).toBe(id);
      expect((await showTask(p, 1)).id).toBe(id);
    }
  });

  it("the prefix follows the role; the old prefix resolves with a notice", async () => {
    const p = await withTask("high");
    const t = await p.json(["task", "edit", "1", "--role", "tester"], "task");
    expect(t.id).toBe("TST-H-0001");
    const r = await p.run(["task", "show", "ENG-H-0001"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^TST-H-0001/);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("TST-H-0001");
  });

  it("a mutation through a stale id works, with the notice", async () => {
    const p = await withTask("medium");
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "priority", "ENG-M-0001", "critical"]);
    const r = await p.ok([...HEPH, "task", "claim", "ENG-M-0001"]);
    expect(r.stdout).toMatch(/^✓ .*ENG-C-0001/);
    expect(r.stderr).toContain("ENG-C-0001");
    expect((await showTask(p, "ENG-C-0001")).claimedBy).toBe("Hephaestus");
  });

  it("one sequence numbers the tasks of every role; mission ids have their own", async () => {
    const p = await withTask("medium");
    const ids: string[] = [];
    for (const [role, priority] of [
      ["architect", "high"],
      ["tst", "low"],
      ["DOC", "critical"],
      ["inspector", "m"],
      ["operator", "l"],
    ]) {
      ids.push((await p.json(["task", "create", "--title", "x", "--role", role!, "--priority", priority!], "task")).id);
    }
    expect(ids).toEqual(["ARC-H-0002", "TST-L-0003", "DOC-C-0004", "INS-M-0005", "OPR-L-0006"]);
    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    expect(m.id).toBe("MSN-0001");
    expect(m.handle).toMatch(/^MSN-0001:[a-z]+-[a-z]+$/);
  });

  it("a number is never reused: an ABORTED task keeps it and the next create takes a new one", async () => {
    const p = await withTask("medium");
    await p.ok(["task", "close", "1", "--status", "ABORTED", "--notes", "dropped"]);
    expect((await p.json(["task", "create", "--title", "y", "--role", "eng"], "task")).id).toBe("ENG-M-0002");
  });

  it("a form with another role's prefix is not found, with a hint naming the task that has the number (DESIGN §1.2)", async () => {
    const p = await withTask("medium");
    await p.ok(["task", "create", "--title", "Second", "--role", "tester"]);
    // ENG-M-0002 carries number 2, which is TST-M-0002, never an engineer task: no task.
    const r = await expectRefused(p, ["task", "show", "ENG-M-0002"], 1, [/^✗ No task ENG-M-0002$/]);
    expect(r.stderr).toContain("hint: did you mean TST-M-0002?");
  });
});

describe("mission ids", () => {
  it("--mission takes MSN-0001, 1, msn-1, the codename or the handle", async () => {
    const p = await withTask("medium");
    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    for (const ref of ["MSN-0001", "1", "msn-1", m.codename, m.handle]) {
      const r = await p.run(["--mission", ref, "task", "note", "1", ref]);
      expect.soft(r.exitCode, `--mission ${ref}\n${r.stderr}`).toBe(0);
      expect
        .soft((await showTask(p, 1)).notes.at(-1), `--mission ${ref}`)
        .toMatchObject({ by: "Hephaestus", text: ref });
    }
    await p.ok(["--mission", m.handle, "task", "claim", "1"]);
    expect((await showTask(p, 1)).mission).toBe("MSN-0001");
  });
});

describe("formerRoles (DESIGN §1.2)", () => {
  it("task edit --role keeps the old role: its prefix still resolves (with a notice), is shown in formerIds, and is stored once", async () => {
    const p = await withTask("high");
    await p.ok(["task", "edit", "1", "--role", "tester"]);
    await p.ok(["task", "edit", "TST-H-0001", "--role", "documentarian"]);
    await p.ok(["task", "edit", "ENG-H-0001", "--role", "tester"]);
    const t = await showTask(p, 1);
    expect(t.id).toBe("TST-H-0001");
    expect(t.formerIds).toEqual(["ENG-H-0001", "DOC-H-0001"]);
    expect(JSON.parse(readStateFile(p.dir, "tasks/01/1.json")).formerRoles).toEqual([
      "engineer",
      "tester",
      "documentarian",
    ]);
    const human = await p.ok(["task", "show", "1"]);
    expect(human.stdout).toMatch(/formerly\s+ENG-H-0001, DOC-H-0001/);
    for (const form of ["ENG-H-0001", "DOC-M-0001"]) {
      const r = await p.ok(["task", "note", form, "x"]);
      expect(r.stderr.trim()).toBe(`! note: ${form} is now TST-H-0001`);
    }
    await expectRefused(p, ["task", "note", "ARC-H-0001", "x"], 1, [/^✗ No task ARC-H-0001$/]);
  });

  it("a task record written before formerRoles existed reads as [] and takes the field at its next write", async () => {
    const p = await withTask("high");
    const stored = JSON.parse(readStateFile(p.dir, "tasks/01/1.json"));
    delete stored.formerRoles;
    writeOntoRef(p.dir, { "tasks/01/1.json": `${JSON.stringify(stored, null, 2)}\n` });
    expect((await showTask(p, "ENG-H-0001")).formerIds).toEqual([]);
    await p.ok(["task", "edit", "1", "--role", "operator"]);
    expect(JSON.parse(readStateFile(p.dir, "tasks/01/1.json")).formerRoles).toEqual(["engineer"]);
    expect((await showTask(p, "ENG-H-0001")).id).toBe("OPR-H-0001");
  });
});
