import { describe, expect, it } from "vitest";
import { jsonData, runCli, type CliResult } from "../../helpers/cli.js";
import { git, makeRepo, stateRef } from "../../helpers/repo.js";

/**
 * Issue 3, acceptance: the seed's coordination scenario driven through the CLI with --json, as a
 * new user would. An epic with three chained tasks (architect design → engineer implementation →
 * tester tests) goes TODO → UNDERWAY → COMPLETE, reviews gate the work, and every question the
 * personas ask (next, prereqs, report, activity, search, blocked, dashboard) answers correctly.
 */

const REF = "refs/coordination/main";
const ROLES = ["architect", "engineer", "tester", "operator"] as const;

function setup(dir: string) {
  const run = (argv: string[]) => runCli(argv, { cwd: dir });
  const ok = async (argv: string[]): Promise<CliResult> => {
    const r = await run(argv);
    expect(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(0);
    return r;
  };
  const json = async <T = any>(argv: string[], kind: string): Promise<T> =>
    jsonData<T>(await ok([...argv, "--json"]), kind);
  /** The whole envelope (for `changed`). */
  const envelope = async (argv: string[]): Promise<{ kind: string; data: any; changed?: any[] }> =>
    JSON.parse((await ok([...argv, "--json"])).stdout);
  return { run, ok, json, envelope };
}

const commits = (dir: string) => Number(git(dir, "rev-list", "--count", REF).trim());
const lastMessage = (dir: string) => git(dir, "log", "-1", "--format=%B", REF);

function trailer(message: string, name: string): string[] {
  return message
    .split("\n")
    .filter((l) => l.startsWith(`${name}: `))
    .flatMap((l) =>
      l
        .slice(name.length + 2)
        .split(",")
        .map((s) => s.trim()),
    );
}

describe("the seed scenario (issue 3 acceptance)", () => {
  it("an epic fills up through design → implementation → tests, with reviews, and every question answers", async () => {
    const dir = makeRepo();
    const { run, ok, json, envelope } = setup(dir);
    await ok(["init", "--yes"]);

    // The cast: one persona per role, each on an ACTIVE mission.
    for (const [persona, role] of [
      ["Athena", "architect"],
      ["Hephaestus", "engineer"],
      ["Cassandra", "tester"],
      ["Argus", "inspector"],
      ["Hermes", "operator"],
    ] as const) {
      await ok(["mission", "start", "--role", role, "--persona", persona]);
    }
    const as = (persona: string, argv: string[]) => ["--as", persona, ...argv];

    const epic = await json(
      ["epic", "create", "--title", "User login", "--priority", "high", "--description", "sign-in for everyone"],
      "epic",
    );
    expect(epic.id).toBe("EPC-H-0001");
    const design = await json(
      [
        "task",
        "create",
        "--title",
        "Design the login flow",
        "--role",
        "architect",
        "--priority",
        "high",
        "--description",
        "OAuth with PKCE",
      ],
      "task",
    );
    const impl = await json(
      [
        "task",
        "create",
        "--title",
        "Implement login tokens",
        "--role",
        "engineer",
        "--priority",
        "high",
        "--depends-on",
        design.id,
        "--description",
        "token store and refresh",
      ],
      "task",
    );
    const tests = await json(
      [
        "task",
        "create",
        "--title",
        "Test login expiry",
        "--role",
        "tester",
        "--depends-on",
        impl.id,
        "--epic",
        epic.id,
      ],
      "task",
    );
    const release = await json(
      [
        "task",
        "create",
        "--title",
        "Release 1.0",
        "--role",
        "operator",
        "--priority",
        "critical",
        "--depends-on",
        tests.id,
      ],
      "task",
    );
    expect([design.id, impl.id, tests.id, release.id]).toEqual([
      "ARC-H-0001",
      "ENG-H-0002",
      "TST-M-0003",
      "OPR-C-0004",
    ]);
    expect(tests.epic).toBe(epic.id);

    // Linking the first two: the third was created with --epic.
    const linked = await envelope(["epic", "link", epic.id, design.id, impl.id]);
    expect(linked.kind).toBe("epic");
    expect(linked.data.tasks.map((t: any) => t.id).sort()).toEqual([design.id, impl.id, tests.id]);
    expect((linked.changed ?? []).map((t: any) => t.id).sort()).toEqual([design.id, impl.id]);

    const epicNow = async () => {
      const e = await json(["epic", "show", epic.id], "epic");
      return { status: e.status, progress: e.progress, tasks: e.tasks.map((t: any) => t.id).sort() };
    };

    /** `task next` for every role and for no role: never a task with a blockedBy, only ready ones. */
    const nextChecks = async () => {
      const offered: Record<string, string[]> = {};
      for (const role of [...ROLES, null]) {
        const list = await json<any[]>(["task", "next", ...(role ? ["--role", role] : []), "--count", "50"], "tasks");
        for (const t of list) {
          expect(t.blockedBy, `task next ${role ?? ""} offered ${t.id} blocked by ${t.blockedBy}`).toEqual([]);
          expect(["TODO", "READY"]).toContain(t.status);
          expect(typeof t.reason).toBe("string");
          if (role) expect(t.role).toBe(role);
        }
        offered[role ?? "any"] = list.map((t) => t.id);
      }
      return offered;
    };

    // ── Step 0: nothing started. Epic TODO 0/3.
    expect(await epicNow()).toEqual({
      status: "TODO",
      progress: { complete: 0, total: 3, percent: 0 },
      tasks: [design.id, impl.id, tests.id].sort(),
    });
    let offered = await nextChecks();
    expect(offered).toEqual({ architect: [design.id], engineer: [], tester: [], operator: [], any: [design.id] });

    // prereqs of the release: the chain in workable order, nobody holds anything yet.
    let prereqs = await json<any[]>(["task", "prereqs", release.id], "tasks");
    expect(prereqs.map((t) => t.id)).toEqual([design.id, impl.id, tests.id]);
    expect(prereqs.map((t) => t.claimedBy)).toEqual([null, null, null]);

    // ── Step 1: the architect claims the design → UNDERWAY at 0/3.
    await ok(as("Athena", ["task", "claim", design.id]));
    expect(await epicNow()).toMatchObject({ status: "UNDERWAY", progress: { complete: 0, total: 3, percent: 0 } });
    offered = await nextChecks();
    expect(offered.any).toEqual([]);
    prereqs = await json<any[]>(["task", "prereqs", release.id], "tasks");
    expect(prereqs.map((t) => [t.id, t.status, t.claimedBy])).toEqual([
      [design.id, "UNDERWAY", "Athena"],
      [impl.id, "TODO", null],
      [tests.id, "TODO", null],
    ]);

    // ── Step 2: the architect finishes the design (no review asked) → UNDERWAY at 1/3.
    const closedDesign = await envelope(as("Athena", ["task", "close", design.id, "--notes", "ADR-1 written"]));
    expect(closedDesign.data).toMatchObject({ status: "COMPLETE", completedBy: "Athena" });
    expect(closedDesign.changed ?? []).toEqual([]);
    expect(await json<any[]>(["review", "list"], "reviews")).toEqual([]);
    expect(await epicNow()).toMatchObject({ status: "UNDERWAY", progress: { complete: 1, total: 3, percent: 33 } });
    offered = await nextChecks();
    expect(offered).toEqual({ architect: [], engineer: [impl.id], tester: [], operator: [], any: [impl.id] });
    // inside a mission the role defaults to the mission's
    expect((await json<any[]>(as("Hephaestus", ["task", "next"]), "tasks")).map((t) => t.id)).toEqual([impl.id]);
    expect(await json<any[]>(as("Cassandra", ["task", "next"]), "tasks")).toEqual([]);
    prereqs = await json<any[]>(["task", "prereqs", release.id], "tasks");
    expect(prereqs.map((t) => t.id)).toEqual([impl.id, tests.id]);

    // ── Step 3: the engineer implements; moving to REVIEW requests RVW-001 in the same commit.
    await ok(as("Hephaestus", ["task", "claim", impl.id]));
    prereqs = await json<any[]>(["task", "prereqs", release.id], "tasks");
    expect(prereqs.map((t) => [t.id, t.status, t.claimedBy])).toEqual([
      [impl.id, "UNDERWAY", "Hephaestus"],
      [tests.id, "TODO", null],
    ]);
    offered = await nextChecks();
    expect(offered.tester).toEqual([]);
    let before = commits(dir);
    const submitted = await envelope(
      as("Hephaestus", ["task", "update", impl.id, "--status", "REVIEW", "--notes", "tokens done"]),
    );
    expect(submitted.kind).toBe("task");
    expect(submitted.data).toMatchObject({ id: impl.id, status: "REVIEW", claimedBy: "Hephaestus" });
    expect((submitted.changed ?? []).map((c: any) => c.id)).toEqual(["RVW-001"]);
    expect(commits(dir)).toBe(before + 1);
    expect(trailer(lastMessage(dir), "Pantheon-Records")).toEqual(
      expect.arrayContaining(["reviews/1", `tasks/${impl.number}`]),
    );
    let reviews = await json<any[]>(["review", "list"], "reviews");
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({
      id: "RVW-001",
      status: "PENDING",
      type: "task_completion",
      task: impl.id,
      requestedBy: "Hephaestus",
      reviewer: null,
      reason: null,
    });
    expect(await json<any[]>(["review", "list", "--status", "pending"], "reviews")).toHaveLength(1);
    expect(await json<any[]>(["review", "list", "--status", "approved"], "reviews")).toHaveLength(0);

    // The tester's task is offered while the implementation is in REVIEW, with a reason naming it.
    offered = await nextChecks();
    expect(offered.tester).toEqual([tests.id]);
    const tstNext = await json<any[]>(["task", "next", "--role", "tester"], "tasks");
    expect(tstNext[0]).toMatchObject({ id: tests.id, blockedBy: [], waitingOnReview: [impl.id] });
    expect(tstNext[0].reason).toContain(impl.id);
    prereqs = await json<any[]>(["task", "prereqs", release.id], "tasks");
    expect(prereqs.map((t) => [t.id, t.status, t.claimedBy])).toEqual([
      [impl.id, "REVIEW", "Hephaestus"],
      [tests.id, "TODO", null],
    ]);
    // ... and the tester claims it meanwhile (the seed's engineer → tester pattern).
    const claimedTests = await json(as("Cassandra", ["task", "claim", tests.id]), "task");
    expect(claimedTests).toMatchObject({
      status: "UNDERWAY",
      claimedBy: "Cassandra",
      blockedBy: [],
      waitingOnReview: [impl.id],
    });
    expect(await epicNow()).toMatchObject({ status: "UNDERWAY", progress: { complete: 1, total: 3, percent: 33 } });

    // Self-approval is refused (exit 1), and the ref does not move.
    let ref = stateRef(dir);
    let r = await run(as("Hephaestus", ["review", "approve", "RVW-001"]));
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^✗ .*RVW-001/);
    expect(stateRef(dir)).toBe(ref);

    // Another persona approves: the review and the task change in ONE commit.
    before = commits(dir);
    const approved = await envelope(as("Argus", ["review", "approve", "RVW-001", "--notes", "clean code"]));
    expect(approved.kind).toBe("review");
    expect(approved.data).toMatchObject({
      id: "RVW-001",
      status: "APPROVED",
      reviewer: "Argus",
      requestedBy: "Hephaestus",
      task: impl.id,
    });
    expect(commits(dir)).toBe(before + 1);
    const approveMsg = lastMessage(dir);
    expect(trailer(approveMsg, "Pantheon-Records")).toEqual(
      expect.arrayContaining(["reviews/1", `tasks/${impl.number}`]),
    );
    expect(trailer(approveMsg, "Pantheon-Op")).toEqual(["review.approve"]);
    const changedImpl = (approved.changed ?? []).find((c: any) => c.id === impl.id);
    expect(changedImpl, "the approved task is listed under changed").toBeTruthy();
    expect(changedImpl).toMatchObject({ status: "COMPLETE", completedBy: "Hephaestus" });
    // DESIGN §4.2: references between records are ids, never a placeholder
    expect.soft(changedImpl.epic, "the changed task names its epic by id").toBe(epic.id);
    expect(await json(["task", "show", impl.id], "task")).toMatchObject({
      status: "COMPLETE",
      completedBy: "Hephaestus",
      claimedBy: "Hephaestus",
    });
    // an approved review cannot be decided again
    ref = stateRef(dir);
    r = await run(as("Argus", ["review", "approve", "RVW-001"]));
    expect(r.exitCode).toBe(1);
    expect(stateRef(dir)).toBe(ref);
    expect(await epicNow()).toMatchObject({ status: "UNDERWAY", progress: { complete: 2, total: 3, percent: 67 } });

    // ── Step 4: the tests go to REVIEW (RVW-002) and are rejected: back to UNDERWAY with a `review` note.
    const testSubmit = await envelope(as("Cassandra", ["task", "update", tests.id, "--status", "REVIEW"]));
    expect((testSubmit.changed ?? []).map((c: any) => c.id)).toEqual(["RVW-002"]);
    before = commits(dir);
    const rejected = await envelope(as("Argus", ["review", "reject", "RVW-002", "--reason", "no test for clock skew"]));
    expect(rejected.data).toMatchObject({
      id: "RVW-002",
      status: "REJECTED",
      reviewer: "Argus",
      reason: "no test for clock skew",
      task: tests.id,
    });
    expect((rejected.changed ?? []).map((c: any) => [c.id, c.status])).toEqual([[tests.id, "UNDERWAY"]]);
    expect(commits(dir)).toBe(before + 1);
    expect(trailer(lastMessage(dir), "Pantheon-Records")).toEqual(
      expect.arrayContaining(["reviews/2", `tasks/${tests.number}`]),
    );
    const testsBack = await json(["task", "show", tests.id], "task");
    expect(testsBack).toMatchObject({ status: "UNDERWAY", claimedBy: "Cassandra", completedBy: null });
    const reviewNote = testsBack.notes.at(-1);
    expect(reviewNote).toMatchObject({ kind: "review", by: "Argus" });
    expect(reviewNote.text).toContain("no test for clock skew");
    await nextChecks();

    // Submitted again: RVW-003. Self-approval refused; closing the task withdraws the pending review.
    const again = await envelope(
      as("Cassandra", ["task", "update", tests.id, "--status", "REVIEW", "--notes", "expiry covered"]),
    );
    expect((again.changed ?? []).map((c: any) => c.id)).toEqual(["RVW-003"]);
    ref = stateRef(dir);
    r = await run(as("Cassandra", ["review", "approve", "RVW-003"]));
    expect(r.exitCode).toBe(1);
    expect(stateRef(dir)).toBe(ref);
    before = commits(dir);
    const closed = await envelope(as("Cassandra", ["task", "close", tests.id, "--notes", "all green"]));
    expect(closed.data).toMatchObject({ status: "COMPLETE", completedBy: "Cassandra" });
    expect((closed.changed ?? []).map((c: any) => c.id)).toEqual(["RVW-003"]);
    expect(commits(dir)).toBe(before + 1);
    expect(trailer(lastMessage(dir), "Pantheon-Records")).toEqual(
      expect.arrayContaining(["reviews/3", `tasks/${tests.number}`]),
    );
    expect(await json(["review", "show", "RVW-003"], "review")).toMatchObject({
      id: "RVW-003",
      status: "WITHDRAWN",
      task: tests.id,
      reviewer: null,
    });

    // ── Epic COMPLETE at 3/3.
    expect(await epicNow()).toEqual({
      status: "COMPLETE",
      progress: { complete: 3, total: 3, percent: 100 },
      tasks: [design.id, impl.id, tests.id].sort(),
    });
    expect((await json<any[]>(["epic", "list"], "epics")).map((e) => [e.id, e.status, e.progress.percent])).toEqual([
      [epic.id, "COMPLETE", 100],
    ]);

    // The release is now ready for the operator, and its prerequisites are done.
    offered = await nextChecks();
    expect(offered.operator).toEqual([release.id]);
    expect(await json<any[]>(["task", "prereqs", release.id], "tasks")).toEqual([]);

    // Self-approval goes through with --force.
    await json(as("Athena", ["review", "create", "--title", "Architecture notes", "--type", "design"]), "review");
    ref = stateRef(dir);
    expect((await run(as("Athena", ["review", "approve", "RVW-004"]))).exitCode).toBe(1);
    expect(stateRef(dir)).toBe(ref);
    const forced = await json(as("Athena", ["review", "approve", "RVW-004", "--force"]), "review");
    expect(forced).toMatchObject({
      id: "RVW-004",
      status: "APPROVED",
      reviewer: "Athena",
      requestedBy: "Athena",
      task: null,
    });

    // ── The state reached, as the questions see it.
    const announce = await json(
      ["task", "create", "--title", "Announce the release", "--role", "documentarian", "--depends-on", release.id],
      "task",
    );
    await json(as("Athena", ["review", "create", "--title", "Security checklist", "--type", "general"]), "review");
    await ok(["mission", "end", "MSN-0004", "--summary", "reviews done"]); // Argus
    await nextChecks();

    const report = await json(["task", "report"], "report");
    expect(report).toEqual({
      total: 5,
      byStatus: { TODO: 2, READY: 0, UNDERWAY: 0, REVIEW: 0, BLOCKED: 0, COMPLETE: 3, ABORTED: 0 },
      completionRate: 3 / 5,
    });

    const activity = await json<any[]>(["persona", "activity"], "activity");
    const byPersona = Object.fromEntries(activity.map((a) => [a.persona, a]));
    expect(byPersona).toEqual({
      Athena: { persona: "Athena", role: "architect", missions: 1, completedMissions: 0, tasksCompleted: 1 },
      Hephaestus: { persona: "Hephaestus", role: "engineer", missions: 1, completedMissions: 0, tasksCompleted: 1 },
      Cassandra: { persona: "Cassandra", role: "tester", missions: 1, completedMissions: 0, tasksCompleted: 1 },
      Argus: { persona: "Argus", role: "inspector", missions: 1, completedMissions: 1, tasksCompleted: 0 },
      Hermes: { persona: "Hermes", role: "operator", missions: 1, completedMissions: 0, tasksCompleted: 0 },
    });

    const found = await json<any[]>(["task", "search", "login"], "tasks");
    expect(found.map((t) => t.id).sort()).toEqual([design.id, impl.id, tests.id].sort());
    // title outranks description and notes
    expect((await json<any[]>(["task", "search", "token"], "tasks")).map((t) => t.id)).toEqual([impl.id]);
    // a word only in a note (the rejection's) still finds the task; every word must match
    expect((await json<any[]>(["task", "search", "skew"], "tasks")).map((t) => t.id)).toEqual([tests.id]);
    expect((await json<any[]>(["task", "search", "login", "skew"], "tasks")).map((t) => t.id)).toEqual([tests.id]);
    expect((await json<any[]>(["task", "search", "release"], "tasks")).map((t) => t.id)).toEqual([
      release.id,
      announce.id,
    ]);
    expect(await json<any[]>(["task", "search", "kubernetes"], "tasks")).toEqual([]);

    const blocked = await json<any[]>(["task", "blocked"], "tasks");
    expect(blocked.map((t) => [t.id, t.blockedBy])).toEqual([[announce.id, [release.id]]]);

    const dash = await json(["dashboard"], "dashboard");
    for (const key of ["missions", "tasks", "epics", "blocked", "reviews", "orphanedClaims", "recent"])
      expect(dash, key).toHaveProperty(key);
    expect(dash.missions.map((m: any) => m.persona).sort()).toEqual(["Athena", "Cassandra", "Hephaestus", "Hermes"]);
    expect(dash.missions.every((m: any) => m.status === "ACTIVE")).toBe(true);
    expect(dash.tasks.byStatus).toEqual(report.byStatus);
    expect(dash.tasks.completionRate).toBe(report.completionRate);
    expect(dash.epics.map((e: any) => [e.id, e.status, e.progress])).toEqual([
      [epic.id, "COMPLETE", { complete: 3, total: 3, percent: 100 }],
    ]);
    expect(dash.blocked.map((t: any) => [t.id, t.blockedBy])).toEqual([[announce.id, [release.id]]]);
    expect(dash.reviews.map((rv: any) => [rv.id, rv.status, rv.title])).toEqual([
      ["RVW-005", "PENDING", "Security checklist"],
    ]);
    expect(dash.orphanedClaims).toEqual([]);
    expect(dash.recent.length).toBeGreaterThan(0);
    expect(dash.recent.length).toBeLessThanOrEqual(20);
    expect(dash.recent[0].summary).toMatch(/mission MSN-0004/);
    expect(dash.recent[0].commit).toBe(stateRef(dir));
    for (const c of dash.recent)
      expect(Object.keys(c)).toEqual(expect.arrayContaining(["commit", "date", "actor", "op", "summary"]));

    // Every review, as the list shows it at the end.
    reviews = await json<any[]>(["review", "list"], "reviews");
    expect(reviews.map((rv) => [rv.id, rv.status, rv.task, rv.requestedBy, rv.reviewer])).toEqual([
      ["RVW-001", "APPROVED", impl.id, "Hephaestus", "Argus"],
      ["RVW-002", "REJECTED", tests.id, "Cassandra", "Argus"],
      ["RVW-003", "WITHDRAWN", tests.id, "Cassandra", null],
      ["RVW-004", "APPROVED", null, "Athena", "Athena"],
      ["RVW-005", "PENDING", null, "Athena", null],
    ]);
  });
});
