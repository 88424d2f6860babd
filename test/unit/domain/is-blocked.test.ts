import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockingState, isBlocked } from "../../../src/domain/blocking.js";
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
