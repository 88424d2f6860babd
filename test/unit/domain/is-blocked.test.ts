import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockedFlags, blockingState, isBlocked } from "../../../src/domain/blocking.js";
import { listColumns } from "../../../src/domain/task-columns.js";
import { aTask } from "../../helpers/builders.js";
import { TASK_STATUSES } from "../../../src/domain/task-status.js";

describe("isBlocked", () => {
  it("agrees with blockingState for any dependencies, statuses and missing tasks", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 5 }), fc.array(fc.option(fc.constantFrom(...TASK_STATUSES)), { minLength: 8, maxLength: 8 }), (dependencies, statuses) => {
        const lookup = (n: number) => (statuses[n - 1] ? { number: n, status: statuses[n - 1]! } : undefined);
        expect(isBlocked({ dependencies }, lookup)).toBe(blockingState({ dependencies }, lookup).blockedBy.length > 0);
      }),
    );
  });
});

describe("blockedFlags", () => {
  it("is isBlocked of every task at once, for numbers that are 1…N, have gaps or are spread far apart", () => {
    const task = fc.record({ status: fc.constantFrom(...TASK_STATUSES), deps: fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(task, { minLength: 1, maxLength: 10 }), fc.constantFrom(1, 2, 10_000_000), (xs, spread) => {
        // Numbers 1…N, or with gaps, or far apart; dependencies name them by index (some past the end: missing).
        const numberOf = (k: number) => (spread === 1 ? k + 1 : k * spread + 1);
        const tasks = xs.map((x, k) => aTask({ number: numberOf(k), status: x.status, dependencies: x.deps.map(numberOf) }));
        const byNumber = new Map(tasks.map((t) => [t.number, t]));
        const flags = blockedFlags(listColumns(tasks));
        expect(Array.from(flags)).toEqual(tasks.map((t) => (isBlocked(t, (n) => byNumber.get(n)) ? 1 : 0)));
      }),
    );
  });
});
