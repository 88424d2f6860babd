import { describe, expect, it } from "vitest";
import type { Task } from "../../../src/domain/schemas/task.js";
import {
  blockedTasks,
  columnsReport,
  nextTasks,
  epicPrerequisites,
  prerequisites,
  searchTasks,
} from "../../../src/domain/task-questions.js";
import { columnsOf, ROLE_CODE } from "../../../src/domain/task-columns.js";
import type { TaskStatus } from "../../../src/domain/task-status.js";
import { TASK_STATUSES } from "../../../src/domain/task-status.js";
import { aTask } from "../../helpers/builders.js";

/** DESIGN §1.5: the questions personas ask, answered from the tasks alone. */

function t(number: number, over: Partial<Task> = {}): Task {
  return aTask({ uid: `task-uid-${String(number).padStart(4, "0")}`, number, title: `Task ${number}`, ...over });
}

function lookupOf(tasks: readonly Task[]) {
  const by = new Map(tasks.map((x) => [x.number, x]));
  return (n: number) => by.get(n);
}

/** Columns over tasks in any order, as a service gets them from a plain Map. */
function colsOf(tasks: readonly Task[]) {
  return columnsOf(new Map(tasks.map((x) => [x.number, x])));
}

function blockedOf(tasks: readonly Task[]) {
  const cols = colsOf(tasks);
  return blockedTasks(cols).map((i) => cols.task(i));
}

const numbers = (tasks: readonly Pick<Task, "number">[]) => tasks.map((x) => x.number);

const DAY = (d: number) => `2026-01-${String(d).padStart(2, "0")}T00:00:00.000Z`;

/** The report of tasks in these statuses, from their columns. */
const reportOf = (statuses: readonly TaskStatus[]) =>
  columnsReport(colsOf(statuses.map((status, i) => t(i + 1, { status }))));

describe("columnsReport", () => {
  it("is all zeros for no task, with a 0 completion rate", () => {
    const r = reportOf([]);
    expect(r.total).toBe(0);
    expect(r.completionRate).toBe(0);
    expect(Object.keys(r.byStatus).sort()).toEqual([...TASK_STATUSES].sort());
    expect(Object.values(r.byStatus).every((n) => n === 0)).toBe(true);
  });

  it("counts every status and computes COMPLETE / (total − ABORTED)", () => {
    const statuses: TaskStatus[] = [
      "TODO",
      "TODO",
      "READY",
      "UNDERWAY",
      "REVIEW",
      "BLOCKED",
      "COMPLETE",
      "COMPLETE",
      "ABORTED",
      "ABORTED",
    ];
    const r = reportOf(statuses);
    expect(r.total).toBe(10);
    expect(r.byStatus).toEqual({ TODO: 2, READY: 1, UNDERWAY: 1, REVIEW: 1, BLOCKED: 1, COMPLETE: 2, ABORTED: 2 });
    expect(r.completionRate).toBeCloseTo(2 / 8, 12);
  });

  it("is 1 when every task that counts is COMPLETE", () => {
    expect(reportOf(["COMPLETE", "ABORTED"]).completionRate).toBe(1);
  });

  it("is 0 (not NaN) when every task is ABORTED", () => {
    const r = reportOf(["ABORTED", "ABORTED"]);
    expect(r.completionRate).toBe(0);
    expect(r.total).toBe(2);
  });
});

