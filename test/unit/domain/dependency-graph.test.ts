import { describe, expect, it } from "vitest";
import { describePath, findPath, transitiveDependencies } from "../../../src/domain/dependency-graph.js";
import { checkRecords } from "../../../src/domain/state-checks.js";
import { aTask } from "../../helpers/builders.js";

const AT = "2026-01-02T00:00:00.000Z";

/** Task n depends on n-1, down to 1: the deepest shape a graph walk can meet. */
const chain = (n: number) => (k: number) => (k >= 1 && k <= n ? (k > 1 ? [k - 1] : []) : undefined);

describe("dependency walks never recurse (issue 12 point 10)", () => {
  it("transitiveDependencies of a 100,000-deep chain is every task, deepest first", () => {
    const order = transitiveDependencies(100_000, chain(100_000));
    expect(order).toHaveLength(99_999);
    expect(order.slice(0, 3)).toEqual([1, 2, 3]);
    expect(order.at(-1)).toBe(99_999);
  });

  it("keeps the workable order and the listing order of ties; a cycle stops the walk", () => {
    const deps: Record<number, number[]> = { 1: [2, 3], 2: [4], 3: [4], 4: [], 5: [6], 6: [5] };
    expect(transitiveDependencies(1, (n) => deps[n])).toEqual([4, 2, 3]);
    expect(transitiveDependencies(5, (n) => deps[n])).toEqual([6]);
  });

  it("findPath crosses a 100,000-deep chain", () => {
    const path = findPath(100_000, 1, chain(100_000));
    expect(path).toHaveLength(100_000);
    expect([path![0], path!.at(-1)]).toEqual([100_000, 1]);
    expect(findPath(1, 100_000, chain(100_000))).toBeNull();
  });
});

describe("describePath", () => {
  it("shows a short path whole", () => {
    expect(describePath(["A", "B", "A"])).toBe("A → B → A");
  });

  it("shows a long one as its first and last five ids around the count of the others", () => {
    const ids = Array.from({ length: 20_001 }, (_, i) => `T${i}`);
    const text = describePath(ids);
    expect(text).toBe("T0 → T1 → T2 → T3 → T4 → … (19,991 more) … → T19996 → T19997 → T19998 → T19999 → T20000");
  });
});

describe("doctor's cycle warning", () => {
  it("a 20,000-task cycle (possible only in hand-edited or merged state) is one bounded line with its size", () => {
    const n = 20_000;
    const tasks = Array.from({ length: n }, (_, i) =>
      aTask({ number: i + 1, uid: `uid-${i + 1}-xxxx`, dependencies: [i === 0 ? n : i] }),
    );
    const cycles = checkRecords({ tasks, epics: [], missions: [], reviews: [], counters: null }, new Date(AT)).filter(
      (f) => f.code === "W_CYCLE",
    );
    expect(cycles).toHaveLength(1);
    expect(cycles[0]!.message).toMatch(
      /^dependency cycle of 20,000 tasks: ENG-H-0001 → ENG-H-20000 → .* … \(19,991 more\) … .* → ENG-H-0001$/,
    );
    expect(cycles[0]!.message.length).toBeLessThan(200);
  });
});
