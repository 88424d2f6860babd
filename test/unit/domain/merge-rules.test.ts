/**
 * Example-based checks of the sync merge rules (DESIGN §3.3, §3.4), one rule per test, next to the
 * property tests of merge-properties.test.ts: these pin the cases a random search finds only
 * sometimes.
 */
import { describe, expect, it } from "vitest";
import {
  CORRUPT,
  mergeState,
  type MergeInput,
  type MergeOutput,
  type Touched,
} from "../../../src/domain/merge/merge-state.js";
import { taskViolations } from "../../../src/domain/record-invariants.js";
import type { Counters } from "../../../src/domain/schemas/counters.js";
import type { Mission } from "../../../src/domain/schemas/mission.js";
import { ReviewSchema, type Review } from "../../../src/domain/schemas/review.js";
import { TaskSchema, type Task } from "../../../src/domain/schemas/task.js";
import { aMission, aTask } from "../../helpers/builders.js";

const T = (s: number) => `2026-02-01T00:00:${String(s).padStart(2, "0")}.000Z`;
const counters = (tasks: number, missions = 0, reviews = 0): Counters => ({ tasks, epics: 0, missions, reviews });

function input(o: {
  tasks?: Touched<Task>[];
  missions?: Touched<Mission>[];
  reviews?: Touched<Review>[];
  local: Counters;
  remote: Counters;
}): MergeInput {
  return {
    touched: { tasks: o.tasks ?? [], epics: [], missions: o.missions ?? [], reviews: o.reviews ?? [] },
    counters: { local: o.local, remote: o.remote },
    remote: "origin",
  };
}

/** A record changed on both sides since the base. */
function both<T extends { number: number }>(base: T, local: T, remote: T): Touched<T> {
  return { number: base.number, base, local, remote, remoteChanged: true };
}

function written<T>(out: MergeOutput, kind: "tasks" | "missions" | "reviews", n: number): T | undefined {
  const w = (out.writes[kind] as Array<{ number: number; value?: unknown }>).find((x) => x.number === n);
  return w?.value as T | undefined;
}

function aReview(over: Partial<Review> = {}): Review {
  return ReviewSchema.parse({
    uid: "review-uid-0001",
    number: 1,
    title: "Review",
    type: "task_completion",
    status: "PENDING",
    task: 1,
    requestedBy: "Ptah",
    reviewer: null,
    reason: null,
    artifact: null,
    formerNumbers: [],
    createdAt: T(0),
    updatedAt: T(0),
    createdBy: "Ptah",
    ...over,
  });
}

