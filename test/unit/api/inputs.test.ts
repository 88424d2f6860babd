import { describe, expect, it } from "vitest";
import { ROLE_CODE_INPUTS, oneOrMany, wholeNumber } from "../../../src/api/inputs.js";
import { ROLE_CODES, TASK_ROLES } from "../../../src/domain/roles.js";
import { UsageError } from "../../../src/errors.js";

describe("pantheon/api inputs", () => {
  it("types the role codes the domain has, no more and no fewer", () => {
    expect([...ROLE_CODE_INPUTS].sort()).toEqual(TASK_ROLES.map((r) => ROLE_CODES[r]).sort());
  });

  it("takes one value or several, parsed and without repeats; none is no filter", () => {
    const upper = (s: string) => s.toUpperCase();
    expect(oneOrMany("todo", upper)).toEqual(["TODO"]);
    expect(oneOrMany(["todo", "TODO", "ready"], upper)).toEqual(["TODO", "READY"]);
    expect(oneOrMany([], upper)).toBeUndefined();
    expect(oneOrMany(undefined, upper)).toBeUndefined();
  });

  it("refuses a limit or count the CLI refuses", () => {
    expect(wholeNumber(undefined, "limit", 1)).toBeUndefined();
    expect(wholeNumber(3, "limit", 1)).toBe(3);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => wholeNumber(bad, "limit", 1)).toThrow(UsageError);
    expect(wholeNumber(0, "offset")).toBe(0);
  });
});
