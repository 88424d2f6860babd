import { describe, expect, it } from "vitest";
import { makeRepo, stateRef } from "../../helpers/repo.js";
import { expectRefused, project, showTask, type Project } from "./fixture.js";

/** DESIGN §1.4 (missions), §1.7 (actors). */

async function fresh(): Promise<Project> {
  const p = project(makeRepo());
  await p.ok(["init", "--yes"]);
  return p;
}

describe("mission start", () => {
  it("starts an ACTIVE mission with an id, a codename and a handle", async () => {
    const p = await fresh();
    const human = await p.ok([
      "mission",
      "start",
      "--role",
      "engineer",
      "--persona",
      "Hephaestus",
      "--objective",
      "build login",
    ]);
    expect(human.stdout.split("\n")[0]).toMatch(/^✓ .*MSN-0001.*Hephaestus/);
    expect(human.stdout).toMatch(/--mission MSN-0001:[a-z]+-[a-z]+/);
    const m = await p.json(["mission", "show", "MSN-0001"], "mission");
    expect(m).toMatchObject({
      id: "MSN-0001",
      number: 1,
      persona: "Hephaestus",
      role: "engineer",
      status: "ACTIVE",
      objective: "build login",
      endedAt: null,
    });
    expect(m.handle).toBe(`MSN-0001:${m.codename}`);
    expect(m.codename).toMatch(/^[a-z]+-[a-z]+$/);
  });

  it("--role takes a full name, a code or a unique prefix, in any case", async () => {
    const p = await fresh();
    const forms = [
      ["eng", "engineer"],
      ["ENG", "engineer"],
      ["Engineer", "engineer"],
      ["tst", "tester"],
      ["TST", "tester"],
      ["doc", "documentarian"],
      ["arc", "architect"],
      ["admin", "administrator"],
      ["ins", "inspector"],
      ["opr", "operator"],
      ["Op", "operator"],
    ];
    for (const [i, [given, role]] of forms.entries()) {
      const m = await p.json(["mission", "start", "--role", given!, "--persona", `Someone ${i}`], "mission");
      expect.soft(m.role, `--role ${given}`).toBe(role);
    }
  });

  it("a persona name is unique among ACTIVE missions (case-insensitively), and free again once ended", async () => {
    const p = await fresh();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await expectRefused(p, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], 1, [
      /Hephaestus/,
      /MSN-0001/,
    ]);
    await expectRefused(p, ["mission", "start", "--role", "tester", "--persona", "hephaestus"], 1, [/Hephaestus/]);
    await p.ok(["mission", "end", "MSN-0001"]);
    const again = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    expect(again.id).toBe("MSN-0002");
  });

  it("without --persona, picks distinct free names of the role from the theme", async () => {
    const p = await fresh();
    const names = (await p.json(["persona", "list", "--role", "engineer"], "personas")).map(
      (x: { name: string }) => x.name,
    );
    const a = await p.json(["mission", "start", "--role", "engineer"], "mission");
    const b = await p.json(["mission", "start", "--role", "engineer"], "mission");
    expect(names).toContain(a.persona);
    expect(names).toContain(b.persona);
    expect(a.persona).not.toBe(b.persona);
    const listed = await p.json(["persona", "list", "--role", "engineer"], "personas");
    expect(listed.find((x: { name: string }) => x.name === a.persona).activeMission).toBe("MSN-0001");
  });

  it("refuses bad persona names (exit 2)", async () => {
    const p = await fresh();
    for (const name of ["bad\nname", "x".repeat(41), "semi;colon", "  "]) {
      await expectRefused(p, ["mission", "start", "--role", "engineer", "--persona", name], 2, [], {
        label: JSON.stringify(name),
        soft: true,
      });
    }
  });
});

describe("mission list and show", () => {
  it("--active lists only ACTIVE missions; show lists claims and completed tasks", async () => {
    const p = await fresh();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
    await p.ok(["mission", "end", "MSN-0002"]);
    expect((await p.json(["mission", "list"], "missions")).map((m: { id: string }) => m.id)).toEqual([
      "MSN-0001",
      "MSN-0002",
    ]);
    expect((await p.json(["mission", "list", "--active"], "missions")).map((m: { id: string }) => m.id)).toEqual([
      "MSN-0001",
    ]);
    await p.ok(["task", "create", "--title", "A", "--role", "eng"]);
    await p.ok(["task", "create", "--title", "B", "--role", "eng"]);
    await p.ok(["--mission", "MSN-0001", "task", "claim", "1"]);
    await p.ok(["--mission", "MSN-0001", "task", "claim", "2"]);
    await p.ok(["--mission", "MSN-0001", "task", "close", "2"]);
    const m = await p.json(["mission", "show", "MSN-0001"], "mission");
    expect(m.claims.map((t: { id: string }) => t.id)).toEqual(["ENG-M-0001"]);
    expect(m.completed.map((t: { id: string }) => t.id)).toEqual(["ENG-M-0002"]);
    const human = await p.ok(["mission", "show", "MSN-0001"]);
    expect(human.stdout).toContain("ENG-M-0001");
  });
});

describe("the actor of a command (DESIGN §1.7)", () => {
  async function cast(): Promise<Project> {
    const p = await fresh();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
    await p.ok(["mission", "start", "--role", "architect", "--persona", "Athena"]);
    await p.ok(["task", "create", "--title", "A", "--role", "eng"]);
    return p;
  }

  it("--mission, then --as, then PANTHEON_MISSION, then PANTHEON_PERSONA, else the Director", async () => {
    const p = await cast();
    const cases: [string, string[], NodeJS.ProcessEnv, string][] = [
      ["nothing: the Director", [], {}, "Director"],
      ["PANTHEON_PERSONA", [], { PANTHEON_PERSONA: "Daedalus" }, "Daedalus"],
      ["PANTHEON_MISSION", [], { PANTHEON_MISSION: "MSN-0003" }, "Athena"],
      [
        "PANTHEON_MISSION over PANTHEON_PERSONA",
        [],
        { PANTHEON_MISSION: "MSN-0001", PANTHEON_PERSONA: "Daedalus" },
        "Hephaestus",
      ],
      ["--as over PANTHEON_MISSION", ["--as", "Athena"], { PANTHEON_MISSION: "MSN-0001" }, "Athena"],
      ["--mission over --as", ["--mission", "MSN-0002", "--as", "Athena"], {}, "Daedalus"],
      ["--mission over PANTHEON_MISSION", ["--mission", "MSN-0002"], { PANTHEON_MISSION: "MSN-0001" }, "Daedalus"],
      ["empty variables are unset", [], { PANTHEON_MISSION: "", PANTHEON_PERSONA: "" }, "Director"],
    ];
    for (const [name, flags, env, who] of cases) {
      await p.ok([...flags, "task", "note", "1", `case: ${name}`], { env });
      const last = (await showTask(p, 1)).notes.at(-1);
      expect.soft(last.text).toBe(`case: ${name}`);
      expect.soft(last.by, name).toBe(who);
    }
  });

  it("--as names the persona's ACTIVE mission: its claim records that mission", async () => {
    const p = await cast();
    await p.ok(["--as", "daedalus", "task", "claim", "1"]);
    expect(await showTask(p, 1)).toMatchObject({ claimedBy: "Daedalus", mission: "MSN-0002" });
  });

  it("--mission of an unknown mission fails before anything is written", async () => {
    const p = await cast();
    const before = stateRef(p.dir);
    await expectRefused(p, ["--mission", "MSN-0042", "task", "note", "1", "x"], 1, [/MSN-0042/]);
    expect(stateRef(p.dir)).toBe(before);
  });
});
