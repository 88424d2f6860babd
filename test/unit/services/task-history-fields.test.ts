import { describe, expect, it } from "vitest";
import { TaskSchema } from "../../../src/domain/schemas/task.js";
import { HISTORY_FIELDS, HISTORY_OWN_WORDS } from "../../../src/services/views/task-history.js";

describe("task history's fields", () => {
  it("come from the schema: every field of a task is listed or said in the history's own words", () => {
    const schemaFields = Object.keys(TaskSchema.shape).sort();
    expect([...HISTORY_FIELDS, ...HISTORY_OWN_WORDS].sort()).toEqual(schemaFields);
  });

  it("list the usual fields first, in the order people read a change", () => {
    expect(HISTORY_FIELDS.slice(0, 8)).toEqual([
      "status",
      "claimedBy",
      "priority",
      "role",
      "title",
      "epic",
      "mission",
      "completedBy",
    ]);
  });
});
