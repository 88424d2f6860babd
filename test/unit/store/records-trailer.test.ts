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
