import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { criterionTextProblem } from "../../../src/domain/acceptance.js";
import type { TaskSummary } from "../../../src/domain/schemas/task.js";
import { toTaskSummary } from "../../../src/domain/task-summary.js";
import {
  columnsOf,
  listColumns,
  NO_TASK,
  STATUS_CODE,
  statusByNumber,
  type TaskColumns,
} from "../../../src/domain/task-columns.js";
import { aTaskSummary } from "../../helpers/builders.js";
import { statusCodeOf } from "../../helpers/status-code.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlockFile } from "../../../src/store/cache/block-file.js";
import { decodeTaskTable, encodeTaskTable, type EncodedTable } from "../../../src/store/cache/task-table.js";
import { RowsTaskMap, TableRows } from "../../../src/store/cache/table-rows.js";

const meta = {
  commit: "c".repeat(40),
  shards: { "01": "a".repeat(40) },
  bad: { "tasks/02/2.json": ["b".repeat(40), "not valid JSON"] as [string, string] },
  stray: ["tasks/x"],
};

const summary = fc.record({
  // A title a record can hold (not blank): the builder checks every row with the task schema.
  title: fc.string({ minLength: 1, maxLength: 60, unit: "grapheme" }).filter((t) => t.trim().length > 0),
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
  labels: fc
    .uniqueArray(fc.constantFrom("api", "auth", "db", "ui", "v2", "perf-9"), { maxLength: 4 })
    .map((l) => l.sort()),
  acceptance: fc.array(
    fc.record({
      id: fc.stringMatching(/^[a-f0-9]{12}$/),
      // Only what a record may hold (domain/acceptance.ts): one line of plain text, not blank.
      text: fc
        .string({ minLength: 1, maxLength: 40, unit: "grapheme" })
        .filter((t) => criterionTextProblem(t) === null),
      done: fc.boolean(),
      by: fc.constantFrom("Hephaestus", "Ünïcode 名前"),
      at: fc.constant("2026-11-22T06:29:01.123Z"),
    }),
    { maxLength: 3 },
  ),
});

/** Decodes an encoded table with its side files on disk, as the cache reads them. */
function decode(enc: EncodedTable, columns: Buffer = enc.columns) {
  const dir = mkdtempSync(join(tmpdir(), "pantheon-table-"));
  writeFileSync(join(dir, "text"), enc.text);
  writeFileSync(join(dir, "oids"), enc.oids);
  return decodeTaskTable(columns, (h) => ({
    text: new BlockFile(join(dir, "text"), h.textBytes),
    oids: new BlockFile(join(dir, "oids"), h.oidBytes),
  }));
}

describe("the tasks' binary cache table", () => {
  it("gives back every summary, blob id and piece of bookkeeping it was given", () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 40 }), (xs) => {
        const rows = xs.map((x, i) => ({
          summary: aTaskSummary({ number: i * 3 + 1, ...x }),
          oid: (i % 16).toString(16).repeat(40),
        }));
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
      const rows = Array.from({ length: 400 }, (_, i) => ({
        summary: aTaskSummary({
          number: i + 1,
          title: `${word} ${i}`,
          priority: "LOW",
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          updatedAt: new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString(),
        }),
        oid: "f".repeat(40),
      }));
      const t = decode(encodeTaskTable(rows, meta))!;
      for (let round = 0; round < 2; round++)
        rows.forEach((r, i) => {
          expect([t.row(i).title, t.row(i).createdAt, t.row(i).updatedAt]).toEqual([
            r.summary.title,
            r.summary.createdAt,
            r.summary.updatedAt,
          ]);
        });
    }
  });

  it("reads a table from an unaligned buffer, and refuses what is not one", () => {
    const file = encodeTaskTable(
      [
        {
          summary: aTaskSummary({ number: 7, title: "t", priority: "LOW", dependencies: [3], labels: ["api"] }),
          oid: "f".repeat(40),
        },
      ],
      meta,
    );
    const unaligned = Buffer.concat([Buffer.alloc(3), file.columns]).subarray(3);
    expect(decode(file, unaligned)!.row(0).dependencies).toEqual([3]);
    expect(decode(file, unaligned)!.row(0).labels).toEqual(["api"]);
    expect(decode(file, Buffer.from("PTT3" + file.columns.toString("latin1").slice(4), "latin1"))).toBeNull();
    expect(decode(file, file.columns.subarray(0, file.columns.length - 8))).toBeNull();
    expect(decode(file, Buffer.from("{}"))).toBeNull();
  });

  it("will not store a value its columns cannot hold", () => {
    // A valid summary, then one value each that no schema-checked record holds.
    const base = aTaskSummary({ number: 1, title: "t", priority: "LOW" });
    expect(() =>
      encodeTaskTable([{ summary: { ...base, dependencies: [2 ** 33] }, oid: "f".repeat(40) }], meta),
    ).toThrow(/out of range/);
    expect(() =>
      encodeTaskTable([{ summary: { ...base, status: "LATER" as never }, oid: "f".repeat(40) }], meta),
    ).toThrow(/unknown value/);
  });
});

describe("TableRows: a table with the journal's changes on top", () => {
  const summary = (number: number, title: string): TaskSummary => aTaskSummary({ number, title, priority: "LOW" });
  const table = () =>
    decode(
      encodeTaskTable(
        [2, 4, 6, 8].map((n) => ({ summary: summary(n, `t${n}`), oid: String(n).repeat(40) })),
        meta,
      ),
    )!;

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
    expect([...rows].map(([n, r]) => `${n}:${r.value.title}`).sort()).toEqual([
      "4:t4 again",
      "5:t5",
      "6:t6",
      "8:t8",
      "9:t9",
    ]);
    expect(copy.size).toBe(4); // a copy does not see later changes
    expect(copy.ordered().map((t) => t.number)).toEqual([4, 6, 8, 9]);
  });
});

