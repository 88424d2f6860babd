import { describe, expect, it } from "vitest";
import {
  claimPublishCounts,
  classifyOutcome,
  concurrentClaims,
  confirmDoubleWork,
  findDoubleWork,
  findLostTexts,
  findMissingCreated,
  findReviewProblems,
  findUndoneCloses,
  type OutcomeRecord,
  parseHistory,
  publishOutcome,
} from "../../../scripts/soak-checks.mjs";

// The multi-clone soak's checks over fabricated outcome logs: each violation the soak must be
// able to show is made by hand here and found, and the legitimate look-alikes are not.

let seq = 0;
function rec(persona: string, kind: string, t0: number, t1: number, more: Partial<OutcomeRecord> = {}): OutcomeRecord {
  return {
    clone: persona.charCodeAt(4) - 65,
    persona,
    seq: ++seq,
    kind,
    t0,
    t1,
    outcome: "ok",
    published: null,
    ...more,
  };
}
const claim = (p: string, task: string, t0: number, t1: number, more: Partial<OutcomeRecord> = {}) =>
  rec(p, "task claim", t0, t1, { task, ...more });
const review = (p: string, task: string, t0: number, t1: number, more: Partial<OutcomeRecord> = {}) =>
  rec(p, "task update", t0, t1, { task, ...more });

describe("classifyOutcome", () => {
  const err = (code: string) => `${JSON.stringify({ error: { code, message: "m", hint: "h" } })}\n`;
  it("takes a --json envelope as success", () => {
    const c = classifyOutcome({
      kind: "task claim",
      status: 0,
      stdout: '{"schemaVersion":1,"kind":"task","data":{}}',
      stderr: "",
    });
    expect(c.outcome).toBe("ok");
  });
  it("takes exit 1 with a domain code as a documented refusal, any other exit 1 as a failure", () => {
    expect(
      classifyOutcome({ kind: "task claim", status: 1, stdout: "", stderr: err("E_INVALID_TRANSITION") }).outcome,
    ).toBe("refused");
    expect(
      classifyOutcome({ kind: "task claim", status: 1, stdout: "", stderr: err("E_GIT_READ_OBJECT") }).outcome,
    ).toBe("failed");
  });
  it("takes exit 3 as a refusal only for the command that documents it", () => {
    expect(classifyOutcome({ kind: "sync", status: 3, stdout: "", stderr: err("E_SYNC") }).outcome).toBe("refused");
    const claimed = classifyOutcome({ kind: "task claim", status: 3, stdout: "", stderr: err("E_CONTENTION") });
    expect(claimed.outcome).toBe("failed");
    expect(claimed.why).toMatch(/not documented for task claim/);
  });
  it("fails usage errors, stack traces, broken envelopes and errors without a JSON document", () => {
    expect(classifyOutcome({ kind: "task claim", status: 2, stdout: "", stderr: err("E_USAGE") }).outcome).toBe(
      "failed",
    );
    expect(
      classifyOutcome({ kind: "sync", status: 1, stdout: "", stderr: "Error: x\n    at foo (a.js:1:1)" }).outcome,
    ).toBe("failed");
    expect(classifyOutcome({ kind: "sync", status: 0, stdout: "{}\n{}", stderr: "" }).outcome).toBe("failed");
    expect(classifyOutcome({ kind: "sync", status: 1, stdout: "", stderr: "✗ nope" }).outcome).toBe("failed");
  });
});

describe("publishOutcome", () => {
  const env = (extra: object) => ({ schemaVersion: 1, kind: "task", data: {}, ...extra });
  it("reads published from the envelope, at the top, in data, or as an object with a reason", () => {
    expect(publishOutcome(env({ published: true }), "")).toMatchObject({ published: true, why: null });
    expect(publishOutcome({ schemaVersion: 1, kind: "task", data: { published: false } }, "").published).toBe(false);
    expect(publishOutcome(env({ published: { published: false, reason: "origin kept changing" } }), "")).toMatchObject({
      published: false,
      why: "origin kept changing",
    });
  });
  it("keeps the product's stderr line apart: the --json result did not say it", () => {
    const said = publishOutcome(env({}), "not published yet (git push did not finish within 5 s): pantheon sync\n");
    expect(said).toEqual({
      published: null,
      why: null,
      stderrUnpublished: true,
      stderrWhy: "git push did not finish within 5 s",
    });
    expect(publishOutcome(env({}), "")).toMatchObject({ published: null, stderrUnpublished: false });
  });
});

