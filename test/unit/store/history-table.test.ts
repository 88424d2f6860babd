import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { factsOfEvents } from "../../../src/domain/history-charts.js";
import { emptyHistory } from "../../../src/store/cache/history-arrays.js";
import { loadHistory } from "../../../src/store/cache/history-reader.js";
import type { IndexedCommit } from "../../../src/store/cache/history-rows.js";
import { HistoryTable } from "../../../src/store/cache/history-table.js";
import { saveHistory } from "../../../src/store/cache/history-writer.js";

/**
 * The history index's table against the log walk it stands in for (state/commit-log.ts's
 * order: newest committer time first among the commits seen, ties to the first seen), over
 * random histories with merges, equal times and clocks that run backwards: built at one commit,
 * saved and read back, then brought to another (a descendant, an ancestor, a sibling).
 */

const oid = (i: number) => i.toString(16).padStart(40, "0");
const OPS = ["task.claim", "task.complete", "task.abort", "review.approve", "task.note", "task.create"];

function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A history of `n` commits: mostly runs, branches that merge back, times with ties and skew. */
function history(seed: number, n: number): IndexedCommit[] {
  const r = random(seed);
  const out: IndexedCommit[] = [];
  const heads: number[] = [];
  for (let i = 0; i < n; i++) {
    let parents: number[] = [];
    if (i > 0) {
      const pick = () => (heads.length > 0 && r() < 0.7 ? heads[Math.floor(r() * heads.length)]! : Math.floor(r() * i));
      parents = [pick()];
      if (r() < 0.2) {
        const other = pick();
        if (other !== parents[0]) parents.push(other);
      }
    }
    for (const p of parents) heads.splice(heads.indexOf(p) >>> 0, heads.includes(p) ? 1 : 0);
    heads.push(i);
    const base = parents.length === 0 ? 1_000_000 : Math.max(...parents.map((p) => out[p]!.ctime));
    // Ties (same second), steps forward, and now and then a clock behind its parent's.
    const ctime = base + (r() < 0.3 ? 0 : r() < 0.1 ? -Math.floor(r() * 50) : Math.floor(r() * 100_000));
    const keys = [...new Set(Array.from({ length: Math.floor(r() * 3) }, () => `tasks/${1 + Math.floor(r() * 6)}`))];
    if (r() < 0.3) keys.push("counters");
    if (r() < 0.1) keys.push("epics/2");
    // Blob ids before and after, for some keys (a journal line or a diff says them; others are unknown).
    const blob = () =>
      Math.floor(r() * 2 ** 32)
        .toString(16)
        .padStart(40, "b");
    const blobs = new Map(
      keys
        .filter(() => r() < 0.7)
        .map(
          (k) =>
            [k, [r() < 0.2 ? null : blob(), r() < 0.1 ? null : blob()]] as [string, [string | null, string | null]],
        ),
    );
    out.push({
      oid: oid(i + 1),
      parents: parents.map((p) => oid(p + 1)),
      ctime,
      atime: ctime - Math.floor(r() * 3600),
      op: OPS[Math.floor(r() * OPS.length)]!,
      keys,
      ...(blobs.size > 0 && { blobs }),
    });
  }
  return out;
}

