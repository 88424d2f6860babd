import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockedFlags, blockingState, type TaskLookup } from "../../../src/domain/blocking.js";
import { listColumns } from "../../../src/domain/task-columns.js";
import { aTask } from "../../helpers/builders.js";
import { TASK_STATUSES } from "../../../src/domain/task-status.js";

/** blockingState's verdict: the one-task reading of the rule that views show. */
const isBlocked = (task: { dependencies: number[] }, lookup: TaskLookup) =>
  blockingState(task, lookup).blockedBy.length > 0;

describe("blockedFlags of one task", () => {
  it("agrees with blockingState for any dependencies, statuses and missing tasks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 5 }),
        fc.array(fc.option(fc.constantFrom(...TASK_STATUSES)), { minLength: 8, maxLength: 8 }),
        (dependencies, statuses) => {
          const lookup = (n: number) => (statuses[n - 1] ? { number: n, status: statuses[n - 1]! } : undefined);
          // Tasks 1…8 with the given statuses (a missing one is absent), and task 9 depending as given.
          const others = statuses.flatMap((status, k) => (status ? [aTask({ number: k + 1, status })] : []));
          const flags = blockedFlags(listColumns([...others, aTask({ number: 9, dependencies })]));
          expect(flags[flags.length - 1] === 1).toBe(isBlocked({ dependencies }, lookup));
        },
      ),
    );
  });
});

describe("blockedFlags", () => {
  it("is blockingState's verdict for every task at once, for numbers that are 1…N, have gaps or are spread far apart", () => {
    const task = fc.record({
      status: fc.constantFrom(...TASK_STATUSES),
      deps: fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(task, { minLength: 1, maxLength: 10 }), fc.constantFrom(1, 2, 10_000_000), (xs, spread) => {
        // Numbers 1…N, or with gaps, or far apart; dependencies name them by index (some past the end: missing).
        const numberOf = (k: number) => (spread === 1 ? k + 1 : k * spread + 1);
        const tasks = xs.map((x, k) =>
          aTask({ number: numberOf(k), status: x.status, dependencies: x.deps.map(numberOf) }),
        );
        const byNumber = new Map(tasks.map((t) => [t.number, t]));
        const flags = blockedFlags(listColumns(tasks));
        expect(Array.from(flags)).toEqual(tasks.map((t) => (isBlocked(t, (n) => byNumber.get(n)) ? 1 : 0)));
      }),
    );
  });
});
