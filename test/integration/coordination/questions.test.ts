import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";
import { stateRef } from "../../helpers/repo.js";

/** DESIGN §1.5 through the CLI: next, report, blocked, search, prereqs. */

async function project() {
  return initializedProject();
}

const ids = (list: any[]) => list.map((t) => t.id);

describe("task next", () => {
  it("ranks ready tasks by priority then age, --count limits, and a reason comes with each", async () => {
    const p = await project();
    await p.ok(["task", "create", "--title", "Low one", "--role", "engineer", "--priority", "low"]);
    await p.ok(["task", "create", "--title", "High one", "--role", "engineer", "--priority", "high"]);
    await p.ok(["task", "create", "--title", "Critical one", "--role", "engineer", "--priority", "critical"]);
    await p.ok(["task", "create", "--title", "Second high", "--role", "engineer", "--priority", "high"]);
    await p.ok(["task", "create", "--title", "Tester's", "--role", "tester", "--priority", "critical"]);
    await p.ok([
      "task",
      "create",
      "--title",
      "Blocked high",
      "--role",
      "engineer",
      "--priority",
      "critical",
      "--depends-on",
      "1",
    ]);
    const next = await p.json<any[]>(["task", "next", "--role", "engineer"], "tasks");
    expect(ids(next)).toEqual(["ENG-C-0003", "ENG-H-0002", "ENG-H-0004", "ENG-L-0001"]);
    for (const t of next) {
      expect(t.blockedBy).toEqual([]);
      expect(t.reason).toContain(t.priority);
    }
    expect(ids(await p.json<any[]>(["task", "next", "--role", "eng", "--count", "1"], "tasks"))).toEqual([
      "ENG-C-0003",
    ]);
    // without a role (the Director): every role
    expect(ids(await p.json<any[]>(["task", "next", "--count", "2"], "tasks"))).toEqual(["ENG-C-0003", "TST-C-0005"]);
    // a handed-off task says so
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "ENG-L-0001"]);
    await p.ok(["--as", "Hephaestus", "task", "handoff", "ENG-L-0001", "--notes", "the parser is half done"]);
    const handed = (await p.json<any[]>(["task", "next", "--role", "engineer", "--count", "10"], "tasks")).find(
      (t) => t.id === "ENG-L-0001",
    );
    expect(handed.status).toBe("READY");
    expect(handed.reason).toContain("the parser is half done");
    // the blocked one shows up once its dependency is COMPLETE
    expect(ids(await p.json<any[]>(["task", "next", "--role", "engineer", "--count", "10"], "tasks"))).not.toContain(
      "ENG-C-0006",
    );
    const human = await p.ok(["task", "next", "--role", "engineer"]);
    expect(human.stdout).toMatch(/^1\. ENG-C-0003/);
    // The offer ends with what to check before starting on a claim (DESIGN §3.5).
    expect(human.stdout.trimEnd().split("\n").at(-1)).toBe(
      "Claim one with pantheon task claim ID; before starting, check it did not say `not published yet` (else pantheon sync first)",
    );
    await p.ok(["task", "next", "--role", "operator"]);
    expect((await p.run(["task", "next", "--role", "administrator"])).exitCode).toBe(2);
    expect((await p.run(["task", "next", "--count", "0"])).exitCode).toBe(2);
  });
});

