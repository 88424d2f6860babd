import { expect } from "vitest";
import { factsOfEvents, type HistoryFacts } from "../../src/domain/history-charts.js";
import { GitStore } from "../../src/store/git-store.js";
import { discoverRepo } from "../../src/store/repo/repo.js";
import { recordKey } from "../../src/store/state/layout.js";
import { trailerKeys } from "../../src/store/state/records-trailer.js";
import type { CommitEntry, RecordKind } from "../../src/store/store.js";
import { testEnv } from "./env.js";
import { git } from "./repo.js";

/**
 * The answers of the history index (store/cache/history-index.ts) worked out the slow way, as
 * they were before it: the full log walk over every commit (GitStore.log without a record, which
 * never touches the index), each commit's records from its trailer, a merge's from
 * `git diff-tree` against its first parent, and the charts' facts folded from those events.
 */

export const REF = "refs/coordination/main";

/** A store as a new process opens it (the index's in-process memo forgotten). */
export function freshStore(dir: string): GitStore {
  const store = new GitStore(discoverRepo(dir), { env: testEnv(), now: () => new Date(), warn: () => undefined });
  store.history.drop();
  return store;
}

export interface History {
  /** Every commit, newest first, as the walk lists them. */
  order: CommitEntry[];
  /** The records each commit touched. */
  keys: Map<string, string[]>;
  facts: HistoryFacts;
}

export async function walkedHistory(dir: string): Promise<History> {
  const order = await freshStore(dir).log({});
  const keys = new Map<string, string[]>();
  for (const c of order)
    keys.set(
      c.oid,
      c.parents.length > 1
        ? [
            ...new Set(
              git(dir, "diff-tree", "-r", "--no-renames", "--name-only", c.oid, c.parents[0]!)
                .split("\n")
                .filter(Boolean)
                .map(recordKey),
            ),
          ]
        : trailerKeys(c.trailers["Pantheon-Records"] ?? []),
    );
  const events = order
    .slice()
    .reverse()
    .map((c) => ({
      at: c.date,
      op: c.trailers["Pantheon-Op"]?.[0] ?? "",
      tasks: keys
        .get(c.oid)!
        .filter((k) => /^tasks\/[1-9]\d*$/.test(k))
        .map((k) => Number(k.slice(6))),
    }));
  return { order, keys, facts: factsOfEvents(events) };
}

/**
 * Asserts that what the index answers (asked through a store as a new process opens it) is
 * what the walk answers: the walk's order is git's, every record's commits, each record's
 * version before and after each of them, the charts' facts.
 */
export async function expectIndexAnswers(dir: string, o: { gitOrder?: boolean } = {}): Promise<void> {
  const ref = await walkedHistory(dir);
  // (git's own order stops at a shallow graft; the walk reads the parents that are there.)
  if (o.gitOrder !== false) expect(ref.order.map((c) => c.oid)).toEqual(git(dir, "rev-list", REF).trim().split("\n"));
  const store = freshStore(dir);
  const plain = freshStore(dir); // never asked for a record's commits: it reads versions through the trees
  const keys = new Set([...ref.keys.values()].flat());
  for (const key of [...keys, "tasks/999"]) {
    const got = await store.log({ record: key });
    expect(
      got.map((c) => c.oid),
      key,
    ).toEqual(ref.order.filter((c) => ref.keys.get(c.oid)!.includes(key)).map((c) => c.oid));
    const m = /^(tasks|epics|missions|reviews)\/(\d+)$/.exec(key);
    if (!m) continue;
    const [kind, n] = [m[1] as RecordKind, Number(m[2])];
    for (const c of got)
      for (const at of [c.oid, ...c.parents.slice(0, 1)])
        expect(await (await store.snapshotAt(at)).get(kind, n), `${key} at ${at}`).toEqual(
          await (await plain.snapshotAt(at)).get(kind, n),
        );
  }
  const facts = await store.historyFacts();
  const cycles = new Map<number, number[]>();
  facts.eachCycles((n, hours, from, to) => cycles.set(n, Array.from(hours).slice(from, to)));
  for (const key of keys)
    if (/^tasks\/\d+$/.test(key)) {
      const n = Number(key.slice(6));
      expect(cycles.get(n) ?? [], `cycles of ${key}`).toEqual(ref.facts.task(n)?.cycles ?? []);
    }
  expect(new Map([...facts.closedPerDay].sort())).toEqual(new Map([...ref.facts.closedPerDay].sort()));
  for (const key of keys) {
    if (!/^tasks\/\d+$/.test(key)) continue;
    const n = Number(key.slice(6));
    const want = ref.facts.task(n);
    const empty = !want || (want.closedAt === null && want.cycles.length === 0);
    if (empty) expect(facts.task(n)?.closedAt ?? null, key).toBeNull();
    else {
      const got = facts.task(n);
      expect(got && { closedAt: got.closedAt, cycles: Array.from(got.cycles) }, key).toEqual(want);
    }
  }
}
