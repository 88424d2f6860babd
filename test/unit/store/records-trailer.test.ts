import { describe, expect, it } from "vitest";
import {
  formatRecordKeys,
  MAX_TRAILER_KEYS,
  trailerKeys,
  trailerNames,
} from "../../../src/store/state/records-trailer.js";

describe("the Pantheon-Records trailer, read back", () => {
  it("names the keys trailerNames matches: ranges expanded, other items as written", () => {
    const values = [formatRecordKeys(["counters", "tasks/7", "tasks/9", "tasks/10", "tasks/11", "epics/2"])];
    expect(values).toEqual(["counters, epics/2, tasks/7, tasks/9-11"]);
    const keys = trailerKeys([...values, "tasks/007, personas/zeus"]);
    expect(keys.sort()).toEqual(
      ["counters", "epics/2", "personas/zeus", "tasks/007", "tasks/10", "tasks/11", "tasks/7", "tasks/9"].sort(),
    );
    for (const k of ["tasks/7", "tasks/10", "counters", "personas/zeus", "tasks/8", "tasks/12"])
      expect(keys.includes(k), k).toBe(trailerNames([...values, "tasks/007, personas/zeus"], k));
  });

  it("stops at its bound on a range no state could have (a crafted tasks/1-4000000000)", () => {
    const keys = trailerKeys(["counters, tasks/1-4000000000, epics/1-9"]);
    expect(keys).toHaveLength(MAX_TRAILER_KEYS);
    expect(keys[0]).toBe("counters");
    expect(keys.at(-1)).toBe(`tasks/${MAX_TRAILER_KEYS - 1}`);
  });
});

describe("the Pantheon-Records trailer", () => {
  it("writes runs of numbers as ranges, pairs as two keys, and other keys as they are", () => {
    const keys = [
      "counters",
      "tasks/9",
      "tasks/10",
      "tasks/11",
      "tasks/12",
      "tasks/3",
      "tasks/5",
      "tasks/6",
      "epics/1",
    ];
    expect(formatRecordKeys(keys)).toBe("counters, epics/1, tasks/3, tasks/5, tasks/6, tasks/9-12");
    expect(trailerNames(["counters, tasks/9-12"], "tasks/11")).toBe(true);
    expect(trailerNames(["counters, tasks/9-12"], "tasks/13")).toBe(false);
  });

  // Each key used to copy its kind's list: an import of 50,000 tasks spent 22 s here, 100,000
  // about 90 s. One pass does 60,000 keys in well under the test's time limit.
  it("formats the keys of a 60,000-record commit in one pass", { timeout: 5_000 }, () => {
    const keys = Array.from({ length: 60_000 }, (_, i) => `tasks/${i + 1}`);
    keys.push("counters", "tasks/300000");
    expect(formatRecordKeys(keys)).toBe("counters, tasks/1-60000, tasks/300000");
  });
});
