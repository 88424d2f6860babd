/**
 * Who acts (DESIGN §1.5a, §1.7; issue 12 points 6 and 10):
 * - an ACTIVE mission is ended (with or without --release) only by its own persona acting under
 *   it, an administrator on an ACTIVE mission, or the Director: anyone else could otherwise take
 *   the claim that `task unassign` refused a moment before;
 * - no persona is called Director;
 * - `--as NAME` with two ACTIVE missions of that name is refused, listing them;
 * - inside an assistant with no mission and no persona the actor is an unidentified persona: it
 *   reads and creates, but has none of the Director's owner rights;
 * - nothing is done under an ENDED mission.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { jsonData } from "../../helpers/cli.js";
import { git, stateRef, tempDir } from "../../helpers/repo.js";
import { rewriteState } from "../../helpers/state-plumbing.js";
import { loadTheme } from "../../../src/services/project/load-theme.js";
import type { Context } from "../../../src/services/kernel/context.js";
import { castProject, DAEDALUS, expectRefused, initProject, lit, showTask, taskIn, ZEUS } from "./fixture.js";

const IDENTIFY =
  "hint: say who you are: pass --mission <id> (the id /summon gave you) on every call, or run /summon <role>";

describe("mission ownership (DESIGN §1.5a)", () => {
  it("a persona cannot end another persona's ACTIVE mission and so take the claim that unassign refused", async () => {
    const p = await castProject(["Hephaestus", "Daedalus"]);
    await taskIn(p, "UNDERWAY"); // ENG-H-0001 claimed by Hephaestus on MSN-0001
    await expectRefused(p, [...DAEDALUS, "task", "unassign", "1", "--notes", "mine now"], 1, [
      /only its claimant \(Hephaestus\)/,
    ]);
    for (const argv of [
      ["mission", "end", "MSN-0001", "--release"],
      ["mission", "end", "MSN-0001"],
      ["mission", "end", "1", "--release", "--summary", "x"],
    ]) {
      const r = await expectRefused(p, [...DAEDALUS, ...argv], 1, [
        lit(
          "Cannot end MSN-0001 (Hephaestus) as Daedalus: only Hephaestus acting under it, an administrator or the Director may end it",
        ),
      ]);
      expect(r.stderr.split("\n")[1]).toContain("pantheon mission show MSN-0001");
    }
    await expectRefused(p, [...DAEDALUS, "task", "claim", "1"], 1, [/already claimed by Hephaestus/]);
    expect(await showTask(p, 1)).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: "MSN-0001" });
  });

  it.each([
    ["its own persona (--as)", ["--as", "Hephaestus"], ["mission", "end", "--release"]],
    ["its own persona (--mission)", ["--mission", "MSN-0001"], ["mission", "end", "MSN-0001", "--release"]],
    ["an administrator on an ACTIVE mission", ZEUS, ["mission", "end", "MSN-0001", "--release"]],
    ["the Director", [], ["mission", "end", "MSN-0001", "--release"]],
  ])("%s may end it (with --release)", async (_who, actor, argv) => {
    const p = await castProject(["Hephaestus", "Zeus"]);
    await taskIn(p, "UNDERWAY");
    const r = await p.ok([...actor, ...argv]);
    expect(r.stdout).toMatch(/^✓ Ended MSN-0001/);
    expect(await showTask(p, 1)).toMatchObject({ status: "TODO", claimedBy: null });
  });

  it("an administrator whose own mission ENDED may not (nothing is done under an ENDED mission)", async () => {
    const p = await castProject(["Hephaestus", "Cronus"]);
    await expectRefused(p, ["--as", "Cronus", "mission", "end", "MSN-0001"], 1, [
      /^✗ Mission MSN-0002:[a-z]+-[a-z]+ of Cronus has ENDED/,
    ]);
  });
});

describe("Director is no persona's name", () => {
  it.each([
    [["mission", "start", "--role", "engineer", "--persona", "Director"], {}],
    [["mission", "start", "--role", "engineer", "--persona", " director "], {}],
    [["persona", "add", "DIRECTOR", "--role", "engineer"], {}],
    [["summon", "engineer", "--persona", "Director", "--dry-run", "--assistant", "claude"], {}],
    [["--as", "director", "task", "create", "--title", "x", "--role", "eng"], {}],
    [["task", "create", "--title", "x", "--role", "eng"], { PANTHEON_PERSONA: "Director" }],
  ] as const)("%j %j: exit 2, nothing written", async (argv, env) => {
    const p = await initProject();
    await expectRefused(
      p,
      [...argv],
      2,
      [/^✗ "director" is reserved for the Director, the human at the keyboard; a persona needs another name/i],
      { env },
    );
  });

  it.each([
    [["mission", "start", "--role", "engineer", "--persona", "Dіrector"], {}],
    [["persona", "add", "DІRЕСТОR", "--role", "engineer"], {}],
    [["summon", "engineer", "--persona", "Ｄｉｒｅｃｔｏｒ", "--dry-run", "--assistant", "claude"], {}],
    [["--as", "Dιrector", "task", "create", "--title", "x", "--role", "eng"], {}],
    [["task", "create", "--title", "x", "--role", "eng"], { PANTHEON_PERSONA: "Direct0r" }],
  ] as const)("a look-alike of Director, %j %j: exit 2, its characters shown, nothing written", async (argv, env) => {
    const p = await initProject();
    const r = await expectRefused(
      p,
      [...argv],
      2,
      [
        /^✗ ".+"( \(.*\\u\{[0-9a-f]+\}.*\))? looks like "Director", which is reserved for the Director, the human at the keyboard; a persona needs another name \(from (--persona|persona add|--as|PANTHEON_PERSONA)\)$/,
      ],
      { env },
    );
    expect(r.stderr).toMatch(/hint: pantheon persona suggest <role>/);
  });

  it("a name mixing alphabets is refused at every entry, as look-alikes of any name are made so", async () => {
    const p = await initProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    for (const argv of [
      ["mission", "start", "--role", "engineer", "--persona", "Hеphaestus"],
      ["persona", "add", "Hеphaestus", "--role", "engineer"],
      ["--as", "Hеphaestus", "task", "create", "--title", "x", "--role", "eng"],
    ])
      await expectRefused(p, argv, 2, [
        lit('✗ "Hеphaestus" (H\\u{435}phaestus) mixes Latin and Cyrillic letters, as look-alike names do'),
      ]);
  });

  it("a mission record from the ref whose persona passes for the Director acts for nobody; doctor names it", async () => {
    const p = await initProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "create", "--title", "x", "--role", "eng"]);
    // Another version, or a hand edit, renamed the persona on the ref.
    rewriteState(p.dir, { "missions/01/1.json": (m) => ({ ...m, persona: "Dіrector" }) });
    const before = stateRef(p.dir);
    for (const [argv, env] of [
      [["--mission", "MSN-0001", "task", "claim", "1"], {}],
      [["task", "note", "1", "x"], { PANTHEON_MISSION: "1" }],
    ] as const)
      await expectRefused(
        p,
        [...argv],
        1,
        [
          /^✗ Mission MSN-0001:[a-z]+-[a-z]+'s persona "Dіrector" \(D\\u\{456\}rector\) looks like "Director", which is reserved for the Director, the human at the keyboard: nothing is done under it$/,
        ],
        { env, refBefore: before },
      );
    // Reads still work under it; doctor names it; the Director ends it.
    await p.ok(["--mission", "MSN-0001", "task", "show", "1"]);
    const doctor = await p.run(["doctor", "--json"]);
    const findings = jsonData<{ findings: Array<{ code: string; message: string; fix: string }> }>(doctor).findings;
    expect(findings.find((f) => f.code === "W_PERSONA_NAME")).toMatchObject({
      message: expect.stringContaining('MSN-0001\'s persona "Dіrector" (D\\u{456}rector) looks like "Director"'),
      fix: "pantheon mission end MSN-0001",
    });
    await p.ok(["mission", "end", "MSN-0001"]);
  });

  it("a theme naming Director never offers it", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "themes"));
    writeFileSync(join(dir, "themes", "odd.yaml"), "roles:\n  engineer: [Director, Hephaestus, director]\n");
    const theme = await loadTheme({ templatesDir: dir } as Context, "odd");
    expect(theme.roles.engineer).toEqual(["Hephaestus"]);
  });
});

describe("--as a name on two ACTIVE missions (after a sync)", () => {
  async function twins(): Promise<{ c1: Clone; handles: string[] }> {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await c1.ok(["task", "create", "--title", "x", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    const active = await c1.json<Array<{ handle: string }>>(["mission", "list", "--active"], "missions");
    expect(active).toHaveLength(2);
    return { c1, handles: active.map((m) => m.handle) };
  }

  it("is refused listing both, for --as and PANTHEON_PERSONA, reads and writes; --mission still works", async () => {
    const { c1, handles } = await twins();
    const before = c1.ref();
    for (const [argv, env, source] of [
      [["--as", "Hephaestus", "task", "note", "1", "x"], {}, "--as"],
      [["--as", "hephaestus", "task", "mine"], {}, "--as"],
      [["task", "note", "1", "x"], { PANTHEON_PERSONA: "Hephaestus" }, "PANTHEON_PERSONA"],
    ] as const) {
      const r = await c1.run([...argv], { env });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.split("\n")[0]).toBe(
        `✗ Hephaestus is on 2 ACTIVE missions (two clones started one each): ${handles.join(", ")}; ${source} cannot tell which`,
      );
      expect(r.stderr.split("\n")[1]).toMatch(/^ {2}hint: act under one with --mission MSN-\d{4}:/);
    }
    expect(c1.ref()).toBe(before);
    await c1.ok(["--mission", handles[1]!, "task", "note", "1", "by handle"]);
  });
});

const MARKERS = [
  "CLAUDECODE",
  "GEMINI_CLI",
  "CODEX_THREAD_ID",
  "CODEX_SANDBOX_NETWORK_DISABLED",
  "OPENCODE",
  "AGENT",
] as const;

describe("an unidentified persona inside an assistant (DESIGN §1.7)", () => {
  it.each(MARKERS)(
    "%s=1 without a mission: reads and creates as (unidentified persona), owner rights refused with how to identify",
    async (marker) => {
      const p = await castProject(["Hephaestus"]);
      await taskIn(p, "UNDERWAY");
      const env = { [marker]: "1" };
      const created = await p.json<{ id: string }>(
        ["task", "create", "--title", "Found a bug", "--role", "engineer"],
        "task",
        { env },
      );
      expect((await showTask(p, created.id)).notes).toEqual([]);
      expect(git(p.dir, "log", "-1", "--format=%an|%s", "refs/coordination/main").trim()).toBe(
        "(unidentified persona)|task ENG-M-0002 create by (unidentified persona)",
      );
      const shown = await p.json<{ allowedActions: string[] }>(["task", "show", "1"], "task", { env });
      expect(shown.allowedActions).toEqual([]);
      await p.ok(["review", "create", "--title", "Look at this", "--task", "1"], { env });

      for (const argv of [
        ["task", "close", "1"],
        ["task", "close", "1", "--status", "ABORTED", "--notes", "x"],
        ["task", "unassign", "1", "--notes", "x"],
        ["task", "handoff", "1", "--notes", "x"],
        ["task", "update", "1", "--status", "BLOCKED"],
        ["task", "claim", "2"],
        ["review", "approve", "RVW-001"],
        ["review", "reject", "RVW-001", "--reason", "x"],
        ["mission", "end", "MSN-0001", "--release"],
      ]) {
        const r = await expectRefused(p, argv, 1, [/as \(unidentified persona\)/], { env });
        expect(r.stderr, argv.join(" ")).toContain(IDENTIFY);
      }
      await expectRefused(p, ["task", "mine"], 2, [/unidentified persona claims no tasks/], { env });
      // The same commands from the Director's terminal work: the marker alone made the difference.
      await p.ok(["review", "approve", "RVW-001"]);
    },
  );

  it("identified by --mission or PANTHEON_MISSION, it acts as its persona", async () => {
    const p = await castProject(["Hephaestus"]);
    await taskIn(p, "UNDERWAY");
    await p.ok(["--mission", "MSN-0001", "task", "note", "1", "mine"], { env: { CLAUDECODE: "1" } });
    await p.ok(["task", "close", "1"], { env: { CLAUDECODE: "1", PANTHEON_MISSION: "MSN-0001" } });
    expect(await showTask(p, 1)).toMatchObject({ status: "COMPLETE", completedBy: "Hephaestus" });
  });

  it("a marker set to 0, false or empty is no marker: the Director acts", async () => {
    const p = await castProject(["Hephaestus"]);
    await taskIn(p, "UNDERWAY");
    await p.ok(["task", "unassign", "1", "--notes", "x"], { env: { CLAUDECODE: "0", AGENT: "false", OPENCODE: "" } });
  });
});

describe("nothing is done under an ENDED mission (DESIGN §1.7)", () => {
  it.each([
    ["--mission", (handle: string) => ({ argv: ["--mission", handle], env: {} })],
    ["PANTHEON_MISSION", (handle: string) => ({ argv: [], env: { PANTHEON_MISSION: handle } })],
    ["--as", (_handle: string) => ({ argv: ["--as", "Icarus"], env: {} })],
  ] as const)("via %s: refused naming the mission and how to start a new one; reads still work", async (_via, how) => {
    const p = await castProject(["Hephaestus", "Icarus"]);
    await taskIn(p, "TODO");
    const handle = (await p.json<{ handle: string }>(["mission", "show", "MSN-0002"], "mission")).handle;
    const { argv, env } = how(handle);
    const before = stateRef(p.dir);
    for (const cmd of [
      ["task", "note", "1", "x"],
      ["task", "create", "--title", "x", "--role", "eng"],
      ["task", "claim", "1"],
      ["epic", "create", "--title", "x"],
    ]) {
      const r = await expectRefused(
        p,
        [...argv, ...cmd],
        1,
        [lit(`✗ Mission ${handle} of Icarus has ENDED: nothing more is done under it`)],
        { env, refBefore: before },
      );
      expect(r.stderr.split("\n")[1]).toBe(
        "  hint: start a new one: pantheon mission start --role engineer --persona Icarus (or /summon engineer), then pass its --mission",
      );
    }
    await p.ok([...argv, "task", "show", "1"], { env });
    await p.ok([...argv, "task", "list"], { env });
  });

  it("a persona's earlier ENDED mission does not stop it once it has a new ACTIVE one", async () => {
    const p = await castProject(["Icarus"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Icarus"]);
    await p.ok(["task", "create", "--title", "x", "--role", "eng"]);
    await p.ok(["--as", "Icarus", "task", "claim", "1"]);
    expect((await showTask(p, 1)).mission).toBe("MSN-0002");
  });
});