describe("the table's columns", () => {
  const plain = (number: number, title = `t${number}`): TaskSummary => aTaskSummary({ number, title, priority: "LOW" });
  const rowsOf = () =>
    new TableRows(
      decode(
        encodeTaskTable(
          [2, 4, 6, 8, 10].map((n) => ({ summary: plain(n), oid: "f".repeat(40) })),
          meta,
        ),
      )!,
    );
  const FIELDS = ["number", "status", "role", "priority", "epic", "mission"] as const;
  /** Every field at every position (names and lists decoded), and the status of every number asked for. */
  const readAll = (cols: TaskColumns, asked: number[]) => {
    const statusOf = statusByNumber(cols);
    return {
      fields: Array.from({ length: cols.count }, (_, i) => FIELDS.map((f) => cols[f][i])),
      claimants: Array.from({ length: cols.count }, (_, i) =>
        cols.claimedBy[i] === 0 ? null : cols.names[cols.claimedBy[i]! - 1],
      ),
      dependencies: Array.from({ length: cols.count }, (_, i) =>
        Array.from(
          { length: cols.depStart[i + 1]! - cols.depStart[i]! },
          (_, k) => cols.depValues[cols.depStart[i]! + k],
        ),
      ),
      labels: Array.from({ length: cols.count }, (_, i) =>
        Array.from(
          { length: cols.labelStart[i + 1]! - cols.labelStart[i]! },
          (_, k) => cols.labelNames[cols.labelValues[cols.labelStart[i]! + k]!],
        ),
      ),
      tasks: Array.from({ length: cols.count }, (_, i) => toTaskSummary(cols.task(i))),
      statuses: asked.map((n) => statusCodeOf(statusOf, n)),
      created: cols.created ? Array.from(cols.created) : null,
    };
  };

  it("answers like the ordered rows, with rewritten rows and new ones past the end", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 40 }),
        fc.array(summary, { minLength: 80, maxLength: 80 }),
        fc.array(fc.nat(79), { maxLength: 12 }),
        fc.nat(5),
        (numbers, values, rewritten, appended) => {
          numbers.sort((a, b) => a - b);
          const at = (n: number, k: number) => ({ ...values[k % values.length]!, number: n });
          const rows = new TableRows(
            decode(
              encodeTaskTable(
                numbers.map((n, k) => ({ summary: at(n, k), oid: "f".repeat(40) })),
                meta,
              ),
            )!,
          );
          for (const k of rewritten)
            rows.set(numbers[k % numbers.length]!, {
              oid: "a".repeat(40),
              value: at(numbers[k % numbers.length]!, k + 1),
            });
          for (let k = 1; k <= appended; k++) rows.set(300 + k, { oid: "b".repeat(40), value: at(300 + k, k + 7) });
          const cols = rows.columns()!;
          const ordered = rows.ordered();
          const asked = [0, ...numbers, 301, 305, 999];
          expect(readAll(cols, asked)).toEqual(readAll(listColumns(ordered), asked));
          expect(cols.count).toBe(ordered.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("declines (null) when a row was removed or one slotted in before the end, and columnsOf then reads the map's values", () => {
    const removed = rowsOf();
    removed.delete(4);
    expect(removed.columns()).toBeNull();
    const slotted = rowsOf();
    slotted.set(5, { oid: "a".repeat(40), value: plain(5) });
    expect(slotted.columns()).toBeNull();
    const map = new RowsTaskMap(slotted, () => slotted.ordered());
    expect(map.columns()).toBeNull();
    const cols = columnsOf(map);
    expect(Array.from(cols.number)).toEqual([2, 4, 5, 6, 8, 10]);
    expect(statusCodeOf(statusByNumber(cols), 5)).toBe(STATUS_CODE.TODO);
    expect(statusCodeOf(statusByNumber(cols), 3)).toBe(NO_TASK);
    const added = rowsOf();
    added.set(11, { oid: "a".repeat(40), value: plain(11) });
    added.delete(11); // added, then removed again: the table itself is whole
    expect(added.columns()!.count).toBe(5);
  });

  it("leaves a task set on top of the map to columnsOf's reading of values()", () => {
    const map = new RowsTaskMap(rowsOf(), () => rowsOf().ordered());
    expect(map.columns()).not.toBeNull();
    map.set(3, plain(3, "set on top"));
    expect(map.columns()).toBeNull();
    const cols = columnsOf(map);
    expect(cols.task(1).title).toBe("set on top");
    expect(cols.count).toBe(6);
  });
});

describe("BlockFile", () => {
  it("reads any range across 64 KB blocks, in any order, and reports a removed file as a retryable error", () => {
    const dir = mkdtempSync(join(tmpdir(), "pantheon-blocks-"));
    const data = Buffer.alloc(300_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251;
    writeFileSync(join(dir, "f"), data);
    const f = new BlockFile(join(dir, "f"), data.length);
    for (const [pos, len] of [
      [299_990, 10],
      [65_530, 20],
      [0, 4],
      [131_000, 70_000],
      [5, 299_995],
    ]) {
      expect(f.bytes(pos!, len!).equals(data.subarray(pos!, pos! + len!))).toBe(true);
    }
    expect(f.u32(65_534)).toBe(data.readUInt32LE(65_534));
    expect(() => f.bytes(299_999, 2)).toThrow(RangeError);
    const gone = new BlockFile(join(dir, "missing"), 10);
    expect(() => gone.bytes(0, 1)).toThrow(/removed while this command read it/);
  });
});
