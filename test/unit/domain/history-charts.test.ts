import { describe, expect, it } from "vitest";
import { chartTask, factsOfEvents, historyCharts, type ChartTask } from "../../../src/domain/history-charts.js";
import { recordNumbers } from "../../../src/domain/record-keys.js";

type Fields = Omit<ChartTask, "createdDay" | "updatedDay"> & { createdAt: string; updatedAt: string };
const task = (number: number, over: Partial<Fields> = {}): ChartTask =>
  chartTask({
    number,
    role: "engineer",
    epic: null,
    status: "TODO",
    createdAt: "2026-03-01T09:00:00Z",
    updatedAt: "2026-03-01T09:00:00Z",
    ...over,
  });

describe("recordNumbers", () => {
  it("expands the trailer's ranges of one kind", () => {
    expect(recordNumbers(["counters, tasks/3, tasks/9-12", "reviews/1, tasks/20"], "tasks")).toEqual([
      3, 9, 10, 11, 12, 20,
    ]);
    expect(recordNumbers(["tasks/3"], "reviews")).toEqual([]);
  });
});

describe("historyCharts", () => {
  const events = [
    { at: "2026-03-01T10:00:00Z", op: "task.claim", tasks: [1] },
    { at: "2026-03-01T12:00:00Z", op: "task.claim", tasks: [2] },
    { at: "2026-03-02T10:00:00Z", op: "task.complete", tasks: [1] },
    { at: "2026-03-03T10:00:00Z", op: "review.approve", tasks: [2] },
    { at: "2026-03-03T11:00:00Z", op: "task.abort", tasks: [3] },
  ];
  const tasks = [
    task(1, { status: "COMPLETE", epic: 5 }),
    task(2, { status: "COMPLETE", role: "tester", epic: 5 }),
    task(3, { status: "ABORTED", createdAt: "2026-03-02T09:00:00Z" }),
    task(4, { epic: 5 }),
  ];

  it("counts opened (createdAt) and closed (complete, approve, abort) per day, every day to today", () => {
    const c = historyCharts(factsOfEvents(events), tasks, { epic: null, today: "2026-03-04T08:00:00Z" });
    expect(c.perDay).toEqual([
      { day: "2026-03-01", opened: 3, closed: 0 },
      { day: "2026-03-02", opened: 1, closed: 1 },
      { day: "2026-03-03", opened: 0, closed: 2 },
      { day: "2026-03-04", opened: 0, closed: 0 },
    ]);
    expect(c.burndown).toBeNull();
  });

  it("measures claim to COMPLETE per role (an abort is no completion)", () => {
    const c = historyCharts(factsOfEvents(events), tasks, { epic: null, today: "2026-03-04T08:00:00Z" });
    expect(c.cycleTimes).toEqual([
      { role: "engineer", count: 1, medianHours: 24, p90Hours: 24 },
      { role: "tester", count: 1, medianHours: 46, p90Hours: 46 },
    ]);
  });

  it("burns an epic down: its tasks open at each day's end", () => {
    const c = historyCharts(factsOfEvents(events), tasks, { epic: 5, today: "2026-03-03T20:00:00Z" });
    expect(c.burndown).toEqual([
      { day: "2026-03-01", remaining: 3, total: 3 },
      { day: "2026-03-02", remaining: 2, total: 3 },
      { day: "2026-03-03", remaining: 1, total: 3 },
    ]);
  });

  it("draws at most the last 90 days and counts the rest", () => {
    const c = historyCharts(factsOfEvents([]), [task(1, { createdAt: "2025-01-01T00:00:00Z" })], {
      epic: null,
      today: "2026-01-01T00:00:00Z",
    });
    expect(c.perDay).toHaveLength(90);
    expect(c.daysOmitted).toBe(366 - 90);
  });
});
