import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";
import { git } from "../../helpers/repo.js";

/** Issue 3, item 2: reviews and the review rows of the DESIGN §1.4 table. */

const REF = "refs/coordination/main";

async function project() {
  const p = await initializedProject();
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await p.ok(["mission", "start", "--role", "inspector", "--persona", "Argus"]);
  await p.ok(["task", "create", "--title", "Add login", "--role", "engineer", "--priority", "high"]);
  await p.ok(["--as", "Hephaestus", "task", "claim", "1"]);
  return p;
}

const H = ["--as", "Hephaestus"];
const A = ["--as", "Argus"];
const records = (dir: string) =>
  git(dir, "log", "-1", "--format=%B", REF)
    .split("\n")
    .find((l) => l.startsWith("Pantheon-Records:")) ?? "";

describe("reviews", () => {
  it("review create: a general review by default, task_completion with --task, ids RVW-001…", async () => {
    const p = await project();
    const general = await p.json([...A, "review", "create", "--title", "Threat model"], "review");
    expect(general).toMatchObject({
      id: "RVW-001",
      type: "general",
      status: "PENDING",
      task: null,
      requestedBy: "Argus",
      reviewer: null,
      reason: null,
    });
    const forTask = await p.json([...H, "review", "create", "--title", "Look at login", "--task", "1"], "review");
    expect(forTask).toMatchObject({
      id: "RVW-002",
      type: "task_completion",
      task: "ENG-H-0001",
      requestedBy: "Hephaestus",
    });
    const design = await p.json(
      ["review", "create", "--title", "ADR 3", "--type", "design", "--artifact", "docs/adr/003.md"],
      "review",
    );
    expect(design).toMatchObject({
      id: "RVW-003",
      type: "design",
      requestedBy: "Director",
      artifact: "docs/adr/003.md",
    });
    expect((await p.json(["review", "show", "3"], "review")).id).toBe("RVW-003");
    expect((await p.json(["review", "show", "rvw-002"], "review")).task).toBe("ENG-H-0001");
    await p.refused(["review", "create", "--title", "x", "--type", "poetry"], 2);
    await p.refused(["review", "create", "--title", "x", "--task", "ENG-H-0042"], 1);
    await p.refused(["review", "show", "RVW-042"], 1);
    await p.refused(["review", "show", "REV-1"], 2);
    await p.refused(["review", "list", "--status", "maybe"], 2);
  });

  it("update --status REVIEW requests one review; a second trip while one is pending does not; --no-review skips", async () => {
    const p = await project();
    const first = await p.envelope([...H, "task", "update", "1", "--status", "REVIEW"]);
    expect(first.changed!.map((c) => c.id)).toEqual(["RVW-001"]);
    expect(records(p.dir)).toMatch(/reviews\/1/);
    // back to UNDERWAY and to REVIEW again: RVW-001 is still pending, so no new review
    await p.ok([...H, "task", "update", "1", "--status", "UNDERWAY"]);
    const second = await p.envelope([...H, "task", "update", "1", "--status", "REVIEW"]);
    expect(second.changed ?? []).toEqual([]);
    expect(await p.json<any[]>(["review", "list"], "reviews")).toHaveLength(1);

    await p.ok(["task", "create", "--title", "Add logout", "--role", "engineer"]);
    await p.ok([...H, "task", "claim", "2"]);
    const skipped = await p.envelope([...H, "task", "update", "2", "--status", "REVIEW", "--no-review"]);
    expect(skipped.data.status).toBe("REVIEW");
    expect(skipped.changed ?? []).toEqual([]);
    expect((await p.json<any[]>(["review", "list"], "reviews")).map((r) => r.task)).toEqual(["ENG-H-0001"]);
  });

  it("review list --status filters (case-insensitive, repeatable)", async () => {
    const p = await project();
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW"]);
    await p.ok([...A, "review", "create", "--title", "Other"]);
    await p.ok([...A, "review", "approve", "RVW-001"]);
    expect((await p.json<any[]>(["review", "list", "--status", "pending"], "reviews")).map((r) => r.id)).toEqual([
      "RVW-002",
    ]);
    expect((await p.json<any[]>(["review", "list", "--status", "APPROVED"], "reviews")).map((r) => r.id)).toEqual([
      "RVW-001",
    ]);
    expect(
      (await p.json<any[]>(["review", "list", "--status", "approved", "--status", "pending"], "reviews")).map(
        (r) => r.id,
      ),
    ).toEqual(["RVW-001", "RVW-002"]);
    const piped = await p.ok(["review", "list"]);
    expect(piped.stdout.trimEnd().split("\n")).toHaveLength(3);
    expect(piped.stdout.split("\n")[0]!.split("\t")[0]).toBe("ID");
    expect(piped.stdout.split("\n")[1]!.split("\t")[0]).toBe("RVW-001");
  });

  it("approve completes a task in REVIEW in the same commit (completedBy = the claimant)", async () => {
    const p = await project();
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW"]);
    const before = Number(git(p.dir, "rev-list", "--count", REF).trim());
    const r = await p.ok([...A, "review", "approve", "RVW-001", "--notes", "tests cover expiry"]);
    expect(r.stdout).toMatch(/^✓ Approved RVW-001/);
    expect(Number(git(p.dir, "rev-list", "--count", REF).trim())).toBe(before + 1);
    expect(records(p.dir)).toMatch(/reviews\/1/);
    expect(records(p.dir)).toMatch(/tasks\/1\b/);
    expect(await p.json(["task", "show", "1"], "task")).toMatchObject({
      status: "COMPLETE",
      completedBy: "Hephaestus",
    });
    expect(await p.json(["review", "show", "RVW-001"], "review")).toMatchObject({
      status: "APPROVED",
      reviewer: "Argus",
      reason: "tests cover expiry",
    });
  });

  it("reject sends the task back to UNDERWAY with the reason as a review note; --reason is required", async () => {
    const p = await project();
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW"]);
    await p.refused([...A, "review", "reject", "RVW-001"], 2);
    await p.refused([...A, "review", "reject", "RVW-001", "--reason", "  "], 2);
    const rej = await p.envelope([...A, "review", "reject", "RVW-001", "--reason", "no test for token expiry"]);
    expect(rej.data).toMatchObject({ status: "REJECTED", reviewer: "Argus", reason: "no test for token expiry" });
    expect(rej.changed!.map((c) => [c.id, c.status])).toEqual([["ENG-H-0001", "UNDERWAY"]]);
    const t = await p.json(["task", "show", "1"], "task");
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", completedBy: null });
    expect(t.notes.at(-1)).toMatchObject({ kind: "review", by: "Argus" });
    expect(t.notes.at(-1).text).toContain("no test for token expiry");
    // a rejected review cannot be approved afterwards
    await p.refused([...A, "review", "approve", "RVW-001"], 1);
  });

  it("reject takes --notes as every task command does (the same as --reason); both at once is a usage error", async () => {
    const p = await project();
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW"]);
    const both = await p.refused(
      [...A, "review", "reject", "RVW-001", "--notes", "no test", "--reason", "no test either"],
      2,
      /--notes and --reason are the same; give one/,
    );
    expect(both.stderr).toContain('hint: pantheon review reject RVW-001 --notes "add tests for expiry"');
    await p.refused([...A, "review", "reject", "RVW-001"], 2, /needs --notes \(or --reason\)/);
    await p.refused([...A, "review", "reject", "RVW-001", "--notes", " "], 2, /--notes must say what to change/);
    const rej = await p.envelope([...A, "review", "reject", "RVW-001", "--notes", "no test for token expiry"]);
    expect(rej.data).toMatchObject({ status: "REJECTED", reviewer: "Argus", reason: "no test for token expiry" });
    const t = await p.json(["task", "show", "1"], "task");
    expect(t.status).toBe("UNDERWAY");
    expect(t.notes.at(-1)).toMatchObject({
      kind: "review",
      by: "Argus",
      text: "RVW-001 rejected: no test for token expiry",
    });
  });

  it("review show says what the actor may do (or why not) and gives the task's latest notes", async () => {
    const p = await project();
    for (let i = 1; i <= 6; i++) await p.ok([...H, "task", "note", "1", `step ${i} done`]);
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW", "--notes", "ready for review"]);

    const argus = await p.json([...A, "review", "show", "RVW-001"], "review");
    expect(argus).toMatchObject({
      id: "RVW-001",
      allowedActions: ["approve", "reject"],
      notAllowed: null,
      taskNoteCount: 7,
    });
    expect(argus.taskNotes.map((n: any) => n.text)).toEqual([
      "step 3 done",
      "step 4 done",
      "step 5 done",
      "step 6 done",
      "ready for review",
    ]);
    const human = (await p.ok([...A, "review", "show", "RVW-001"])).stdout;
    expect(human).toContain("\nNotes on ENG-H-0001 (latest 5 of 7)\n");
    expect(human).toMatch(/ Hephaestus \[note\] ready for review\n/);
    expect(human.trimEnd().split("\n").at(-1)).toBe("You may: approve · reject");

    const own = (await p.ok([...H, "review", "show", "RVW-001"])).stdout.trimEnd().split("\n").at(-1);
    expect(own).toBe("You may not decide it: Hephaestus requested it; another persona or the Director decides it");
    await p.ok([...A, "review", "approve", "RVW-001"]);
    const done = await p.json(["review", "show", "RVW-001"], "review");
    expect(done).toMatchObject({ allowedActions: [], notAllowed: "it is APPROVED (by Argus)" });
  });

  it("a reviewer may not decide their own request unless Director or --force", async () => {
    const p = await project();
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW"]);
    const self = await p.refused([...H, "review", "approve", "RVW-001"], 1);
    // The refusal says who may decide it; it never tells the requester to force it.
    expect(self.stderr).toMatch(/another persona should review it/);
    expect(self.stderr).not.toContain("--force");
    await p.refused([...H, "review", "reject", "RVW-001", "--reason", "meh"], 1);
    // persona names compare case-insensitively
    await p.refused(["--as", "hephaestus", "review", "approve", "RVW-001"], 1);
    await p.ok([...H, "review", "reject", "RVW-001", "--reason", "found a bug myself", "--force"]);
    expect((await p.json(["task", "show", "1"], "task")).status).toBe("UNDERWAY");

    // the Director may approve the Director's own request
    const own = await p.json(["review", "create", "--title", "Director's own"], "review");
    const approved = await p.json(["review", "approve", own.id], "review");
    expect(approved).toMatchObject({ status: "APPROVED", reviewer: "Director", requestedBy: "Director" });
  });

  it("deciding a review whose task is not in REVIEW changes only the review", async () => {
    const p = await project();
    const r = await p.json([...A, "review", "create", "--title", "Early look", "--task", "1"], "review");
    const before = await p.json(["task", "show", "1"], "task");
    const approved = await p.envelope([...H, "review", "approve", r.id]);
    expect(approved.data.status).toBe("APPROVED");
    expect(approved.changed ?? []).toEqual([]);
    expect(records(p.dir)).toBe("Pantheon-Records: reviews/1");
    const after = await p.json(["task", "show", "1"], "task");
    expect(after).toEqual(before);
  });

  it("closing a task withdraws its pending reviews, COMPLETE or ABORTED, in the same commit", async () => {
    const p = await project();
    await p.ok([...H, "task", "update", "1", "--status", "REVIEW"]);
    await p.ok([...A, "review", "create", "--title", "Second opinion", "--task", "1"]);
    const closed = await p.envelope([...H, "task", "close", "1"]);
    expect(closed.changed!.map((c) => c.id).sort()).toEqual(["RVW-001", "RVW-002"]);
    expect(records(p.dir)).toMatch(/reviews\/1/);
    expect(records(p.dir)).toMatch(/reviews\/2/);
    for (const id of ["RVW-001", "RVW-002"])
      expect((await p.json(["review", "show", id], "review")).status).toBe("WITHDRAWN");

    await p.ok(["task", "create", "--title", "Add logout", "--role", "engineer"]);
    await p.ok([...A, "review", "create", "--title", "Needed?", "--task", "2"]);
    await p.ok([...A, "review", "create", "--title", "Decided already", "--task", "2"]);
    await p.ok([...H, "review", "approve", "RVW-004"]);
    const aborted = await p.envelope(["task", "close", "2", "--status", "ABORTED", "--notes", "not needed"]);
    expect(aborted.changed!.map((c) => c.id)).toEqual(["RVW-003"]);
    expect((await p.json(["review", "show", "RVW-003"], "review")).status).toBe("WITHDRAWN");
    expect((await p.json(["review", "show", "RVW-004"], "review")).status).toBe("APPROVED");
    // a withdrawn review cannot be decided
    await p.refused([...A, "review", "approve", "RVW-003"], 1);
  });
});