describe("task report, blocked, search, prereqs", () => {
  it("report counts every status; blocked lists what blocks, an ABORTED dependency included", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "create", "--title", "Base", "--role", "engineer"]);
    await p.ok(["task", "create", "--title", "Dropped", "--role", "engineer"]);
    await p.ok(["task", "create", "--title", "Needs base", "--role", "tester", "--depends-on", "1"]);
    await p.ok([
      "task",
      "create",
      "--title",
      "Needs dropped",
      "--role",
      "tester",
      "--depends-on",
      "2",
      "--priority",
      "high",
    ]);
    await p.ok(["task", "close", "2", "--status", "ABORTED", "--notes", "descoped"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    const blocked = await p.json<any[]>(["task", "blocked"], "tasks");
    expect(blocked.map((t) => [t.id, t.blockedBy])).toEqual([
      ["TST-H-0004", ["ENG-M-0002"]],
      ["TST-M-0003", ["ENG-M-0001"]],
    ]);
    await p.ok(["--as", "Hephaestus", "task", "update", "1", "--status", "REVIEW"]);
    expect((await p.json<any[]>(["task", "blocked"], "tasks")).map((t) => t.id)).toEqual(["TST-H-0004"]);
    const report = await p.json(["task", "report"], "report");
    expect(report).toEqual({
      total: 4,
      byStatus: { TODO: 2, READY: 0, UNDERWAY: 0, REVIEW: 1, BLOCKED: 0, COMPLETE: 0, ABORTED: 1 },
      completionRate: 0,
    });
    await p.ok(["--as", "Hephaestus", "task", "close", "1"]);
    expect((await p.json(["task", "report"], "report")).completionRate).toBeCloseTo(1 / 3, 12);
    const human = await p.ok(["task", "report"]);
    expect(human.stdout.split("\n")[0]).toMatch(/^4 tasks, 33% complete/);
  });

  it("report of an empty project is zeros, and blocked says nothing is blocked", async () => {
    const p = await project();
    expect(await p.json(["task", "report"], "report")).toEqual({
      total: 0,
      byStatus: { TODO: 0, READY: 0, UNDERWAY: 0, REVIEW: 0, BLOCKED: 0, COMPLETE: 0, ABORTED: 0 },
      completionRate: 0,
    });
    expect(await p.json<any[]>(["task", "blocked"], "tasks")).toEqual([]);
  });

  it("search ranks title over description over notes, needs every word, and honours --limit", async () => {
    const p = await project();
    await p.ok([
      "task",
      "create",
      "--title",
      "Cache warmup",
      "--role",
      "engineer",
      "--description",
      "prime the redis pool",
    ]);
    await p.ok(["task", "create", "--title", "Redis failover", "--role", "operator"]);
    await p.ok(["task", "create", "--title", "Metrics", "--role", "engineer"]);
    await p.ok(["task", "note", "3", "export redis stats"]);
    await p.ok(["task", "create", "--title", "Unrelated", "--role", "tester"]);
    const hits = await p.json<any[]>(["task", "search", "redis"], "tasks");
    expect(ids(hits)).toEqual(["OPR-M-0002", "ENG-M-0001", "ENG-M-0003"]);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
    expect(ids(await p.json<any[]>(["task", "search", "redis", "pool"], "tasks"))).toEqual(["ENG-M-0001"]);
    expect(ids(await p.json<any[]>(["task", "search", "red", "--limit", "1"], "tasks"))).toEqual(["OPR-M-0002"]);
    expect(await p.json<any[]>(["task", "search", "redis", "kafka"], "tasks")).toEqual([]);
    const none = await p.ok(["task", "search", "kafka"], { tty: true });
    expect(none.stdout).toContain("No task matches");
    expect((await p.ok(["task", "search", "kafka"])).stdout, "piped: the header row only").toBe(
      "ID\tSTATUS\tTITLE\tCLAIMED BY\tBLOCKED BY\n",
    );
  });

  it("prereqs lists the unfinished chain in workable order with who holds each", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "create", "--title", "Schema", "--role", "architect"]);
    await p.ok(["task", "create", "--title", "API", "--role", "engineer", "--depends-on", "1"]);
    await p.ok(["task", "create", "--title", "Client", "--role", "engineer", "--depends-on", "1"]);
    await p.ok(["task", "create", "--title", "E2E", "--role", "tester", "--depends-on", "2", "--depends-on", "3"]);
    await p.ok(["task", "create", "--title", "Ship", "--role", "operator", "--depends-on", "4"]);
    await p.ok(["--as", "Hephaestus", "task", "claim", "3", "--force"]);
    const chain = await p.json<any[]>(["task", "prereqs", "OPR-M-0005"], "tasks");
    expect(chain.map((t) => t.number)).toHaveLength(4);
    const pos = (n: number) => chain.findIndex((t) => t.number === n);
    expect(pos(1)).toBe(0);
    expect(pos(2)).toBeLessThan(pos(4));
    expect(pos(3)).toBeLessThan(pos(4));
    expect(pos(4)).toBe(3);
    expect(chain.find((t) => t.number === 3).claimedBy).toBe("Hephaestus");
    const human = await p.ok(["task", "prereqs", "5"]);
    expect(human.stdout).toContain('Before OPR-M-0005 "Ship"');
    expect(human.stdout).toMatch(/ENG-M-0003\tUNDERWAY\tHephaestus/);
    expect((await p.ok(["task", "prereqs", "1"])).stdout).toContain("no unfinished prerequisites");
    const ref = stateRef(p.dir);
    expect((await p.run(["task", "prereqs", "99"])).exitCode).toBe(1);
    expect(stateRef(p.dir)).toBe(ref);
  });
});