describe("number collisions (DESIGN §3.4)", () => {
  it("the published record keeps the number; the local one moves to the next free number and every local reference follows", () => {
    const theirs = aTask({
      uid: "remote-task-1",
      number: 1,
      title: "theirs",
      role: "tester",
      createdAt: T(1),
      updatedAt: T(1),
    });
    const mine = aTask({
      uid: "local-task-1",
      number: 1,
      title: "mine",
      role: "tester",
      createdAt: T(2),
      updatedAt: T(2),
    });
    const theirMission = aMission({
      uid: "remote-msn-1",
      number: 1,
      codename: "silent-phoenix",
      persona: "Hephaestus",
    });
    const myMission = aMission({ uid: "local-msn-1", number: 1, codename: "misty-river", persona: "Ptah" });
    const dependent = aTask({
      uid: "local-task-2",
      number: 2,
      title: "needs mine",
      dependencies: [1],
      status: "UNDERWAY",
      claimedBy: "Ptah",
      mission: 1,
    });
    const review = aReview({ uid: "local-review-1", number: 1, task: 1 });
    const out = mergeState(
      input({
        tasks: [
          { number: 1, base: null, local: mine, remote: theirs, remoteChanged: true },
          { number: 2, base: null, local: dependent, remote: null, remoteChanged: false },
        ],
        missions: [{ number: 1, base: null, local: myMission, remote: theirMission, remoteChanged: true }],
        reviews: [{ number: 1, base: null, local: review, remote: null, remoteChanged: false }],
        local: counters(2, 1, 1),
        remote: counters(1, 1, 0),
      }),
    );
    expect(out.renumbered).toEqual([
      { kind: "tasks", from: 1, to: 3 },
      { kind: "missions", from: 1, to: 2 },
    ]);
    expect(out.counters).toEqual({ tasks: 3, epics: 0, missions: 2, reviews: 1 });
    expect(written<Task>(out, "tasks", 1), "the published task 1 is not rewritten").toBeUndefined();
    expect(written<Task>(out, "tasks", 3)).toMatchObject({
      uid: "local-task-1",
      number: 3,
      title: "mine",
      formerNumbers: [1],
    });
    expect(written<Task>(out, "tasks", 2)).toMatchObject({ uid: "local-task-2", dependencies: [3], mission: 2 });
    expect(written<Mission>(out, "missions", 2)).toMatchObject({
      uid: "local-msn-1",
      codename: "misty-river",
      formerNumbers: [1],
    });
    expect(written<Review>(out, "reviews", 1), "the local review now names the moved task").toMatchObject({
      uid: "local-review-1",
      task: 3,
    });
    expect(TaskSchema.safeParse(written<Task>(out, "tasks", 3)).success).toBe(true);
  });

  it("two collisions take consecutive numbers after both counters", () => {
    const rec = (uid: string, n: number) => aTask({ uid, number: n });
    const out = mergeState(
      input({
        tasks: [
          {
            number: 1,
            base: null,
            local: rec("local-task-1", 1),
            remote: rec("remote-task-1", 1),
            remoteChanged: true,
          },
          {
            number: 2,
            base: null,
            local: rec("local-task-2", 2),
            remote: rec("remote-task-2", 2),
            remoteChanged: true,
          },
          { number: 3, base: null, local: rec("local-task-3", 3), remote: null, remoteChanged: false },
        ],
        local: counters(3),
        remote: counters(2),
      }),
    );
    expect(out.renumbered).toEqual([
      { kind: "tasks", from: 1, to: 4 },
      { kind: "tasks", from: 2, to: 5 },
    ]);
    expect(out.counters.tasks).toBe(5);
    expect(out.writes.tasks).toContainEqual({ number: 3, blob: "local" });
  });

  it("the same uid at the same number is an edit, never a collision (beads' mistake)", () => {
    const base = aTask({ uid: "shared-task-1", number: 1, title: "Add login" });
    const out = mergeState(
      input({
        tasks: [
          both(
            base,
            { ...base, title: "Add login page", updatedAt: T(5) },
            { ...base, title: "Add the login", updatedAt: T(6) },
          ),
        ],
        local: counters(1),
        remote: counters(1),
      }),
    );
    expect(out.renumbered).toEqual([]);
  });

  it("a local record whose number is unreadable (corrupt) on the remote is not lost, and the corrupt entry is carried unchanged", () => {
    // DESIGN §2.1: corrupt entries are carried unchanged by every merge; §7: every record present.
    const mine = aTask({ uid: "local-task-4", number: 4, title: "mine" });
    const out = mergeState(
      input({
        tasks: [{ number: 4, base: null, local: mine, remote: CORRUPT, remoteChanged: true }],
        local: counters(4),
        remote: counters(4),
      }),
    );
    const atFour = out.writes.tasks.filter((w) => w.number === 4);
    expect(atFour, "the corrupt blob at tasks/4 must stay as it is").toEqual([]);
    const kept = out.writes.tasks.find((w) => "value" in w && w.value.uid === "local-task-4");
    expect(kept, `local task 4 (uid local-task-4) is missing from the writes: ${JSON.stringify(out)}`).toBeDefined();
  });
});

describe("joining unrelated histories (sync --adopt-remote)", () => {
  it("every local record moves, in order, right after the published numbers; references follow; an unreadable local entry stays and is skipped", () => {
    const rec = (uid: string, n: number, over: Partial<Task> = {}) => aTask({ uid, number: n, ...over });
    const out = mergeState({
      ...input({
        tasks: [
          {
            number: 1,
            base: null,
            local: rec("local-task-1", 1),
            remote: rec("remote-task-1", 1),
            remoteChanged: true,
          },
          {
            number: 2,
            base: null,
            local: rec("local-task-2", 2, { dependencies: [1] }),
            remote: null,
            remoteChanged: false,
          },
          { number: 3, base: null, local: CORRUPT, remote: null, remoteChanged: false },
          { number: 4, base: null, local: rec("local-task-4", 4), remote: null, remoteChanged: false },
        ],
        local: counters(4),
        remote: counters(1),
      }),
      renumberAll: true,
    });
    expect(out.renumbered).toEqual([
      { kind: "tasks", from: 1, to: 4 },
      { kind: "tasks", from: 2, to: 5 },
      { kind: "tasks", from: 4, to: 6 },
    ]);
    expect(out.counters.tasks).toBe(6);
    expect(written<Task>(out, "tasks", 5)).toMatchObject({
      uid: "local-task-2",
      dependencies: [4],
      formerNumbers: [2],
    });
    expect(
      out.writes.tasks.filter((w) => w.number === 1),
      "the published task 1 stays",
    ).toEqual([]);
    expect(out.writes.tasks).toContainEqual({ number: 3, blob: "local" });
  });
});