describe("nextTasks", () => {
  it("orders by priority, then age, then number", () => {
    const tasks = [
      t(1, { priority: "LOW", createdAt: DAY(1) }),
      t(2, { priority: "HIGH", createdAt: DAY(5) }),
      t(3, { priority: "HIGH", createdAt: DAY(2) }),
      t(4, { priority: "CRITICAL", createdAt: DAY(9) }),
      t(5, { priority: "MEDIUM", createdAt: DAY(1) }),
      t(7, { priority: "HIGH", createdAt: DAY(2) }),
      t(6, { priority: "HIGH", createdAt: DAY(2) }),
    ];
    expect(numbers(nextTasks(colsOf(tasks), null))).toEqual([4, 3, 6, 7, 2, 5, 1]);
  });

  it("offers only TODO and READY tasks", () => {
    const tasks = TASK_STATUSES.map((status, i) => t(i + 1, { status }));
    expect(
      nextTasks(colsOf(tasks), null)
        .map((x) => x.status)
        .sort(),
    ).toEqual(["READY", "TODO"]);
  });

  it("never offers a task with a blocking dependency (open, ABORTED or missing)", () => {
    const tasks = [
      t(1, { status: "TODO" }),
      t(2, { status: "UNDERWAY", claimedBy: "Athena", mission: 1 }),
      t(3, { status: "ABORTED" }),
      t(4, { status: "BLOCKED" }),
      t(10, { dependencies: [1] }),
      t(11, { dependencies: [2] }),
      t(12, { dependencies: [3] }),
      t(13, { dependencies: [4] }),
      t(14, { dependencies: [99] }),
      t(15, { status: "READY", dependencies: [1] }),
    ];
    expect(numbers(nextTasks(colsOf(tasks), null))).toEqual([1]);
  });

  it("offers a task whose dependency is in REVIEW (the engineer → tester pattern), or COMPLETE", () => {
    const tasks = [
      t(1, { role: "engineer", status: "REVIEW", claimedBy: "Hephaestus", mission: 1 }),
      t(2, { role: "architect", status: "COMPLETE" }),
      t(3, { role: "tester", dependencies: [1] }),
      t(4, { role: "tester", dependencies: [2] }),
      t(5, { role: "tester", dependencies: [1, 2] }),
    ];
    expect(numbers(nextTasks(colsOf(tasks), "tester"))).toEqual([3, 4, 5]);
  });

  it("keeps to the role asked for, and offers every role with null", () => {
    const tasks = [
      t(1, { role: "engineer" }),
      t(2, { role: "tester" }),
      t(3, { role: "engineer" }),
      t(4, { role: "architect" }),
    ];
    expect(numbers(nextTasks(colsOf(tasks), "engineer"))).toEqual([1, 3]);
    expect(numbers(nextTasks(colsOf(tasks), "tester"))).toEqual([2]);
    expect(numbers(nextTasks(colsOf(tasks), "operator"))).toEqual([]);
    expect(numbers(nextTasks(colsOf(tasks), null))).toEqual([1, 2, 3, 4]);
  });

  it("does not reorder its input", () => {
    const tasks = [t(2, { priority: "LOW" }), t(1, { priority: "HIGH" })];
    nextTasks(colsOf(tasks), null);
    expect(numbers(tasks)).toEqual([2, 1]);
  });
});

describe("blockedTasks", () => {
  it("lists open tasks with a blocking dependency, most urgent first", () => {
    const tasks = [
      t(1, { status: "UNDERWAY", claimedBy: "Hephaestus", mission: 1 }),
      t(2, { status: "REVIEW", claimedBy: "Hephaestus", mission: 1 }),
      t(3, { status: "ABORTED" }),
      t(4, { priority: "LOW", dependencies: [1] }),
      t(5, { priority: "CRITICAL", dependencies: [3] }),
      t(6, { dependencies: [2] }), // waiting on review only: not blocked
      t(7, { status: "COMPLETE", dependencies: [1] }), // closed: not listed
      t(8, { status: "ABORTED", dependencies: [1] }),
      t(9, { priority: "LOW", dependencies: [1] }),
    ];
    expect(numbers(blockedOf(tasks))).toEqual([5, 4, 9]);
  });

  it("orders by priority then number whatever the input order, and keeps to what `keep` accepts", () => {
    const tasks = [
      t(30, { priority: "HIGH", dependencies: [99] }),
      t(2, { priority: "LOW", dependencies: [99] }),
      t(10, { priority: "HIGH", dependencies: [99] }),
      t(4, { priority: "CRITICAL", role: "tester", dependencies: [99] }),
    ];
    expect(numbers(blockedOf(tasks))).toEqual([4, 10, 30, 2]);
    const cols = colsOf(tasks);
    expect(blockedTasks(cols, (i) => cols.role[i] === ROLE_CODE.engineer).map((i) => cols.number[i])).toEqual([
      10, 30, 2,
    ]);
  });
});