describe("findDoubleWork", () => {
  it("finds two personas both told they hold a task and both moving it on at once", () => {
    const found = findDoubleWork([
      claim("SoakA", "t1", 0, 1_000, { published: true }),
      claim("SoakB", "t1", 500, 1_500), // said nothing: told it holds it
      review("SoakA", "t1", 2_000, 2_500),
      review("SoakB", "t1", 2_100, 2_600),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]?.personas.sort()).toEqual(["SoakA", "SoakB"]);
    expect(found[0]?.most).toBe(2);
  });
  it("counts the most personas at one moment", () => {
    const found = findDoubleWork([
      claim("SoakA", "t1", 0, 100),
      claim("SoakB", "t1", 0, 200),
      claim("SoakC", "t1", 0, 300),
      claim("SoakD", "t1", 5_000, 5_100),
      review("SoakA", "t1", 1_000, 1_100),
      review("SoakB", "t1", 1_000, 1_200),
      rec("SoakC", "task close", 1_000, 1_300, { task: "t1" }),
      review("SoakD", "t1", 6_000, 6_100),
    ]);
    expect(found[0]?.most).toBe(3);
    expect(found[0]?.personas).not.toContain("SoakD");
  });
  it("counts a claim whose 'not published yet' was on stderr only: its --json result did not say it", () => {
    const found = findDoubleWork([
      claim("SoakA", "t1", 0, 1_000, { stderrUnpublished: true, stderrWhy: "git push did not finish within 5 s" }),
      claim("SoakB", "t1", 0, 1_000, { published: true }),
      review("SoakA", "t1", 2_000, 2_500),
      review("SoakB", "t1", 2_000, 2_500),
    ]);
    expect(found[0]?.episodes.find((e) => e.persona === "SoakA")?.stderrUnpublished).toBe(true);
  });
  it("does not count a claim told it was not published, one never moved on, or claims one after another", () => {
    expect(
      findDoubleWork([
        claim("SoakA", "t1", 0, 1_000, { published: false }),
        claim("SoakB", "t1", 0, 1_000),
        review("SoakA", "t1", 2_000, 2_500),
        review("SoakB", "t1", 2_000, 2_500),
      ]),
    ).toEqual([]);
    expect(
      findDoubleWork([
        claim("SoakA", "t1", 0, 1_000),
        claim("SoakB", "t1", 0, 1_000),
        review("SoakB", "t1", 2_000, 2_500),
      ]),
    ).toEqual([]);
    expect(
      findDoubleWork([
        claim("SoakA", "t1", 0, 1_000),
        review("SoakA", "t1", 1_100, 1_200),
        claim("SoakB", "t1", 1_300, 1_400),
        review("SoakB", "t1", 1_500, 1_600),
      ]),
    ).toEqual([]);
  });
  it("ignores refused moves and one persona claiming twice", () => {
    expect(
      findDoubleWork([
        claim("SoakA", "t1", 0, 1_000),
        claim("SoakB", "t1", 0, 1_000),
        review("SoakA", "t1", 2_000, 2_500),
        review("SoakB", "t1", 2_000, 2_500, { outcome: "refused" }),
        claim("SoakA", "t2", 0, 100),
        claim("SoakA", "t2", 200, 300),
        review("SoakA", "t2", 400, 500),
      ]),
    ).toEqual([]);
  });
});