describe("records changed on both sides (DESIGN §3.3)", () => {
  const base = aTask({
    uid: "shared-task-1",
    number: 1,
    title: "Add login",
    description: "",
    priority: "MEDIUM",
    dependencies: [],
    updatedAt: T(0),
  });

  it("disjoint fields combine; updatedAt takes the later value and is never a conflict", () => {
    const out = mergeState(
      input({
        tasks: [
          both(
            base,
            { ...base, title: "Add login page", updatedAt: T(9) },
            { ...base, description: "with OAuth", updatedAt: T(7) },
          ),
        ],
        local: counters(1),
        remote: counters(1),
      }),
    );
    expect(out.conflicts).toEqual([]);
    expect(written<Task>(out, "tasks", 1)).toMatchObject({
      title: "Add login page",
      description: "with OAuth",
      updatedAt: T(9),
      notes: [],
    });
  });

  it("the same field changed differently: origin's value is kept, this clone's is kept as a conflict note", () => {
    const out = mergeState(
      input({
        tasks: [
          both(base, { ...base, priority: "CRITICAL", updatedAt: T(3) }, { ...base, priority: "LOW", updatedAt: T(4) }),
        ],
        local: counters(1),
        remote: counters(1),
      }),
    );
    expect(out.conflicts).toEqual([
      {
        kind: "tasks",
        number: 1,
        fields: ["priority"],
        local: { priority: "CRITICAL" },
        remote: { priority: "LOW" },
        noted: { kind: "tasks", number: 1 },
      },
    ]);
    const t = written<Task>(out, "tasks", 1)!;
    expect(t.priority).toBe("LOW");
    const notes = t.notes.filter((n) => n.kind === "conflict");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toContain("CRITICAL");
    expect(notes[0]!.text).toContain("origin");
  });

  it("the same change on both sides is no conflict", () => {
    const out = mergeState(
      input({
        tasks: [
          // This clone's edit is the later one, so the merge differs from origin's record (by
          // updatedAt) and is written: the test sees the merged record, not origin's unchanged.
          both(base, { ...base, priority: "HIGH", updatedAt: T(4) }, { ...base, priority: "HIGH", updatedAt: T(3) }),
        ],
        local: counters(1),
        remote: counters(1),
      }),
    );
    expect(out.conflicts).toEqual([]);
    // The change itself is kept (not the base's value), with no conflict note about it.
    expect(base.priority).not.toBe("HIGH");
    const t = written<Task>(out, "tasks", 1);
    expect(t).toMatchObject({ priority: "HIGH", updatedAt: T(4) });
    expect(t!.notes.filter((n) => n.kind === "conflict")).toEqual([]);
  });

  it("notes are a union by id, in time order", () => {
    const n = (id: string, at: number) => ({ id, at: T(at), by: "Director", kind: "note" as const, text: id });
    const b = { ...base, notes: [n("note-base", 1)] };
    const out = mergeState(
      input({
        tasks: [
          both(
            b,
            { ...b, notes: [...b.notes, n("note-local", 3)], updatedAt: T(3) },
            { ...b, notes: [...b.notes, n("note-remote", 2)], updatedAt: T(2) },
          ),
        ],
        local: counters(1),
        remote: counters(1),
      }),
    );
    expect(written<Task>(out, "tasks", 1)!.notes.map((x) => x.id)).toEqual(["note-base", "note-remote", "note-local"]);
  });

  it("a note the base had and the remote purged stays purged, while notes this side added are kept (a rewritten remote, DESIGN §3.2)", () => {
    const n = (id: string, at: number) => ({ id, at: T(at), by: "Director", kind: "note" as const, text: id });
    const b = { ...base, notes: [n("note-kept", 1), n("note-secret", 2)] };
    const local = { ...b, notes: [...b.notes, n("note-local", 4)], updatedAt: T(4) };
    const remote = { ...b, notes: [n("note-kept", 1), n("note-remote", 3)], updatedAt: T(3) };
    const out = mergeState(input({ tasks: [both(b, local, remote)], local: counters(1), remote: counters(1) }));
    expect(written<Task>(out, "tasks", 1)!.notes.map((x) => x.id)).toEqual(["note-kept", "note-remote", "note-local"]);
  });

  it("dependency sets merge three-way: a removal on one side stays removed, additions on both sides are kept", () => {
    const b = { ...base, number: 5, dependencies: [1, 2] };
    const out = mergeState(
      input({
        tasks: [
          both(b, { ...b, dependencies: [2, 3], updatedAt: T(1) }, { ...b, dependencies: [1, 2, 4], updatedAt: T(2) }),
        ],
        local: counters(5),
        remote: counters(5),
      }),
    );
    expect([...written<Task>(out, "tasks", 5)!.dependencies].sort()).toEqual([2, 3, 4]);
  });

  it("counters take the maximum per kind", () => {
    const out = mergeState(
      input({
        local: { tasks: 7, epics: 1, missions: 2, reviews: 0 },
        remote: { tasks: 5, epics: 3, missions: 2, reviews: 4 },
      }),
    );
    expect(out.counters).toEqual({ tasks: 7, epics: 3, missions: 2, reviews: 4 });
  });
});

