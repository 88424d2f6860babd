import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TaskSummary } from "../../../src/domain/schemas/task.js";
import { toTaskSummary } from "../../../src/domain/task-summary.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlockFile } from "../../../src/store/block-file.js";
import { decodeTaskTable, encodeTaskTable, type EncodedTable } from "../../../src/store/task-table.js";
import { RowsTaskMap, TableRows } from "../../../src/store/table-rows.js";

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

/** Decodes an encoded table with its side files on disk, as the cache reads them. */
function decode(enc: EncodedTable, columns: Buffer = enc.columns) {
  const dir = mkdtempSync(join(tmpdir(), "pantheon-table-"));
  writeFileSync(join(dir, "text"), enc.text);
  writeFileSync(join(dir, "oids"), enc.oids);
  return decodeTaskTable(columns, (h) => ({ text: new BlockFile(join(dir, "text"), h.textBytes), oids: new BlockFile(join(dir, "oids"), h.oidBytes) }));
}

describe("the tasks' binary cache table", () => {
  it("gives back every summary, blob id and piece of bookkeeping it was given", () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 40 }), (xs) => {
        const rows = xs.map((x, i) => ({ summary: { number: i * 3 + 1, ...x } as TaskSummary, oid: (i % 16).toString(16).repeat(40) }));
        const t = decode(encodeTaskTable(rows, meta))!;
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

  it("reads titles one by one, then the whole text at once, alike for ASCII and other text", () => {
    for (const word of ["plain", "ünïcode 名前 🔐"]) {
      const rows = Array.from({ length: 400 }, (_, i) => ({ summary: { number: i + 1, title: `${word} ${i}`, role: "engineer", priority: "LOW", status: "TODO", dependencies: [], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: `c${i}`, updatedAt: `u${i}`, formerNumbers: [] } as TaskSummary, oid: "f".repeat(40) }));
      const t = decode(encodeTaskTable(rows, meta))!;
      for (let round = 0; round < 2; round++) rows.forEach((r, i) => expect([t.row(i).title, t.row(i).createdAt, t.row(i).updatedAt]).toEqual([r.summary.title, `c${i}`, `u${i}`]));
    }
  });

  it("reads a table from an unaligned buffer, and refuses what is not one", () => {
    const file = encodeTaskTable([{ summary: { number: 7, title: "t", role: "engineer", priority: "LOW", status: "TODO", dependencies: [3], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: "a", updatedAt: "b", formerNumbers: [] }, oid: "f".repeat(40) }], meta);
    const unaligned = Buffer.concat([Buffer.alloc(3), file.columns]).subarray(3);
    expect(decode(file, unaligned)!.row(0).dependencies).toEqual([3]);
    expect(decode(file, Buffer.from("PTT0" + file.columns.toString("latin1").slice(4), "latin1"))).toBeNull();
    expect(decode(file, file.columns.subarray(0, file.columns.length - 8))).toBeNull();
    expect(decode(file, Buffer.from("{}"))).toBeNull();
  });

  it("will not store a value its columns cannot hold", () => {
    const base = { number: 1, title: "t", role: "engineer", priority: "LOW", status: "TODO", dependencies: [], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: "a", updatedAt: "b", formerNumbers: [] } as TaskSummary;
    expect(() => encodeTaskTable([{ summary: { ...base, dependencies: [2 ** 33] }, oid: "f".repeat(40) }], meta)).toThrow(/out of range/);
    expect(() => encodeTaskTable([{ summary: { ...base, status: "LATER" as never }, oid: "f".repeat(40) }], meta)).toThrow(/unknown value/);
  });
});

describe("TableRows: a table with the journal's changes on top", () => {
  const summary = (number: number, title: string): TaskSummary => ({ number, title, role: "engineer", priority: "LOW", status: "TODO", dependencies: [], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: "a", updatedAt: "b", formerNumbers: [] });
  const table = () => decode(encodeTaskTable([2, 4, 6, 8].map((n) => ({ summary: summary(n, `t${n}`), oid: String(n).repeat(40) })), meta))!;

  it("answers like a Map of the table's rows with the changes applied, in number order", () => {
    const rows = new TableRows(table());
    expect(rows.size).toBe(4);
    expect(rows.get(4)!.value.title).toBe("t4");
    expect(rows.get(4)!.oid).toBe("4".repeat(40));
    expect(rows.get(5)).toBeUndefined();
    rows.set(4, { oid: "a".repeat(40), value: summary(4, "t4 again") });
    rows.set(9, { oid: "b".repeat(40), value: summary(9, "t9") });
    expect(rows.delete(2)).toBe(true);
    expect(rows.delete(3)).toBe(false);
    const copy = rows.copy();
    rows.set(5, { oid: "c".repeat(40), value: summary(5, "t5") }); // below the table's last number
    expect(rows.size).toBe(5);
    expect(rows.ordered().map((t) => t.title)).toEqual(["t4 again", "t5", "t6", "t8", "t9"]);
    expect([...rows].map(([n, r]) => `${n}:${r.value.title}`).sort()).toEqual(["4:t4 again", "5:t5", "6:t6", "8:t8", "9:t9"]);
    expect(copy.size).toBe(4); // a copy does not see later changes
    expect(copy.ordered().map((t) => t.number)).toEqual([4, 6, 8, 9]);
  });
});

