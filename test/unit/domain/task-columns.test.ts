import { describe, expect, it } from "vitest";
import type { TaskSummary } from "../../../src/domain/schemas/task.js";
import {
  claimantAt,
  claimedPositions,
  columnsOf,
  createdKey,
  listColumns,
  NO_TASK,
  STATUS_CODE,
  statusByNumber,
} from "../../../src/domain/task-columns.js";
import { statusCodeOf } from "../../helpers/status-code.js";
import { columnsReport } from "../../../src/domain/task-questions.js";
import { aTask } from "../../helpers/builders.js";

const t = (number: number, over: Partial<TaskSummary> = {}): TaskSummary => ({
  ...aTask({ number, title: `Task ${number}` }),
  ...over,
});

describe("createdKey", () => {
  it("orders canonical timestamps exactly as the strings, 30 February included", () => {
    const xs = [
      "2026-02-30T00:00:00.000Z",
      "2026-03-01T00:00:00.000Z",
      "2026-02-28T23:59:59.999Z",
      "0001-01-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z",
      "2026-11-22T06:29:01.123Z",
    ];
    const byKey = [...xs].sort((a, b) => createdKey(a) - createdKey(b));
    expect(byKey).toEqual([...xs].sort());
    expect(new Set(xs.map(createdKey)).size).toBe(xs.length);
  });

  it("is NaN for any other form, so that the strings are compared instead", () => {
    for (const s of [
      "2026-11-22",
      "2026-11-22T06:29:01Z",
      "2026-11-22T06:29:01.123+02:00",
      "2026-13-01T00:00:00.000Z",
      "2026-11-22T24:00:00.000Z",
      "2026-11-22T06:29:01.123z",
      "x".repeat(24),
    ]) {
      expect(createdKey(s), s).toBeNaN();
    }
    expect(listColumns([t(1, { createdAt: "2026-11-22" })]).created).toBeNull();
  });
});

describe("statusByNumber", () => {
  const codesOf = (numbers: number[], asked: number[]) => {
    const ix = statusByNumber(listColumns(numbers.map((n) => t(n, { status: n % 2 ? "COMPLETE" : "REVIEW" }))));
    return {
      mode: ix.sparse ? "sparse" : ix.shift === 1 ? "positions" : "array",
      codes: asked.map((n) => statusCodeOf(ix, n)),
    };
  };
  const [C, R] = [STATUS_CODE.COMPLETE, STATUS_CODE.REVIEW];

  it("reads the status column itself when the numbers are exactly 1…N", () => {
    expect(codesOf([1, 2, 3], [0, 1, 2, 3, 4, -1, 2.5])).toEqual({
      mode: "positions",
      codes: [NO_TASK, C, R, C, NO_TASK, NO_TASK, NO_TASK],
    });
  });

  it("indexes by number when numbers have gaps or do not start at 1", () => {
    expect(codesOf([2, 3, 4], [1, 2, 4, 5])).toEqual({ mode: "array", codes: [NO_TASK, R, R, NO_TASK] });
    expect(codesOf([1, 3, 7], [1, 2, 3, 7, 8])).toEqual({ mode: "array", codes: [C, NO_TASK, C, C, NO_TASK] });
  });

  it("keeps a Map when renumbering spread the numbers far apart", () => {
    expect(codesOf([1, 50_000_000], [1, 50_000_000, 2])).toEqual({ mode: "sparse", codes: [C, R, NO_TASK] });
  });

  it("answers for no task at all", () => {
    expect(codesOf([], [0, 1])).toEqual({ mode: "positions", codes: [NO_TASK, NO_TASK] });
  });
});

describe("columns read off tasks", () => {
  it("are in number order whatever order a plain Map holds them in", () => {
    const cols = columnsOf(new Map([5, 1, 3].map((n) => [n, t(n)])));
    expect(Array.from(cols.number)).toEqual([1, 3, 5]);
    expect(cols.task(2).number).toBe(5);
  });

  it("find live claims only (a closed task keeps its claimant as history)", () => {
    const tasks = [
      t(1, { status: "UNDERWAY", claimedBy: "Athena" }),
      t(2, { status: "COMPLETE", claimedBy: "Athena" }),
      t(3),
      t(4, { status: "REVIEW", claimedBy: "Argus" }),
    ];
    const cols = listColumns(tasks);
    expect(claimedPositions(cols)).toEqual([0, 3]);
    expect(tasks.map((_, i) => claimantAt(cols, i))).toEqual(["Athena", null, null, "Argus"]);
  });

  it("report like the tasks themselves, whole or narrowed", () => {
    const tasks = [
      t(1, { status: "COMPLETE" }),
      t(2, { status: "ABORTED" }),
      t(3, { role: "tester" }),
      t(4, { status: "COMPLETE", role: "tester" }),
    ];
    const cols = listColumns(tasks);
    expect(columnsReport(cols)).toMatchObject({
      total: 4,
      byStatus: { COMPLETE: 2, ABORTED: 1, TODO: 1 },
      completionRate: 2 / 3,
    });
    expect(columnsReport(cols, (i) => tasks[i]!.role === "tester")).toMatchObject({
      total: 2,
      byStatus: { COMPLETE: 1, TODO: 1, ABORTED: 0 },
      completionRate: 0.5,
    });
  });
});