describe("claims (DESIGN §3.3: the claim already published wins)", () => {
  const base = aTask({ uid: "shared-task-1", number: 1, status: "TODO", updatedAt: T(0) });

  it("both claimed offline: origin's claimant keeps it, the other is reported as dropped and noted", () => {
    const mine = { ...base, status: "UNDERWAY" as const, claimedBy: "Ptah", mission: 2, updatedAt: T(5) };
    const theirs = { ...base, status: "UNDERWAY" as const, claimedBy: "Hephaestus", mission: 1, updatedAt: T(4) };
    const out = mergeState(input({ tasks: [both(base, mine, theirs)], local: counters(1, 2), remote: counters(1, 2) }));
    expect(out.droppedClaims).toEqual([{ task: 1, local: "Ptah", remote: "Hephaestus" }]);
    const t = written<Task>(out, "tasks", 1)!;
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: 1 });
    expect(taskViolations(t)).toEqual([]);
    expect(
      t.notes
        .filter((n) => n.kind === "conflict")
        .map((n) => n.text)
        .join("\n"),
    ).toContain("Ptah");
  });

  it("a claim made here and not contested is kept, and is NOT reported as dropped when another field conflicts", () => {
    // Regression: a priority conflict made `sync` print "your claim by Ptah was dropped" while
    // the merged task still belongs to Ptah (noteConflicts looks at any conflict, not the claim's).
    const mine = {
      ...base,
      status: "UNDERWAY" as const,
      claimedBy: "Ptah",
      mission: 2,
      priority: "LOW" as const,
      updatedAt: T(5),
    };
    const theirs = { ...base, priority: "CRITICAL" as const, updatedAt: T(4) };
    const out = mergeState(input({ tasks: [both(base, mine, theirs)], local: counters(1, 2), remote: counters(1, 2) }));
    const t = written<Task>(out, "tasks", 1)!;
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Ptah", mission: 2, priority: "CRITICAL" });
    expect(out.conflicts.map((c) => c.fields)).toEqual([["priority"]]);
    expect(out.droppedClaims, "Ptah's claim was kept, so no 'your claim was dropped' line").toEqual([]);
  });

  it("closed on origin while claimed here: origin's state wins as a whole group and the claim is reported dropped", () => {
    const mine = { ...base, status: "UNDERWAY" as const, claimedBy: "Ptah", mission: 2, updatedAt: T(5) };
    const theirs = { ...base, status: "ABORTED" as const, updatedAt: T(4) };
    const out = mergeState(input({ tasks: [both(base, mine, theirs)], local: counters(1, 2), remote: counters(1, 2) }));
    const t = written<Task>(out, "tasks", 1)!;
    expect(t).toMatchObject({ status: "ABORTED", claimedBy: null, mission: null });
    expect(taskViolations(t)).toEqual([]);
    expect(out.droppedClaims).toEqual([{ task: 1, local: "Ptah", remote: null }]);
  });
});