/** The log walk over the commits, newest first (what GitStore.log and `git log` list). */
function walk(all: ReadonlyMap<string, IndexedCommit>, tip: string): IndexedCommit[] {
  const out: IndexedCommit[] = [];
  const seen = new Set([tip]);
  const queue = [all.get(tip)!];
  while (queue.length > 0) {
    queue.sort((a, b) => b.ctime - a.ctime);
    const next = queue.shift()!;
    out.push(next);
    for (const p of next.parents) {
      if (seen.has(p) || !all.has(p)) continue;
      seen.add(p);
      queue.push(all.get(p)!);
    }
  }
  return out;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Through the file and back, as the next command would find it. */
function reload(table: HistoryTable): HistoryTable {
  const dir = mkdtempSync(join(tmpdir(), "pantheon-history-"));
  dirs.push(dir);
  saveHistory(dir, table.arrays());
  const loaded = loadHistory(dir);
  expect(loaded).not.toBeNull();
  return new HistoryTable(loaded!);
}

function expectAnswers(table: HistoryTable, all: ReadonlyMap<string, IndexedCommit>, tip: string): void {
  const order = walk(all, tip);
  expect(table.tip).toBe(tip);
  expect(Array.from({ length: table.count }, (_, i) => table.oid(table.count - 1 - i))).toEqual(
    order.map((c) => c.oid),
  );
  const keys = new Set(order.flatMap((c) => c.keys));
  for (const key of [...keys, "tasks/99"])
    expect(
      table.touches(key).map(([r, v]) => [table.oid(r), v]),
      key,
    ).toEqual(
      order
        .filter((c) => c.keys.includes(key))
        .map((c) => [c.oid, c.blobs?.get(key)])
        .reverse(),
    );
  const events = order
    .slice()
    .reverse()
    .map((c) => ({
      at: new Date(c.atime * 1000).toISOString(),
      op: c.op,
      tasks: c.keys.filter((k) => k.startsWith("tasks/")).map((k) => Number(k.slice(6))),
    }));
  const want = factsOfEvents(events);
  const got = table.facts();
  expect(new Map([...got.closedPerDay].sort())).toEqual(new Map([...want.closedPerDay].sort()));
  for (let n = 1; n <= 7; n++) {
    const w = want.task(n);
    const g = got.task(n);
    // A number with no close and no cycle has no facts: the file keeps none for it.
    if (!w || (w.closedAt === null && w.cycles.length === 0)) expect(g?.closedAt ?? null).toBeNull();
    else expect(g && { closedAt: g.closedAt, cycles: Array.from(g.cycles) }, `tasks/${n}`).toEqual(w);
  }
  const each = new Map<number, number[]>();
  got.eachCycles((n, hours, from, to) => {
    expect(each.has(n) || [...each.keys()].some((m) => m > n), "ascending, once each").toBe(false);
    each.set(n, Array.from(hours).slice(from, to));
  });
  for (let n = 1; n <= 7; n++) expect(each.get(n) ?? [], `cycles of tasks/${n}`).toEqual(want.task(n)?.cycles ?? []);
  expect(table.bad).toBe(false);
}

/** The commits of `tip`'s history that `from`'s lacks, shuffled (git lists them in no set order). */
function lacking(all: ReadonlyMap<string, IndexedCommit>, from: string | null, tip: string, seed: number) {
  const have = new Set(from ? walk(all, from).map((c) => c.oid) : []);
  const r = random(seed);
  return walk(all, tip)
    .filter((c) => !have.has(c.oid))
    .map((c) => [r(), c] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, c]) => c);
}

describe("HistoryTable", () => {
  it("lists every commit, every record's commits and the charts' facts in the log walk's order, built at once", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const commits = history(seed, 60);
      const all = new Map(commits.map((c) => [c.oid, c]));
      const tip = commits.at(-1)!.oid;
      const table = new HistoryTable(emptyHistory());
      expect(table.extend(tip, lacking(all, null, tip, seed))).toBe(true);
      expectAnswers(table, all, tip);
      expectAnswers(reload(table), all, tip);
    }
  });

  it("brought from one commit to another (a descendant, a merge of a side branch, an ancestor, a sibling) answers as if built there", () => {
    for (let seed = 100; seed < 160; seed++) {
      const commits = history(seed, 50);
      const all = new Map(commits.map((c) => [c.oid, c]));
      const r = random(seed);
      const from = commits[10 + Math.floor(r() * 30)]!.oid;
      const to = commits[Math.floor(r() * 50)]!.oid;
      let table = new HistoryTable(emptyHistory());
      table.extend(from, lacking(all, null, from, seed));
      if (r() < 0.5) table = reload(table);
      expect(table.extend(to, lacking(all, from, to, seed + 1)), `${seed}: ${from} → ${to}`).toBe(true);
      expectAnswers(table, all, to);
      expectAnswers(reload(table), all, to);
    }
  });

  it("a run of new commits on the indexed tip is appended; several runs in a row answer as one build", () => {
    for (let seed = 200; seed < 220; seed++) {
      const commits = history(seed, 40).map((c, i, xs) => ({ ...c, parents: i === 0 ? [] : [xs[i - 1]!.oid] }));
      const all = new Map(commits.map((c) => [c.oid, c]));
      let table = new HistoryTable(emptyHistory());
      table.extend(commits[9]!.oid, commits.slice(0, 10));
      table = reload(table);
      for (let at = 10; at < 40; at += 7) {
        const end = Math.min(40, at + 7);
        table.extend(commits[end - 1]!.oid, commits.slice(at, end).reverse());
        expectAnswers(table, all, commits[end - 1]!.oid);
      }
      expect(table.unsaved).toBeGreaterThan(0);
      expectAnswers(reload(table), all, commits[39]!.oid);
    }
  });

  it("refuses a tip it is given no commit for, and changes nothing", () => {
    const commits = history(7, 20);
    const all = new Map(commits.map((c) => [c.oid, c]));
    const table = new HistoryTable(emptyHistory());
    table.extend(commits[19]!.oid, lacking(all, null, commits[19]!.oid, 7));
    expect(table.extend(oid(999), [])).toBe(false);
    expectAnswers(table, all, commits[19]!.oid);
  });
});
