/**
 * The per-clone renumber log (store/sync/renumber-log.ts): the number each renumbered record
 * moved to and the id it had, a log of an earlier version (bare numbers), entries that are not
 * moves, and a record renumbered twice (its first number follows it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { appendRenumberLog, movedFrom } from "../../../src/store/sync/renumber-log.js";

function commonDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pantheon-renumber-log-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("renumber log", () => {
  it("keeps where a record moved and the id it had", () => {
    const dir = commonDir();
    appendRenumberLog(dir, [
      { kind: "tasks", from: 1, to: 3, id: "TST-H-0001" },
      { kind: "reviews", from: 1, to: 2, id: "RVW-001" },
    ]);
    expect(movedFrom(dir, "tasks", 1)).toEqual([{ to: 3, id: "TST-H-0001" }]);
    expect(movedFrom(dir, "reviews", 1)).toEqual([{ to: 2, id: "RVW-001" }]);
    expect(movedFrom(dir, "epics", 1)).toEqual([]);
  });

  it("a record renumbered again takes its first number along", () => {
    const dir = commonDir();
    appendRenumberLog(dir, [{ kind: "tasks", from: 1, to: 2, id: "TST-H-0001" }]);
    // Its push failed; by the next sync another clone had published number 2 as well.
    appendRenumberLog(dir, [{ kind: "tasks", from: 2, to: 3, id: "TST-H-0002" }]);
    expect(movedFrom(dir, "tasks", 1)).toEqual([{ to: 3, id: "TST-H-0001" }]);
    expect(movedFrom(dir, "tasks", 2)).toEqual([{ to: 3, id: "TST-H-0002" }]);
  });

  it("reads a log of an earlier version as moves without ids, and drops what is not a move", () => {
    const dir = commonDir();
    mkdirSync(join(dir, "pantheon"));
    const file = join(dir, "pantheon", "renumbered.json");
    const tasks = { "1": [3], x: [4], "2": ["../../etc/passwd", { to: -1 }, { to: 5, id: "\u001b[2J" }, 6] };
    // Written as text: a `__proto__` key in an object literal would set its prototype, not a key.
    writeFileSync(file, `{"tasks":${JSON.stringify(tasks)},"__proto__":{"1":[7]}}`);
    expect(movedFrom(dir, "tasks", 1)).toEqual([{ to: 3, id: null }]);
    expect(movedFrom(dir, "__proto__", 1)).toEqual([]);
    expect(({} as Record<string, unknown>)["1"]).toBeUndefined();
    expect(movedFrom(dir, "tasks", 2)).toEqual([
      { to: 5, id: null },
      { to: 6, id: null },
    ]);
    appendRenumberLog(dir, [{ kind: "tasks", from: 8, to: 9, id: "ENG-M-0008" }]);
    expect(JSON.parse(readFileSync(file, "utf8")).tasks).toEqual({
      "1": [{ to: 3, id: null }],
      "2": [
        { to: 5, id: null },
        { to: 6, id: null },
      ],
      "8": [{ to: 9, id: "ENG-M-0008" }],
    });
  });
});