describe("missions and reviews merge by the same rules", () => {
  it("a mission ended on both sides keeps origin's end as one group", () => {
    const base = aMission({ uid: "shared-msn-1", number: 1 });
    const mine = { ...base, status: "ENDED" as const, endedAt: T(5), summary: "mine", updatedAt: T(5) };
    const theirs = { ...base, status: "ENDED" as const, endedAt: T(4), summary: "theirs", updatedAt: T(4) };
    const out = mergeState(
      input({ missions: [both(base, mine, theirs)], local: counters(0, 1), remote: counters(0, 1) }),
    );
    const m = written<Mission>(out, "missions", 1);
    // origin's values are in place already (no write needed), or written with origin's values
    expect(m === undefined || (m.summary === "theirs" && m.endedAt === T(4))).toBe(true);
    expect(out.conflicts).toHaveLength(1);
  });

  it("a review decided on both sides keeps origin's decision with its reviewer", () => {
    const base = aReview({ uid: "shared-review-1" });
    const mine = { ...base, status: "APPROVED" as const, reviewer: "Athena", updatedAt: T(5) };
    const theirs = { ...base, status: "REJECTED" as const, reviewer: "Zeus", reason: "no", updatedAt: T(4) };
    const out = mergeState(
      input({ reviews: [both(base, mine, theirs)], local: counters(0, 0, 1), remote: counters(0, 0, 1) }),
    );
    const r = written<Review>(out, "reviews", 1);
    expect(r === undefined || (r.status === "REJECTED" && r.reviewer === "Zeus")).toBe(true);
  });
});

describe("formerRoles (DESIGN §1.2: merged as a union)", () => {
  it("a role changed on both sides: the published role wins, and both old roles stay former roles", () => {
    const base = aTask({ number: 1, role: "engineer", formerRoles: [] });
    const local = { ...base, role: "tester" as const, formerRoles: ["engineer" as const], updatedAt: T(2) };
    const remote = { ...base, role: "documentarian" as const, formerRoles: ["engineer" as const], updatedAt: T(1) };
    const out = mergeState(input({ tasks: [both(base, local, remote)], local: counters(1), remote: counters(1) }));
    const merged = written<Task>(out, "tasks", 1)!;
    expect(merged.role).toBe("documentarian");
    expect(merged.formerRoles, "this clone handed out TST- ids: they keep naming the task").toEqual([
      "engineer",
      "tester",
    ]);
  });

  it("former roles added on each side are kept, in one order whichever side merges", () => {
    const base = aTask({ number: 1, role: "engineer", formerRoles: ["architect"] });
    const local = { ...base, formerRoles: ["architect" as const, "tester" as const], title: "local" };
    const remote = { ...base, formerRoles: ["operator" as const, "architect" as const], description: "remote" };
    const a = written<Task>(
      mergeState(input({ tasks: [both(base, local, remote)], local: counters(1), remote: counters(1) })),
      "tasks",
      1,
    )!;
    const b = written<Task>(
      mergeState(input({ tasks: [both(base, remote, local)], local: counters(1), remote: counters(1) })),
      "tasks",
      1,
    )!;
    expect(a.formerRoles).toEqual(["architect", "tester", "operator"]);
    expect(b.formerRoles).toEqual(a.formerRoles);
  });

  it("a task written before the field decodes with formerRoles []", () => {
    const { formerRoles: _dropped, ...old } = aTask({ number: 4 });
    expect(TaskSchema.parse(old).formerRoles).toEqual([]);
  });
});

