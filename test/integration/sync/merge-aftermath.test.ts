/**
 * What follows a merge (issue 14): a dependency cycle the merge closed (each side added one
 * edge) is reported by sync and shown by doctor; a renumbered task's planning file follows it to
 * its new id, or sync says why not; `task history` follows the record's uid, not its number, so
 * the two tasks that collided on a number never mix their events.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";

async function twoClones() {
  const setup = await makeOriginAndClones(2);
  return { ...setup, c0: setup.clones[0]!, c1: setup.clones[1]! };
}

describe("a dependency cycle created by a merge", () => {
  it("is reported by sync (human and --json) and shown by doctor", async () => {
    const { c0, c1 } = await twoClones();
    await c0.ok(["task", "create", "--title", "A", "--role", "engineer"]);
    await c0.ok(["task", "create", "--title", "B", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["task", "depend", "1", "2"]); // A needs B, here
    await c1.ok(["task", "depend", "2", "1"]); // B needs A, there: each alone is fine
    await c0.ok(["sync"]);
    const report = await c1.json<any>(["sync"], "sync");
    expect(report.action).toBe("merged");
    expect(report.cycles).toEqual([["ENG-M-0002", "ENG-M-0001", "ENG-M-0002"]]);
    const doctor = await c1.run(["doctor", "--json"]);
    const findings = JSON.parse(doctor.stdout).data.findings;
    expect(findings.filter((f: any) => f.code === "W_CYCLE").map((f: any) => f.message)).toEqual([
      expect.stringMatching(/dependency cycle: ENG-M-000\d → ENG-M-000\d → ENG-M-000\d/),
    ]);

    // Human mode, in clone 0 (which merges it in by a fast-forward: nothing merged there); a fresh
    // pair shows the line.
    const again = await twoClones();
    await again.c0.ok(["task", "create", "--title", "A", "--role", "engineer"]);
    await again.c0.ok(["task", "create", "--title", "B", "--role", "engineer"]);
    await again.c0.ok(["sync"]);
    await again.c1.ok(["sync"]);
    await again.c0.ok(["task", "depend", "1", "2"]);
    await again.c1.ok(["task", "depend", "2", "1"]);
    await again.c0.ok(["sync"]);
    const human = await again.c1.ok(["sync"]);
    expect(human.stdout).toContain(
      "! the merge closed a dependency cycle: ENG-M-0002 → ENG-M-0001 → ENG-M-0002 (pantheon task undepend ENG-M-0002 ENG-M-0001)",
    );
  });
});

describe("a renumbered task's planning file", () => {
  it("is renamed to its new id when it is this clone's plan", async () => {
    const { c0, c1 } = await twoClones();
    await c0.ok(["task", "create", "--title", "Theirs", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    await c1.ok(["task", "plan", "1"]);
    const plans = join(c1.dir, ".pantheon", "planning");
    expect(readFileSync(join(plans, "ENG-M-0001.md"), "utf8")).toMatch(/^# Plan for ENG-M-0001: Mine/);
    const report = await c1.json<any>(["sync"], "sync");
    expect(report.renumbered).toEqual([{ kind: "tasks", from: "ENG-M-0001", to: "ENG-M-0002" }]);
    expect(report.planning).toEqual([
      {
        from: ".pantheon/planning/ENG-M-0001.md",
        to: ".pantheon/planning/ENG-M-0002.md",
        renamed: true,
        note: "renamed with ENG-M-0002",
      },
    ]);
    expect(existsSync(join(plans, "ENG-M-0001.md"))).toBe(false);
    expect(readFileSync(join(plans, "ENG-M-0002.md"), "utf8")).toMatch(/^# Plan for ENG-M-0001: Mine/);
    // task plan finds it by number from now on
    expect((await c1.json<any>(["task", "plan", "2"], "plan")).action).toBe("exists");
  });

  it("the published task's plan is left alone; a file it cannot tell apart is left where it is, and sync says so", async () => {
    const { c0, c1 } = await twoClones();
    await c0.ok(["task", "create", "--title", "Theirs", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    const plans = join(c1.dir, ".pantheon", "planning");
    mkdirSync(plans, { recursive: true });
    // The published task's own plan (it came with the code, say): left alone, nothing said.
    writeFileSync(join(plans, "ENG-M-0001.md"), "# Plan for ENG-M-0001: Theirs\n");
    const quiet = await c1.json<any>(["sync"], "sync");
    expect(quiet.renumbered).toHaveLength(1);
    expect(quiet.planning).toEqual([]);
    expect(existsSync(join(plans, "ENG-M-0001.md"))).toBe(true);
    // Another collision, with a file whose heading names neither task.
    await c0.ok(["task", "create", "--title", "Theirs again", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine again", "--role", "engineer"]);
    writeFileSync(join(plans, "ENG-M-0003.md"), "# Notes written by hand\n");
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toContain(
      "! .pantheon/planning/ENG-M-0003.md may be ENG-M-0004's plan (its number went to ENG-M-0003): rename it if so",
    );
    expect(existsSync(join(plans, "ENG-M-0003.md"))).toBe(true);
  });
});

describe("task history after a number collision", () => {
  it("follows the record's uid: each of the two tasks shows only its own events, the renumbering included", async () => {
    const { c0, c1 } = await twoClones();
    await c0.ok(["task", "create", "--title", "Theirs", "--role", "engineer"]);
    await c0.ok(["task", "note", "1", "their note"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    await c1.ok(["task", "note", "1", "my note"]);
    await c1.ok(["sync"]);
    const text = (events: any[]) => JSON.stringify(events.map((e: any) => e.changes));
    const theirs = await c1.json<any[]>(["task", "history", "ENG-M-0001"], "history");
    expect(text(theirs)).toContain("their note");
    expect(text(theirs)).not.toContain("my note");
    expect(text(theirs)).not.toContain("Mine");
    const mine = await c1.json<any[]>(["task", "history", "ENG-M-0002"], "history");
    expect(text(mine)).toContain("my note");
    expect(text(mine)).not.toContain("their note");
    expect(mine.map((e: any) => e.changes).flat()).toContain(
      "renumbered ENG-M-0001 → ENG-M-0002 (its number was taken on the remote)",
    );
    expect(mine[0].changes).toEqual(["created ENG-M-0001 as TODO"]);
  });
});

void ({} as Clone);