describe("history: parseHistory and concurrentClaims", () => {
  const commit = (id: string, parents: string[], op: string, actor: string, records: string) =>
    `${id}\u0000${parents.join(" ")}\u0000summary\n\nPantheon-Op: ${op}\nPantheon-Actor: ${actor}\nPantheon-Records: ${records}\n\u001e\n`;
  const log =
    commit("m", ["a", "b"], "sync.merge", "Director", "tasks/1") +
    commit("b", ["r"], "task.claim", "SoakB", "tasks/1") +
    commit("a", ["r"], "task.claim", "SoakA", "tasks/1") +
    commit("c", ["m"], "task.claim", "SoakC", "tasks/2") +
    commit("d", ["c"], "task.claim", "SoakD", "tasks/2") +
    commit("r", [], "project.init", "Director", "counters, project");
  it("parses commits, parents and trailers", () => {
    const h = parseHistory(log);
    expect(h.map((c) => c.commit)).toEqual(["m", "b", "a", "c", "d", "r"]);
    expect(h[0]).toMatchObject({ parents: ["a", "b"], op: "sync.merge" });
    expect(h[5]).toMatchObject({ parents: [], records: ["counters", "project"] });
  });
  it("finds claims by two actors on histories that did not know of each other, not claims one after another", () => {
    const title: Record<string, string> = { a: "t1", b: "t1", c: "t2", d: "t2" };
    const found = concurrentClaims(parseHistory(log), (c) => title[c]);
    expect([...found.keys()]).toEqual(["t1"]);
    expect(
      found
        .get("t1")?.[0]
        ?.map((x) => x.actor)
        .sort(),
    ).toEqual(["SoakA", "SoakB"]);
  });
  it("confirms a double-worked task by both claim commits in the history, and says when one is missing", () => {
    const records = [
      claim("SoakA", "t1", 0, 1_000),
      claim("SoakB", "t1", 0, 1_000),
      review("SoakA", "t1", 2_000, 2_500),
      review("SoakB", "t1", 2_000, 2_500),
    ];
    const title: Record<string, string> = { a: "t1", b: "t1", c: "t2", d: "t2" };
    const [both] = confirmDoubleWork(findDoubleWork(records), parseHistory(log), (c) => title[c]);
    expect(both).toMatchObject({ confirmed: true, inHistory: ["SoakA", "SoakB"] });
    expect(both?.concurrent).toHaveLength(1);
    const withoutB = parseHistory(log).filter((c) => c.commit !== "b");
    const [one] = confirmDoubleWork(findDoubleWork(records), withoutB, (c) => title[c]);
    expect(one).toMatchObject({ confirmed: false, inHistory: ["SoakA"], concurrent: [] });
  });
});

describe("findLostTexts", () => {
  const approve = (tag: string, more: Partial<OutcomeRecord> = {}) =>
    rec("SoakB", "review approve", 0, 1, { textTag: tag, text: `lgtm ${tag}`, review: "RVW-001", ...more });
  it("finds an approval reason reported ✓ that the state lost, also when the sync kept another", () => {
    const lost = findLostTexts(
      [approve("[approve c1 SoakB #4]"), approve("[approve c2 SoakC #9]")],
      ["lgtm [approve c1 SoakB #4]"],
    );
    expect(lost.map((r) => r.textTag)).toEqual(["[approve c2 SoakC #9]"]);
  });
  it("finds a text kept inside a conflict note, and ignores texts of refused commands", () => {
    expect(
      findLostTexts(
        [approve("[approve c1 SoakB #4]"), approve("[approve c3 SoakD #2]", { outcome: "refused" })],
        ['sync with origin: kept reason "x"; this clone had reason "lgtm \\u00e9 [approve c1 SoakB #4]"'],
      ),
    ).toEqual([]);
  });
});

