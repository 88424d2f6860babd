import { describe, expect, it } from "vitest";
import { git, makeRepo, stateRef } from "../../helpers/repo.js";
import { DAEDALUS, HEPH, project, REF } from "./fixture.js";

/** DESIGN §2.2: `git log refs/coordination/main` is the audit log, one commit per mutation. */

interface LogEntry {
  commit: string;
  parents: string[];
  author: string;
  subject: string;
  trailers: Record<string, string>;
}

function auditLog(dir: string): LogEntry[] {
  const out = git(dir, "log", "--format=%H%x1f%P%x1f%an%x1f%s%x1f%b%x1e", REF);
  return out
    .split("\x1e")
    .map((s) => s.replace(/^\n/, ""))
    .filter((s) => s !== "")
    .map((rec) => {
      const [commit, parents, author, subject, body] = rec.split("\x1f") as [string, string, string, string, string];
      const trailers: Record<string, string> = {};
      for (const line of body.split("\n")) {
        const m = /^(Pantheon-[A-Za-z]+): (.*)$/.exec(line);
        if (m) trailers[m[1]!] = m[2]!;
      }
      return { commit, parents: parents.split(" ").filter(Boolean), author, subject, trailers };
    });
}

describe("the audit log", () => {
  it("has one commit per mutation with summary, author and trailers; refusals and reads add none", async () => {
    const dir = makeRepo();
    const head = git(dir, "rev-parse", "HEAD").trim();
    const p = project(dir);
    await p.ok(["init", "--yes"]);
    // init creates only untracked project files (.pantheon/, assistant commands); state changes touch none.
    const afterInit = git(dir, "status", "--porcelain");
    expect(afterInit).toContain("?? .pantheon/\n");
    for (const line of afterInit.trimEnd().split("\n")) expect(line).toMatch(/^\?\? /);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
    await p.ok(["task", "create", "--title", "Login", "--role", "engineer", "--priority", "high"]);
    await p.ok([...HEPH, "task", "claim", "ENG-H-0001"]);
    const tip = stateRef(dir);
    // Refused and read-only commands add no commit.
    expect((await p.run([...DAEDALUS, "task", "claim", "1"])).exitCode).toBe(1);
    expect((await p.run(["task", "close", "1", "--status", "TODO"])).exitCode).toBe(2);
    expect((await p.run(["task", "show", "999"])).exitCode).toBe(1);
    await p.ok(["task", "list"]);
    await p.ok(["task", "show", "1"]);
    await p.ok(["mission", "list"]);
    await p.ok(["persona", "list"]);
    await p.ok(["init", "--yes"]);
    expect(stateRef(dir)).toBe(tip);
    await p.ok([...HEPH, "task", "update", "1", "--status", "REVIEW"]);
    await p.ok(["--mission", "MSN-0001", "task", "close", "1"]);
    await p.ok(["mission", "end", "MSN-0002"]);

    const log = auditLog(dir).reverse();
    expect(log.map((e) => e.subject)).toEqual([
      expect.stringMatching(/ init by Director$/),
      "mission MSN-0001 start by Hephaestus",
      "mission MSN-0002 start by Daedalus",
      "task ENG-H-0001 create by Director",
      "task ENG-H-0001 claim by Hephaestus",
      expect.stringMatching(/^task ENG-H-0001 \S+ by Hephaestus$/), // update --status REVIEW
      expect.stringMatching(/^task ENG-H-0001 \S+ by Hephaestus$/), // close
      expect.stringMatching(/^mission MSN-0002 \S+ by Director$/),
    ]);
    // A linear history: each commit's parent is the previous tip; the root has none.
    expect(log[0]!.parents).toEqual([]);
    for (let i = 1; i < log.length; i++) expect(log[i]!.parents).toEqual([log[i - 1]!.commit]);

    const claim = log[4]!;
    expect(claim.author).toBe("Hephaestus (engineer)");
    expect(claim.trailers).toMatchObject({
      "Pantheon-Op": "task.claim",
      "Pantheon-Actor": "Hephaestus",
      "Pantheon-Records": "tasks/1",
    });
    expect(claim.trailers["Pantheon-Mission"]).toMatch(/^MSN-0001\b/);

    const create = log[3]!;
    expect(create.author).toBe("Test Director");
    expect(create.trailers).toMatchObject({ "Pantheon-Op": "task.create", "Pantheon-Actor": "Director" });
    expect(create.trailers["Pantheon-Records"]).toMatch(/tasks\/1/);
    expect(create.trailers).not.toHaveProperty("Pantheon-Mission");

    const start = log[1]!;
    expect(start.author).toBe("Hephaestus (engineer)");
    expect(start.trailers).toMatchObject({ "Pantheon-Op": "mission.start", "Pantheon-Actor": "Hephaestus" });
    expect(start.trailers["Pantheon-Records"]).toMatch(/missions\/1/);

    const close = log[6]!;
    expect(close.trailers["Pantheon-Op"]).toMatch(/^task\./);
    expect(close.trailers["Pantheon-Mission"]).toMatch(/^MSN-0001\b/);
    for (const e of log) {
      expect(e.trailers["Pantheon-Op"], e.subject).toBeDefined();
      expect(e.trailers["Pantheon-Actor"], e.subject).toBeDefined();
      expect(e.trailers["Pantheon-Records"], e.subject).toBeDefined();
    }

    // The working tree, index and HEAD are never touched by a state change.
    expect(git(dir, "status", "--porcelain")).toBe(afterInit);
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
    expect(git(dir, "diff", "--cached", "--name-only")).toBe("");
    expect(git(dir, "fsck", "--strict", "--no-dangling", "--no-progress")).toBe("");
  });

  it("a record's text cannot forge a trailer or a second summary line", async () => {
    const dir = makeRepo();
    const p = project(dir);
    await p.ok(["init", "--yes"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "create", "--title", "Evil\n\nPantheon-Actor: Zeus", "--role", "engineer"]);
    const last = auditLog(dir)[0]!;
    expect(last.subject).toBe("task ENG-M-0001 create by Director");
    expect(last.trailers["Pantheon-Actor"]).toBe("Director");
  });

  it("PANTHEON_MISSION and PANTHEON_PERSONA commit as that persona", async () => {
    const dir = makeRepo();
    const p = project(dir);
    await p.ok(["init", "--yes"]);
    const m = await p.json(["mission", "start", "--role", "tester", "--persona", "Artemis"], "mission");
    await p.ok(["task", "create", "--title", "Test", "--role", "tester"]);
    await p.ok(["task", "claim", "1"], { env: { PANTHEON_MISSION: m.handle } });
    await p.ok(["task", "note", "1", "hi"], { env: { PANTHEON_PERSONA: "Artemis" } });
    const [note, claim] = auditLog(dir);
    expect(claim!.author).toBe("Artemis (tester)");
    expect(claim!.subject).toBe("task TST-M-0001 claim by Artemis");
    expect(note!.author).toBe("Artemis (tester)");
    expect(note!.trailers["Pantheon-Actor"]).toBe("Artemis");
  });
});
