import { describe, expect, it } from "vitest";
import { fieldChanges } from "../../../src/domain/field-changes.js";

describe("fieldChanges (project.json fields a sync received)", () => {
  it("names each changed leaf by its dotted path; arrays compare whole; absent sides are left out", () => {
    const before = { name: "app", updatedAt: "1", worktree: { copy: [".env"], setup: "npm ci" }, roles: ["engineer"] };
    const after = {
      name: "app2",
      updatedAt: "2",
      worktree: { copy: [".env", ".npmrc"] },
      roles: ["engineer"],
      future: { x: 1 },
    };
    expect(fieldChanges(before, after, ["updatedAt"])).toEqual([
      { field: "future", to: { x: 1 } },
      { field: "name", from: "app", to: "app2" },
      { field: "worktree.copy", from: [".env"], to: [".env", ".npmrc"] },
      { field: "worktree.setup", from: "npm ci" },
    ]);
  });

  it("equal documents, or something that is not two documents, give nothing", () => {
    expect(fieldChanges({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(fieldChanges(undefined, { a: 1 })).toEqual([]);
    expect(fieldChanges({ a: 1 }, "corrupt")).toEqual([]);
  });
});