describe("findReviewProblems", () => {
  const task = (number: number, status: string, claimedBy: string | null) => ({
    number,
    title: `t${number}`,
    status,
    claimedBy,
  });
  const rv = (number: number, taskNo: number, status: string, requestedBy: string, reviewer: string | null = null) => ({
    number,
    task: taskNo,
    type: "task_completion",
    status,
    requestedBy,
    reviewer,
    reason: null,
  });
  it("finds a dropped claimant's request still PENDING on a task someone else owns or that left REVIEW", () => {
    const p = findReviewProblems({
      tasks: [task(1, "REVIEW", "SoakB"), task(2, "COMPLETE", "SoakB"), task(3, "REVIEW", "SoakC")],
      reviews: [rv(1, 1, "PENDING", "SoakA"), rv(2, 2, "PENDING", "SoakA"), rv(3, 3, "PENDING", "SoakC")],
    });
    expect(p.map((x) => x.kind).sort()).toEqual(["pending-not-in-review", "pending-other-owner"]);
  });
  it("finds a task approved four times, and allows one approval per completion", () => {
    const tasks = [task(1, "COMPLETE", "SoakA"), task(2, "COMPLETE", "SoakA")];
    const reviews = [
      ...[1, 2, 3, 4].map((n) => rv(n, 1, "APPROVED", `Soak${"ABCD"[n - 1]}`, "SoakE")),
      rv(5, 2, "APPROVED", "SoakA", "SoakB"),
      rv(6, 2, "APPROVED", "SoakA", "SoakC"),
    ];
    const p = findReviewProblems({ tasks, reviews }, (t) => (t === "t2" ? 1 : 0));
    expect(p).toEqual([expect.objectContaining({ kind: "approved-too-often", task: "t1", approvals: 4, allowed: 1 })]);
  });
  it("finds two PENDING requests of one task", () => {
    const p = findReviewProblems({
      tasks: [task(1, "REVIEW", "SoakA")],
      reviews: [rv(1, 1, "PENDING", "SoakA"), rv(2, 1, "PENDING", "SoakA")],
    });
    expect(p.map((x) => x.kind)).toEqual(["pending-twice"]);
  });
});

describe("findUndoneCloses", () => {
  it("finds a close reported COMPLETE whose task a merge took back", () => {
    const close = (task: string) => rec("SoakA", "task close", 0, 1, { task, result: { status: "COMPLETE" } });
    const undone = findUndoneCloses(
      [close("t1"), close("t2"), rec("SoakB", "task close", 0, 1, { task: "t3", outcome: "refused" })],
      [
        { number: 1, title: "t1", status: "UNDERWAY", claimedBy: "SoakH" },
        { number: 2, title: "t2", status: "COMPLETE", claimedBy: "SoakA" },
        { number: 3, title: "t3", status: "UNDERWAY", claimedBy: "SoakH" },
      ],
    );
    expect(undone.map((r) => r.task)).toEqual(["t1"]);
  });
});

describe("findMissingCreated and claimPublishCounts", () => {
  it("finds a task created with ✓ that the state lacks", () => {
    const created = [
      rec("SoakA", "task create", 0, 1, { title: "a c0#1" }),
      rec("SoakA", "task create", 0, 1, { title: "b c0#2" }),
    ];
    expect(findMissingCreated(created, ["a c0#1"]).map((r) => r.title)).toEqual(["b c0#2"]);
  });
  it("counts claims by what they said and those over the 5 s budget", () => {
    const c = claimPublishCounts([
      claim("SoakA", "t1", 0, 6_000, { published: true }),
      claim("SoakB", "t2", 0, 1_000, { published: false, publishedWhy: "origin kept changing" }),
      claim("SoakC", "t3", 0, 7_000),
      claim("SoakE", "t5", 0, 7_000, { stderrUnpublished: true, stderrWhy: "origin kept changing" }),
      claim("SoakD", "t4", 0, 100, { outcome: "refused" }),
    ]);
    expect(c).toMatchObject({
      run: 5,
      ok: 4,
      refused: 1,
      published: 1,
      notPublished: 1,
      notSaid: 2,
      notSaidButWarned: 1,
      overBudget: 3,
    });
    expect(c.unpublished).toEqual({ "origin kept changing": 1, "(stderr only) origin kept changing": 1 });
  });
});
