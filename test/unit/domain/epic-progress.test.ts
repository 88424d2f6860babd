import { describe, expect, it } from "vitest";
import { epicProgress, epicStatus } from "../../../src/domain/epic-progress.js";
import type { TaskStatus } from "../../../src/domain/task-status.js";

/** DESIGN §1.4: an epic's status and progress are derived from its linked tasks, never stored. */

const live = { aborted: null };
const aborted = { aborted: "descoped" };
const linked = (...statuses: TaskStatus[]) => statuses.map((status) => ({ status }));

describe("epicStatus", () => {
  it("is TODO with no linked task", () => {
    expect(epicStatus(live, [])).toBe("TODO");
  });

  it("is TODO while every linked task is TODO or READY", () => {
    expect(epicStatus(live, linked("TODO"))).toBe("TODO");
    expect(epicStatus(live, linked("TODO", "READY", "READY"))).toBe("TODO");
  });

  it.each<TaskStatus>(["UNDERWAY", "REVIEW", "BLOCKED"])("is UNDERWAY once one linked task is %s", (s) => {
    expect(epicStatus(live, linked("TODO", s, "READY"))).toBe("UNDERWAY");
  });

  it("is UNDERWAY when some tasks are COMPLETE and others still open", () => {
    expect(epicStatus(live, linked("COMPLETE", "TODO"))).toBe("UNDERWAY");
    expect(epicStatus(live, linked("COMPLETE", "COMPLETE", "READY"))).toBe("UNDERWAY");
    expect(epicStatus(live, linked("COMPLETE", "REVIEW"))).toBe("UNDERWAY");
  });

  it("is COMPLETE when every linked task is COMPLETE", () => {
    expect(epicStatus(live, linked("COMPLETE"))).toBe("COMPLETE");
    expect(epicStatus(live, linked("COMPLETE", "COMPLETE", "COMPLETE"))).toBe("COMPLETE");
  });

  it("is COMPLETE when every linked task is COMPLETE or ABORTED with at least one COMPLETE", () => {
    expect(epicStatus(live, linked("ABORTED", "COMPLETE", "ABORTED"))).toBe("COMPLETE");
  });

  it("is not COMPLETE when every linked task is ABORTED (it has left TODO/READY: UNDERWAY)", () => {
    expect(epicStatus(live, linked("ABORTED"))).not.toBe("COMPLETE");
    expect(epicStatus(live, linked("ABORTED", "ABORTED"))).not.toBe("COMPLETE");
    expect(epicStatus(live, linked("ABORTED", "ABORTED"))).toBe("UNDERWAY");
  });

  it("is ABORTED when the epic is aborted, whatever its tasks", () => {
    expect(epicStatus(aborted, [])).toBe("ABORTED");
    expect(epicStatus(aborted, linked("TODO"))).toBe("ABORTED");
    expect(epicStatus(aborted, linked("UNDERWAY"))).toBe("ABORTED");
    expect(epicStatus(aborted, linked("COMPLETE", "COMPLETE"))).toBe("ABORTED");
  });

  it("treats an empty-string abort reason as aborted (only null means live)", () => {
    expect(epicStatus({ aborted: "" }, linked("TODO"))).toBe("ABORTED");
  });
});

describe("epicProgress", () => {
  it("is 0/0 and 0% for an empty epic", () => {
    expect(epicProgress([])).toEqual({ complete: 0, total: 0, percent: 0 });
  });

  it("counts COMPLETE tasks over linked tasks that are not ABORTED", () => {
    expect(epicProgress(linked("TODO", "UNDERWAY", "COMPLETE"))).toEqual({ complete: 1, total: 3, percent: 33 });
    expect(epicProgress(linked("COMPLETE", "ABORTED", "TODO"))).toEqual({ complete: 1, total: 2, percent: 50 });
    expect(epicProgress(linked("COMPLETE", "COMPLETE", "ABORTED"))).toEqual({ complete: 2, total: 2, percent: 100 });
  });

  it("gives 0% with total 0 when every linked task is ABORTED", () => {
    expect(epicProgress(linked("ABORTED", "ABORTED"))).toEqual({ complete: 0, total: 0, percent: 0 });
  });

  it("counts every open status in the total", () => {
    expect(epicProgress(linked("TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"))).toEqual({
      complete: 0,
      total: 5,
      percent: 0,
    });
  });

  it.each([
    [1, 3, 33],
    [2, 3, 67],
    [1, 6, 17],
    [5, 6, 83],
    [1, 8, 13], // 12.5 rounds up
    [5, 8, 63], // 62.5 rounds up
    [1, 7, 14],
    [199, 200, 100], // 99.5 rounds up
    [1, 200, 1], // 0.5 rounds up
    [1, 201, 0], // 0.497… rounds down
  ])("rounds %i/%i to %i%%", (complete, total, percent) => {
    const statuses: TaskStatus[] = [
      ...Array<TaskStatus>(complete).fill("COMPLETE"),
      ...Array<TaskStatus>(total - complete).fill("TODO"),
    ];
    expect(epicProgress(linked(...statuses))).toEqual({ complete, total, percent });
  });

  it("is an integer percent between 0 and 100 for any mix", () => {
    const all: TaskStatus[] = ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED", "COMPLETE", "ABORTED"];
    for (let seed = 1; seed < 300; seed++) {
      const statuses = Array.from({ length: seed % 13 }, (_, i) => all[(seed * 7 + i * 3) % all.length]!);
      const p = epicProgress(linked(...statuses));
      expect(Number.isInteger(p.percent)).toBe(true);
      expect(p.percent).toBeGreaterThanOrEqual(0);
      expect(p.percent).toBeLessThanOrEqual(100);
      expect(p.total).toBe(statuses.filter((s) => s !== "ABORTED").length);
      expect(p.complete).toBe(statuses.filter((s) => s === "COMPLETE").length);
      // 100% exactly when the epic's derived status is COMPLETE (for a live epic with tasks left)
      if (p.total > 0) expect(p.percent === 100).toBe(epicStatus(live, linked(...statuses)) === "COMPLETE");
    }
  });
});
