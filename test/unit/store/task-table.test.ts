import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TaskSummary } from "../../../src/domain/schemas/task.js";
import { toTaskSummary } from "../../../src/domain/task-summary.js";
import { decodeTaskTable, encodeTaskTable } from "../../../src/store/task-table.js";

const meta = { commit: "c".repeat(40), shards: { "01": "a".repeat(40) }, bad: { "tasks/02/2.json": ["b".repeat(40), "not valid JSON"] as [string, string] }, stray: ["tasks/x"] };

const summary = fc.record({
  title: fc.string({ maxLength: 60, unit: "grapheme" }),
  role: fc.constantFrom("architect", "engineer", "tester", "documentarian", "inspector", "operator"),
  priority: fc.constantFrom("CRITICAL", "HIGH", "MEDIUM", "LOW"),
  status: fc.constantFrom("TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED", "COMPLETE", "ABORTED"),
  dependencies: fc.array(fc.integer({ min: 1, max: 100000 }), { maxLength: 4 }),
  epic: fc.option(fc.integer({ min: 1, max: 500 })),
  claimedBy: fc.option(fc.constantFrom("Hephaestus", "Athena", "Ünïcode 名前")),
  mission: fc.option(fc.integer({ min: 1, max: 9999 })),
  completedBy: fc.option(fc.constantFrom("Hephaestus", "Argus")),
  createdAt: fc.constant("2026-11-22T06:29:01.123Z"),
  updatedAt: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  formerNumbers: fc.array(fc.integer({ min: 1, max: 100000 }), { maxLength: 2 }),
});

describe("the tasks' binary cache table", () => {
  it("gives back every summary, blob id and piece of bookkeeping it was given", () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 40 }), (xs) => {
        const rows = xs.map((x, i) => ({ summary: { number: i * 3 + 1, ...x } as TaskSummary, oid: (i % 16).toString(16).repeat(40) }));
        const t = decodeTaskTable(encodeTaskTable(rows, meta))!;
        expect(t.meta).toEqual(meta);
        expect(t.count).toBe(rows.length);
        rows.forEach((r, i) => {
          const row = t.row(i);
          expect(toTaskSummary(row)).toEqual(r.summary);
          expect(JSON.parse(JSON.stringify(row))).toEqual(r.summary);
          expect(row.oid).toBe(r.oid);
          expect(row.value).toBe(row);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("reads a table from an unaligned buffer, and refuses what is not one", () => {
    const file = encodeTaskTable([{ summary: { number: 7, title: "t", role: "engineer", priority: "LOW", status: "TODO", dependencies: [3], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: "a", updatedAt: "b", formerNumbers: [] }, oid: "f".repeat(40) }], meta);
    const unaligned = Buffer.concat([Buffer.alloc(3), file]).subarray(3);
    expect(decodeTaskTable(unaligned)!.row(0).dependencies).toEqual([3]);
    expect(decodeTaskTable(Buffer.from("PTT0" + file.toString("latin1").slice(4), "latin1"))).toBeNull();
    expect(decodeTaskTable(file.subarray(0, file.length - 8))).toBeNull();
    expect(decodeTaskTable(Buffer.from("{}"))).toBeNull();
  });

  it("will not store a value its columns cannot hold", () => {
    const base = { number: 1, title: "t", role: "engineer", priority: "LOW", status: "TODO", dependencies: [], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: "a", updatedAt: "b", formerNumbers: [] } as TaskSummary;
    expect(() => encodeTaskTable([{ summary: { ...base, dependencies: [2 ** 33] }, oid: "f".repeat(40) }], meta)).toThrow(/out of range/);
    expect(() => encodeTaskTable([{ summary: { ...base, status: "LATER" as never }, oid: "f".repeat(40) }], meta)).toThrow(/unknown value/);
  });
});
