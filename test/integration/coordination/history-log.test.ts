import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonData } from "../../helpers/cli.js";
import { initializedProject } from "../../helpers/project.js";
import { git, stateRef } from "../../helpers/repo.js";

/** Issue 3, item 3: `task history ID` and `pantheon log [-n N]`, read from the commit log. */

const REF = "refs/coordination/main";

async function project() {
  return initializedProject();
}

afterEach(() => {
  vi.useRealTimers();
});

/** Builds one task's life: create, claim, a priority change, a note (plus noise on another task). */
async function life(p: Awaited<ReturnType<typeof project>>) {
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  const t = await p.json(
    ["task", "create", "--title", "Add login", "--role", "engineer", "--priority", "medium"],
    "task",
  );
  await p.ok(["task", "create", "--title", "Unrelated", "--role", "tester"]);
  await p.ok(["--as", "Hephaestus", "task", "claim", t.id]);
  await p.ok(["task", "priority", t.id, "high"]);
  await p.ok(["task", "create", "--title", "More noise", "--role", "tester"]);
  await p.ok(["--as", "Hephaestus", "task", "note", "ENG-H-0001", "token refresh needs a lock"]);
  return t;
}

describe("task history", () => {
  it("lists create, claim, priority and note events with readable changes", async () => {
    const p = await project();
    await life(p);
    // the old id (MEDIUM) still resolves, with a notice
    const r = await p.ok(["task", "history", "ENG-M-0001", "--json"]);
    const events = jsonData<any[]>(r, "history");
    // (the order is checked with a frozen clock below: here commits may straddle a second)
    expect(events.map((e) => e.op).sort()).toEqual(["task.claim", "task.create", "task.note", "task.priority"]);
    const byOp = (op: string) => events.find((e) => e.op === op);
    expect(["task.create", "task.claim", "task.priority", "task.note"].map((op) => byOp(op).actor)).toEqual([
      "Director",
      "Hephaestus",
      "Director",
      "Hephaestus",
    ]);
    for (const e of events) {
      expect(e.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(Number.isNaN(Date.parse(e.date))).toBe(false);
      expect(typeof e.summary).toBe("string");
      expect(e.changes.length).toBeGreaterThan(0);
    }
    const [created, claimed, priority, noted] = ["task.create", "task.claim", "task.priority", "task.note"].map((op) =>
      byOp(op).changes.join("\n"),
    );
    expect(created).toMatch(/created ENG-M-0001/);
    expect(created).toContain("TODO");
    expect(claimed).toMatch(/status: TODO → UNDERWAY/);
    expect(claimed).toMatch(/claimedBy: .* → Hephaestus/);
    expect(priority).toMatch(/priority: MEDIUM → HIGH/);
    expect(noted).toContain("token refresh needs a lock");
    // every event's commit is on the state ref, and names this task
    for (const e of events)
      expect(git(p.dir, "log", "-1", "--format=%B", e.commit)).toMatch(/Pantheon-Records: .*tasks\/1\b/);
  });

  it("lists events oldest first, in commit order, even when every commit falls in the same second", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00.000Z"));
    const p = await project();
    await life(p);
    const events = await p.json<any[]>(["task", "history", "1"], "history");
    expect(events.map((e) => e.op)).toEqual(["task.create", "task.claim", "task.priority", "task.note"]);
    expect(new Set(events.map((e) => e.date)).size).toBe(1);
  });

  it("names the mission by id in a claim's changes, not by a bare number (DESIGN §4.2)", async () => {
    const p = await project();
    await life(p);
    const events = await p.json<any[]>(["task", "history", "1"], "history");
    const claim = events.find((e) => e.op === "task.claim");
    expect(claim).toBeTruthy();
    const missionChange = claim.changes.find((c: string) => c.startsWith("mission"));
    expect(missionChange).toBeDefined();
    expect(missionChange).toContain("MSN-0001");
  });

  it("prints a readable human history and refuses an unknown task", async () => {
    const p = await project();
    await life(p);
    const r = await p.ok(["task", "history", "1"]);
    expect(r.stdout).toContain("Hephaestus");
    expect(r.stdout).toContain("priority: MEDIUM → HIGH");
    expect(r.stdout).not.toContain("\u001b");
    const ref = stateRef(p.dir);
    const bad = await p.run(["task", "history", "ENG-M-0042"]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/^✗ /);
    expect(stateRef(p.dir)).toBe(ref);
  });
});

describe("pantheon log", () => {
  it("-n 3 --json gives the newest three commits with actor, op, mission and records", async () => {
    const p = await project();
    await life(p);
    const log = await p.json<any[]>(["log", "-n", "3"], "log");
    expect(log).toHaveLength(3);
    const revs = git(p.dir, "rev-list", "-n", "3", REF).trim().split("\n");
    expect(log.map((e) => e.commit)).toEqual(revs);
    expect(log[0]).toMatchObject({ actor: "Hephaestus", op: "task.note", merge: false });
    expect(log[0].mission).toMatch(/^MSN-0001/);
    expect(log[0].records).toMatch(/tasks\/1\b/);
    expect(log[0].summary).toMatch(/ENG-H-0001/);
    expect(log[1]).toMatchObject({ actor: "Director", op: "task.create", mission: null });
    expect(log[2]).toMatchObject({ actor: "Director", op: "task.priority" });
    for (const e of log)
      expect(Object.keys(e)).toEqual(
        expect.arrayContaining(["commit", "date", "author", "actor", "op", "mission", "records", "summary", "merge"]),
      );
  });

  it("defaults to 20, stops at the root commit, and prints one line per commit when piped", async () => {
    const p = await project();
    await life(p);
    const total = Number(git(p.dir, "rev-list", "--count", REF).trim());
    expect(total).toBe(8);
    const all = await p.json<any[]>(["log"], "log");
    expect(all).toHaveLength(total);
    expect(all.at(-1).op).toMatch(/init/);
    const human = await p.ok(["log", "-n", "2"]);
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[0-9a-f]{9} /);
    expect(human.stdout).not.toContain("\u001b");
  });

  it("refuses -n 0 and a non-number (exit 2)", async () => {
    const p = await project();
    for (const n of ["0", "x"]) {
      const r = await p.run(["log", "-n", n]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^✗ /);
    }
  });
});
