import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  appendJournal,
  applyJournal,
  journalFile,
  readJournal,
  type JournalEntry,
} from "../../../src/store/cache/cache-journal.js";
import { cacheDir } from "../../../src/store/cache/cache-files.js";
import type { KindState } from "../../../src/store/cache/summary-cache.js";

const C = (i: number) => String(i).padStart(40, "c");
const state = (commit: string): KindState<{ title: string }> => ({
  commit,
  shards: new Map([["01", "a".repeat(40)]]),
  rows: new Map([[1, { oid: "1".repeat(40), value: { title: "one" } }]]),
  bad: new Map([["tasks/02/2.json", ["2".repeat(40), "tasks/02/2.json: not valid JSON"]]]),
  unverified: { shards: new Set(), rows: new Set() },
  stray: [],
  reread: 0,
});
const entry = (
  p: number,
  c: number,
  r: JournalEntry["r"]["tasks"],
  s: Record<string, string | null> = {},
): JournalEntry => ({ p: C(p), c: C(c), s: { tasks: s }, r: { tasks: r } });

describe("applyJournal", () => {
  it("follows the lines from the cached commit to the tip: rows written and removed, shards moved, a rewritten bad record forgotten", () => {
    const s = state(C(1));
    const j = new Map([
      [C(1), entry(1, 2, [[3, "3".repeat(40), { title: "three" }]], { "03": "b".repeat(40) })],
      [
        C(2),
        entry(
          2,
          3,
          [
            [1, null],
            [2, "4".repeat(40), { title: "two, repaired" }],
          ],
          { "01": null, "02": "d".repeat(40) },
        ),
      ],
    ]);
    expect(applyJournal(s, "tasks", j, C(3))).toBe(2);
    expect(s.commit).toBe(C(3));
    expect([...s.rows].map(([n]) => n)).toEqual([3, 2]);
    expect(s.rows.get(2)!.value.title).toBe("two, repaired");
    expect(Object.fromEntries(s.shards)).toEqual({ "03": "b".repeat(40), "02": "d".repeat(40) });
    expect(s.bad.size).toBe(0);
  });

  it("applies nothing when the lines do not lead to the tip, when the state has stray entries, or on a cycle", () => {
    const j = new Map([[C(1), entry(1, 2, [[3, "3".repeat(40), { title: "three" }]])]]);
    const s = state(C(1));
    expect(applyJournal(s, "tasks", j, C(9))).toBeNull();
    expect(s.commit).toBe(C(1));
    expect(s.rows.size).toBe(1);
    const strayed = { ...state(C(1)), stray: ["tasks/notes.txt"] };
    expect(applyJournal(strayed, "tasks", j, C(2))).toBeNull();
    const cycle = new Map([
      [C(1), entry(1, 2, [])],
      [C(2), entry(2, 1, [])],
    ]);
    expect(applyJournal(state(C(1)), "tasks", cycle, C(9))).toBeNull();
  });

  it("leaves kinds a line did not touch as they were, yet at the new commit", () => {
    const s = state(C(1));
    expect(
      applyJournal(s, "missions", new Map([[C(1), entry(1, 2, [[3, "3".repeat(40), { title: "x" }]])]]), C(2)),
    ).toBe(1);
    expect(s.commit).toBe(C(2));
    expect(s.rows.size).toBe(1);
  });
});

describe("the journal file", () => {
  it("is appended to, skips a torn line, lets the latest line for a parent win, and is dropped past its size limit", () => {
    const common = mkdtempSync(join(tmpdir(), "pantheon-journal-"));
    appendJournal(common, entry(1, 2, []));
    expect(existsSync(journalFile(common))).toBe(false); // no cache directory: nothing to keep up to date
    mkdirSync(cacheDir(common), { recursive: true });
    appendJournal(common, entry(1, 2, []));
    writeFileSync(journalFile(common), '{"p":"torn', { flag: "a" });
    writeFileSync(journalFile(common), "\n", { flag: "a" });
    appendJournal(common, entry(1, 5, []));
    appendJournal(common, entry(5, 6, []));
    writeFileSync(journalFile(common), `${JSON.stringify(entry(6, 8, [])).slice(0, -9)}\n`, { flag: "a" }); // torn mid-line
    appendJournal(common, {
      ...entry(7, 9, []),
      l: {
        t: 1_700_000_000,
        parents: [C(7)],
        author: "Athena",
        date: "2023-11-14T22:13:20.000Z",
        summary: "task ENG-M-0001 create",
        trailers: { "Pantheon-Op": ["task.create"] },
      },
    });
    appendJournal(common, {
      ...entry(9, 10, []),
      l: { t: 1, parents: [C(9)], author: "x", date: "d", summary: "s", trailers: null as never },
    });
    const j = readJournal(common);
    expect(j.size).toBe(5);
    expect(j.logged(C(10))).toBeUndefined(); // a malformed log entry: the commit is read from git instead
    expect(j.get(C(1))!.c).toBe(C(5));
    expect(j.get(C(6))).toBeUndefined(); // a torn line breaks the chain there
    expect(j.logged(C(9))).toEqual({
      time: 1_700_000_000,
      entry: {
        oid: C(9),
        parents: [C(7)],
        author: "Athena",
        date: "2023-11-14T22:13:20.000Z",
        summary: "task ENG-M-0001 create",
        trailers: { "Pantheon-Op": ["task.create"] },
      },
    });
    expect(j.logged(C(5))).toBeUndefined(); // a line without the commit's log entry (an older version's)
    writeFileSync(journalFile(common), "x".repeat(600 * 1024));
    appendJournal(common, entry(6, 7, []));
    expect(existsSync(journalFile(common))).toBe(false);
    expect(readJournal(common).size).toBe(0);
  });
});