describe("prerequisites", () => {
  it("lists every unfinished transitive dependency, each after its own dependencies", () => {
    // 10 (release) ← 9 (tests) ← 8 (impl) ← 7 (design); 9 also ← 6 (fixtures) ← 7
    const tasks = [
      t(7),
      t(8, { dependencies: [7] }),
      t(6, { dependencies: [7] }),
      t(9, { dependencies: [8, 6] }),
      t(10, { dependencies: [9] }),
    ];
    const order = numbers(prerequisites(tasks.at(-1)!, lookupOf(tasks)));
    expect(order.sort((a, b) => a - b)).toEqual([6, 7, 8, 9]);
    const again = numbers(prerequisites(tasks.at(-1)!, lookupOf(tasks)));
    const byNumber = lookupOf(tasks);
    for (const [i, n] of again.entries()) {
      for (const d of byNumber(n)!.dependencies) expect(again.indexOf(d), `${d} before ${n}`).toBeLessThan(i);
    }
    expect(again.at(-1)).toBe(9);
    expect(again[0]).toBe(7);
  });

  it("keeps a chain in workable order", () => {
    const tasks = [t(3, { dependencies: [2] }), t(2, { dependencies: [1] }), t(1), t(4, { dependencies: [3] })];
    expect(numbers(prerequisites(tasks[3]!, lookupOf(tasks)))).toEqual([1, 2, 3]);
  });

  it("skips COMPLETE dependencies but keeps the other unfinished ones (REVIEW, ABORTED, UNDERWAY)", () => {
    const tasks = [
      t(1, { status: "COMPLETE" }),
      t(2, { status: "REVIEW", dependencies: [1], claimedBy: "Hephaestus", mission: 1 }),
      t(3, { status: "UNDERWAY", dependencies: [2], claimedBy: "Cassandra", mission: 2 }),
      t(4, { status: "ABORTED" }),
      t(5, { dependencies: [3, 4] }),
    ];
    const prereqs = prerequisites(tasks[4]!, lookupOf(tasks));
    expect(numbers(prereqs)).toEqual([2, 3, 4]);
    expect(prereqs.map((x) => x.claimedBy)).toEqual(["Hephaestus", "Cassandra", null]);
  });

  it("is empty for a task without dependencies, or whose dependencies are all COMPLETE", () => {
    const tasks = [t(1, { status: "COMPLETE" }), t(2, { dependencies: [1] }), t(3)];
    expect(prerequisites(tasks[1]!, lookupOf(tasks))).toEqual([]);
    expect(prerequisites(tasks[2]!, lookupOf(tasks))).toEqual([]);
  });

  it("lists a shared dependency once", () => {
    const tasks = [t(1), t(2, { dependencies: [1] }), t(3, { dependencies: [1] }), t(4, { dependencies: [2, 3, 1] })];
    const order = numbers(prerequisites(tasks[3]!, lookupOf(tasks)));
    expect(order).toHaveLength(3);
    expect(order[0]).toBe(1);
    expect(new Set(order)).toEqual(new Set([1, 2, 3]));
  });

  it("survives a dependency cycle in hand-edited state: terminates, each task once, never the goal itself", () => {
    const tasks = [t(1, { dependencies: [2] }), t(2, { dependencies: [3] }), t(3, { dependencies: [1] })];
    const order = numbers(prerequisites(tasks[0]!, lookupOf(tasks)));
    expect(order.sort()).toEqual([2, 3]);
    const self = [t(5, { dependencies: [5, 6] }), t(6, { dependencies: [6] })];
    expect(numbers(prerequisites(self[0]!, lookupOf(self)))).toEqual([6]);
  });

  it("skips a dependency that no longer exists", () => {
    const tasks = [t(2, { dependencies: [99, 1] }), t(1)];
    expect(numbers(prerequisites(tasks[0]!, lookupOf(tasks)))).toEqual([1]);
  });
});