describe("what a merge owes other records (merge-followups.ts, DESIGN §3.3, §3.5)", () => {
  const base = aTask({ number: 1, status: "TODO", updatedAt: T(1) });
  /** This clone claimed task 1 and asked for its review; origin's claim by Hephaestus got there first. */
  function droppedWithRequest(extra: Touched<Review>[] = []) {
    const mine = { ...base, status: "REVIEW" as const, claimedBy: "Ptah", mission: 2, updatedAt: T(6) };
    const theirs = { ...base, status: "UNDERWAY" as const, claimedBy: "Hephaestus", mission: 1, updatedAt: T(4) };
    const request = aReview({ uid: "review-mine-3", number: 3, requestedBy: "Ptah", updatedAt: T(6), createdAt: T(6) });
    return mergeState(
      input({
        tasks: [both(base, mine, theirs)],
        reviews: [{ number: 3, base: null, local: request, remote: null, remoteChanged: false }, ...extra],
        local: counters(1, 0, 3),
        remote: counters(1, 0, 2),
      }),
    );
  }

  it("a PENDING request of the dropped claimant is WITHDRAWN, with why, and its task says so in a note", () => {
    const out = droppedWithRequest();
    expect(out.droppedClaims).toEqual([{ task: 1, local: "Ptah", remote: "Hephaestus" }]);
    expect(written<Review>(out, "reviews", 3)).toMatchObject({
      status: "WITHDRAWN",
      reason:
        "withdrawn at sync with origin: Ptah's claim of the task was dropped (Hephaestus's claim reached origin first)",
      updatedAt: T(6),
    });
    expect(out.withdrawn).toEqual([{ review: 3, task: 1, requester: "Ptah" }]);
    const t = written<Task>(out, "tasks", 1)!;
    expect(t.claimedBy).toBe("Hephaestus");
    expect(t.notes.map((n) => n.text)).toContain(
      "RVW-003 requested by Ptah was withdrawn at sync with origin: the claim it was for was dropped (Hephaestus's claim reached origin first)",
    );
    expect(taskViolations(t)).toEqual([]);
  });

  it("another persona's request of that task, or the claimant's request of another task, is left alone", () => {
    const other = aReview({ uid: "review-theirs-4", number: 4, requestedBy: "Imhotep", task: 1 });
    const elsewhere = aReview({ uid: "review-else-5", number: 5, requestedBy: "Ptah", task: 2 });
    const out = droppedWithRequest([
      { number: 4, base: null, local: other, remote: null, remoteChanged: false },
      { number: 5, base: null, local: elsewhere, remote: null, remoteChanged: false },
    ]);
    expect(written<Review>(out, "reviews", 3)?.status).toBe("WITHDRAWN");
    expect(out.writes.reviews.filter((w) => w.number !== 3).every((w) => "blob" in w)).toBe(true);
  });

  describe("two reviewers decided one review at once", () => {
    const pending = aReview({ number: 1, task: 1, updatedAt: T(1) });
    const mine = {
      ...pending,
      status: "APPROVED" as const,
      reviewer: "Athena",
      reason: "fine [mine]",
      updatedAt: T(5),
    };
    const theirs = {
      ...pending,
      status: "APPROVED" as const,
      reviewer: "Thoth",
      reason: "good [theirs]",
      updatedAt: T(4),
    };

    it("the published verdict stays; this clone's reason is kept whole in the task's notes (the task untouched here)", () => {
      const task = aTask({ number: 1, status: "COMPLETE", claimedBy: "Ptah", completedBy: "Ptah", mission: 2 });
      const long = `${"why ".repeat(300)}[mine]`;
      const out = mergeState({
        ...input({
          reviews: [both(pending, { ...mine, reason: long }, theirs)],
          local: counters(1, 0, 1),
          remote: counters(1, 0, 1),
        }),
        published: { tasks: new Map([[1, task]]) },
      });
      expect(written<Review>(out, "reviews", 1)).toMatchObject({ reviewer: "Thoth", reason: "good [theirs]" });
      expect(out.conflicts).toMatchObject([
        { kind: "reviews", number: 1, fields: ["status", "reviewer", "reason"], noted: { kind: "tasks", number: 1 } },
      ]);
      const t = written<Task>(out, "tasks", 1)!;
      const note = t.notes.find((n) => n.kind === "conflict")!;
      expect(note.text).toMatch(
        /^RVW-001: sync with origin kept status APPROVED, reviewer Thoth, reason good \[theirs\]/,
      );
      expect(note.text).toContain(`this clone had status APPROVED, reviewer Athena, reason ${long}`);
      expect({ ...t, notes: [] }).toEqual({ ...task, notes: [] });
    });

    it("the same when this clone completed the task too, and a review of no task is noted nowhere (the report says the value)", () => {
      const before = aTask({ number: 1, status: "REVIEW", claimedBy: "Ptah", mission: 2, updatedAt: T(1) });
      const done = { ...before, status: "COMPLETE" as const, completedBy: "Ptah", updatedAt: T(5) };
      const out = mergeState(
        input({
          tasks: [both(before, done, { ...done, updatedAt: T(4) })],
          reviews: [both(pending, mine, theirs)],
          local: counters(1, 0, 1),
          remote: counters(1, 0, 1),
        }),
      );
      expect(written<Task>(out, "tasks", 1)!.notes.some((n) => n.text.includes("reason fine [mine]"))).toBe(true);
      const loose = { ...pending, task: null };
      const none = mergeState(
        input({
          reviews: [both(loose, { ...mine, task: null }, { ...theirs, task: null })],
          local: counters(0, 0, 1),
          remote: counters(0, 0, 1),
        }),
      );
      expect(none.conflicts).toMatchObject([{ kind: "reviews", number: 1, noted: null }]);
      expect(none.writes.tasks).toEqual([]);
    });
  });
});
