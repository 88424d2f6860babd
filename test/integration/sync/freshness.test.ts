/**
 * No clone silently stale (DESIGN §3.5; issue 14): reads compare the local state with the
 * remote's as last fetched — no network — and print one line on stderr when either side has
 * changes the other lacks; `-q` silences it and `--json` never has it. The dashboard, doctor
 * and summon say it too. A plain `git fetch` (the glob refspec) is enough for the line to
 * appear; `pantheon sync` makes it go.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";

async function inStep() {
  const setup = await makeOriginAndClones(2);
  const [c0, c1] = setup.clones as [Clone, Clone];
  await c0.ok(["task", "create", "--title", "First", "--role", "engineer"]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  return { ...setup, c0, c1 };
}

const BEHIND = "! origin has 2 changes this clone lacks (as last fetched): pantheon sync\n";

describe("a read when the remote (as last fetched) has changes this clone lacks", () => {
  it("after a plain git fetch: one line on stderr; not with -q, not with --json; gone after pantheon sync", async () => {
    const { c0, c1 } = await inStep();
    await c0.ok(["task", "create", "--title", "Second", "--role", "engineer"]);
    await c0.ok(["task", "note", "1", "hello"]);
    await c0.ok(["sync"]);
    const before = await c1.ok(["task", "list"]);
    expect(before.stderr, "nothing fetched yet: nothing known").toBe("");
    c1.git("fetch", "-q");
    for (const argv of [["task", "list"], ["task", "show", "1"], ["task", "next"], ["log"], ["dashboard"]]) {
      const r = await c1.ok(argv);
      expect(r.stderr, argv.join(" ")).toBe(BEHIND);
    }
    expect((await c1.ok(["-q", "task", "list"])).stderr).toBe("");
    const json = await c1.ok(["task", "list", "--json"]);
    expect(json.stderr).toBe("");
    expect(json.stdout.trim().split("\n")).toHaveLength(1);
    // A write says nothing of it (only reads do).
    expect((await c1.ok(["task", "create", "--title", "Third", "--role", "engineer"])).stderr).toBe("");
    await c1.ok(["sync"]);
    expect((await c1.ok(["task", "list"])).stderr).toBe("");
  });

  it("doctor reports it as a warning (exit 0), summon says it", async () => {
    const { c0, c1 } = await inStep();
    await c0.ok(["task", "create", "--title", "Second", "--role", "engineer"]);
    await c0.ok(["task", "note", "1", "hello"]);
    await c0.ok(["sync"]);
    c1.git("fetch", "-q");
    const doctor = await c1.run(["doctor", "--json"]);
    expect(doctor.exitCode, doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout).data.findings).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        code: "W_NOT_IN_STEP",
        message: "origin has 2 changes this clone lacks (as last fetched)",
        fix: "pantheon sync origin",
      }),
    );
    const summon = await c1.run(["summon", "engineer", "--dry-run", "--assistant", "claude"]);
    expect(summon.exitCode, summon.stderr).toBe(0);
    expect(summon.stderr).toContain("origin has 2 changes this clone lacks (as last fetched): pantheon sync");
  });
});

describe("a read when this clone has changes the remote lacks, or both", () => {
  it("counts this clone's changes, carried forward after each write, and says both when both moved", async () => {
    const { c0, c1 } = await inStep();
    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]);
    expect((await c1.ok(["task", "list"])).stderr).toBe("! this clone has 1 change not on origin yet: pantheon sync\n");
    await c1.ok(["task", "note", "2", "more"]);
    await c1.ok(["task", "note", "2", "and more"]);
    expect((await c1.ok(["task", "list"])).stderr).toBe(
      "! this clone has 3 changes not on origin yet: pantheon sync\n",
    );
    await c0.ok(["task", "note", "1", "theirs"]);
    await c0.ok(["sync"]);
    c1.git("fetch", "-q");
    expect((await c1.ok(["task", "list"])).stderr).toBe(
      "! this clone and origin have both moved (3 changes here not on origin, 1 change there not here, as last fetched): pantheon sync\n",
    );
    await c1.ok(["task", "note", "2", "still more"]);
    expect((await c1.ok(["task", "list"])).stderr).toContain("(4 changes here not on origin, 1 change there not here");
    await c1.ok(["sync"]);
    expect((await c1.ok(["task", "list"])).stderr).toBe("");
  });

  it("a clone that never fetched any remote's state says nothing", async () => {
    const { clones } = await makeOriginAndClones(1, { init: false });
    await clones[0]!.ok(["init", "--yes"]);
    await clones[0]!.ok(["task", "create", "--title", "Solo", "--role", "engineer"]);
    expect((await clones[0]!.ok(["task", "list"])).stderr).toBe("");
  });
});