describe("epicPrerequisites (task prereqs EPC-...)", () => {
  it("an epic's open tasks and everything they wait on, inside the epic or not, in a workable order, urgent first", () => {
    // The release epic: 4 (docs, LOW) ← 3 (tests) ← 2 (impl) ← 1 (design, outside the epic); 5 (HIGH) alone.
    const tasks = [
      t(1, { status: "UNDERWAY", claimedBy: "Athena", mission: 1 }),
      t(2, { epic: 1, dependencies: [1] }),
      t(3, { epic: 1, dependencies: [2] }),
      t(4, { epic: 1, priority: "LOW", dependencies: [3] }),
      t(5, { epic: 1, priority: "CRITICAL" }),
      t(6, { epic: 1, status: "COMPLETE" }),
      t(7, { epic: 1, status: "ABORTED" }),
      t(8, { epic: 2 }),
    ];
    const linked = tasks.filter((x) => x.epic === 1);
    const order = epicPrerequisites(linked, lookupOf(tasks));
    expect(numbers(order)).toEqual([5, 1, 2, 3, 4]);
    expect(order.map((x) => x.claimedBy)).toEqual([null, "Athena", null, null, null]);
  });

  it("keeps an ABORTED task an open one waits on (it blocks), and is empty when every task is closed", () => {
    const tasks = [
      t(1, { status: "ABORTED" }),
      t(2, { epic: 1, dependencies: [1] }),
      t(3, { epic: 2, status: "COMPLETE" }),
    ];
    expect(numbers(epicPrerequisites([tasks[1]!], lookupOf(tasks)))).toEqual([1, 2]);
    expect(epicPrerequisites([tasks[2]!], lookupOf(tasks))).toEqual([]);
    expect(epicPrerequisites([], lookupOf(tasks))).toEqual([]);
  });
});