describe("a page of the table", () => {
  const summary = (number: number, title = `t${number}`): TaskSummary => ({ number, title, role: "engineer", priority: "LOW", status: "TODO", dependencies: [], epic: null, claimedBy: null, mission: null, completedBy: null, createdAt: "a", updatedAt: "b", formerNumbers: [] });
  const rowsOf = () => new TableRows(decode(encodeTaskTable([2, 4, 6, 8, 10].map((n) => ({ summary: summary(n), oid: "f".repeat(40) })), meta))!);
  const titles = (xs: TaskSummary[] | null) => xs?.map((t) => t.title) ?? null;

  it("reads only the positions asked for, with rewritten rows and new ones past the end", () => {
    const rows = rowsOf();
    expect(titles(rows.range(1, 2))).toEqual(["t4", "t6"]);
    rows.set(6, { oid: "a".repeat(40), value: summary(6, "t6 again") });
    rows.set(12, { oid: "b".repeat(40), value: summary(12) });
    rows.set(11, { oid: "c".repeat(40), value: summary(11) });
    expect(titles(rows.range(2, 10))).toEqual(["t6 again", "t8", "t10", "t11", "t12"]);
    expect(titles(rows.range(6, 3))).toEqual(["t12"]);
    expect(titles(rows.range(9, 3))).toEqual([]);
    expect(titles(rows.range(0, 7))).toEqual(titles(rows.ordered()));
  });

  it("gives every status from the status column with the changes applied", () => {
    const rows = rowsOf();
    rows.set(4, { oid: "a".repeat(40), value: { ...summary(4), status: "COMPLETE" } });
    rows.delete(8);
    rows.set(11, { oid: "b".repeat(40), value: { ...summary(11), status: "REVIEW" } });
    expect(rows.statuses()).toEqual(rows.ordered().map((t) => t.status));
    expect(rows.statuses()).toEqual(["TODO", "COMPLETE", "TODO", "TODO", "REVIEW"]);
    const map = new RowsTaskMap(rows, () => rows.ordered());
    expect(map.statuses()).toEqual(rows.statuses());
    map.set(3, summary(3));
    expect(map.statuses()).toBeNull();
  });

  it("gives one role's rows from the role column, with the changes applied, in number order", () => {
    const rows = rowsOf(); // all engineers
    rows.set(4, { oid: "a".repeat(40), value: { ...summary(4), role: "tester" } });
    rows.set(3, { oid: "b".repeat(40), value: { ...summary(3), role: "tester" } });
    rows.set(12, { oid: "c".repeat(40), value: summary(12) });
    rows.delete(8);
    expect(rows.withRole("engineer").map((t) => t.number)).toEqual([2, 6, 10, 12]);
    expect(rows.withRole("tester").map((t) => t.number)).toEqual([3, 4]);
    expect(rows.withRole("operator")).toEqual([]);
    expect(rows.withRole("engineer").map((t) => t.number)).toEqual(rows.ordered().filter((t) => t.role === "engineer").map((t) => t.number));
  });

  it("declines (null) when a row was removed or one slotted in before the end, and the map then pages from values()", () => {
    const removed = rowsOf();
    removed.delete(4);
    expect(removed.range(0, 2)).toBeNull();
    const slotted = rowsOf();
    slotted.set(5, { oid: "a".repeat(40), value: summary(5) });
    expect(slotted.range(0, 2)).toBeNull();
    const map = new RowsTaskMap(slotted, () => slotted.ordered());
    expect(map.range(0, 2)).toBeNull();
    expect(map.get(5)!.title).toBe("t5");
    expect(map.size).toBe(6);
    expect([...map.values()].map((t) => t.number)).toEqual([2, 4, 5, 6, 8, 10]);
    const plain = new RowsTaskMap(rowsOf(), () => []);
    expect(titles(plain.range(0, 2))).toEqual(["t2", "t4"]);
    plain.set(3, summary(3));
    expect(plain.range(0, 2)).toBeNull(); // a task set on top: values() decides
  });
});

describe("BlockFile", () => {
  it("reads any range across 64 KB blocks, in any order, and reports a removed file as a retryable error", () => {
    const dir = mkdtempSync(join(tmpdir(), "pantheon-blocks-"));
    const data = Buffer.alloc(300_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251;
    writeFileSync(join(dir, "f"), data);
    const f = new BlockFile(join(dir, "f"), data.length);
    for (const [pos, len] of [[299_990, 10], [65_530, 20], [0, 4], [131_000, 70_000], [5, 299_995]]) {
      expect(f.bytes(pos!, len!).equals(data.subarray(pos!, pos! + len!))).toBe(true);
    }
    expect(f.u32(65_534)).toBe(data.readUInt32LE(65_534));
    expect(() => f.bytes(299_999, 2)).toThrow(RangeError);
    const gone = new BlockFile(join(dir, "missing"), 10);
    expect(() => gone.bytes(0, 1)).toThrow(/removed while this command read it/);
  });
});