describe("searchTasks", () => {
  const note = (text: string) => ({
    id: `note-${text.length}-${text.slice(0, 4)}`,
    at: DAY(1),
    by: "Athena",
    kind: "note" as const,
    text,
  });

  it("ranks a title hit above a description hit above a notes hit", () => {
    const tasks = [
      t(1, { title: "Refresh", description: "", notes: [note("the token expires")] }),
      t(2, { title: "Refresh", description: "rotate the token daily" }),
      t(3, { title: "Token refresh" }),
      t(4, { title: "Unrelated work" }),
    ];
    expect(searchTasks(tasks, "token").map((h) => h.task.number)).toEqual([3, 2, 1]);
  });

  it("requires every word of the query to match somewhere", () => {
    const tasks = [
      t(1, { title: "Login page" }),
      t(2, { title: "Token store" }),
      t(3, { title: "Login", description: "keep the token" }),
      t(4, { title: "Session", notes: [note("login with a token")] }),
    ];
    expect(
      searchTasks(tasks, "login token")
        .map((h) => h.task.number)
        .sort(),
    ).toEqual([3, 4]);
    expect(searchTasks(tasks, "login token nowhere")).toEqual([]);
  });

  it("matches words by prefix, and an exact word outranks a prefix match", () => {
    const tasks = [
      t(1, { title: "Login token refresh" }),
      t(2, { title: "Tokenizer rewrite" }),
      t(3, { title: "Logout" }),
    ];
    expect(searchTasks(tasks, "login tok").map((h) => h.task.number)).toEqual([1]);
    expect(
      searchTasks(tasks, "tok")
        .map((h) => h.task.number)
        .sort(),
    ).toEqual([1, 2]);
    expect(searchTasks(tasks, "token").map((h) => h.task.number)).toEqual([1, 2]);
    // a word inside another word is not a prefix match
    expect(searchTasks(tasks, "ken")).toEqual([]);
  });

  it("is case-insensitive and ignores punctuation", () => {
    const tasks = [t(1, { title: "OAuth2: add PKCE flow!" })];
    expect(searchTasks(tasks, "oauth2 pkce").map((h) => h.task.number)).toEqual([1]);
    expect(searchTasks(tasks, "OAUTH2, Pkce?").map((h) => h.task.number)).toEqual([1]);
  });

  it("breaks ties by task number", () => {
    const tasks = [t(9, { title: "Cache warmup" }), t(3, { title: "Cache warmup" }), t(5, { title: "Cache warmup" })];
    const hits = searchTasks(tasks, "cache");
    expect(hits.map((h) => h.task.number)).toEqual([3, 5, 9]);
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
  });

  it("scores are positive and best first", () => {
    const tasks = [
      t(1, { title: "Cache", description: "cache cache" }),
      t(2, { description: "cache" }),
      t(3, { title: "Cache" }),
    ];
    const hits = searchTasks(tasks, "cache");
    for (const h of hits) expect(h.score).toBeGreaterThan(0);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
  });

  it("returns nothing for a query without words", () => {
    const tasks = [t(1, { title: "Anything" })];
    expect(searchTasks(tasks, "")).toEqual([]);
    expect(searchTasks(tasks, "  -- !! ")).toEqual([]);
  });

  it("finds non-Latin words", () => {
    const tasks = [t(1, { title: "Überprüfung der Größe" }), t(2, { title: "Другое" })];
    expect(searchTasks(tasks, "größe").map((h) => h.task.number)).toEqual([1]);
    expect(searchTasks(tasks, "друг").map((h) => h.task.number)).toEqual([2]);
  });
});

describe("nextTasks by the creation-time column", () => {
  it("orders exactly as by the createdAt strings, with any limit", async () => {
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            priority: fc.constantFrom("CRITICAL", "HIGH", "MEDIUM", "LOW"),
            at: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
            dep: fc.option(fc.integer({ min: 1, max: 60 })),
          }),
          { maxLength: 60 },
        ),
        fc.integer({ min: 0, max: 40 }),
        (xs, limit) => {
          const tasks = xs.map((x, i) =>
            t(i + 1, { priority: x.priority, createdAt: x.at.toISOString(), dependencies: x.dep ? [x.dep] : [] }),
          );
          const cols = colsOf(tasks);
          expect(cols.created).not.toBeNull();
          expect(numbers(nextTasks(cols, null, limit))).toEqual(
            numbers(nextTasks({ ...cols, created: null }, null, limit)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("nextTasks with a limit", () => {
  it("gives exactly the first `limit` of the full ordering, for any priorities, ages and dependencies", async () => {
    const fc = (await import("fast-check")).default;
    const { nextTasks } = await import("../../../src/domain/task-questions.js");
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            priority: fc.constantFrom("CRITICAL", "HIGH", "MEDIUM", "LOW"),
            status: fc.constantFrom("TODO", "READY", "COMPLETE"),
            at: fc.integer({ min: 0, max: 5 }),
            dep: fc.option(fc.integer({ min: 1, max: 60 })),
          }),
          { maxLength: 60 },
        ),
        fc.integer({ min: 0, max: 8 }),
        (xs, limit) => {
          const tasks = xs.map((x, i) =>
            t(i + 1, {
              title: `t${i}`,
              role: "engineer",
              priority: x.priority,
              status: x.status,
              dependencies: x.dep ? [x.dep] : [],
              createdAt: DAY(x.at + 1),
            }),
          );
          const cols = colsOf(tasks);
          expect(nextTasks(cols, "engineer", limit)).toEqual(nextTasks(cols, "engineer").slice(0, limit));
        },
      ),
      { numRuns: 300 },
    );
  });
});
