import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";
import { jsonData, runCli } from "../../helpers/cli.js";
import { makeRepo, stateRef } from "../../helpers/repo.js";
import { standIns } from "../persona/stand-ins.js";
import { expectRefused, initProject } from "./fixture.js";

/** Issue 15, points 1, 4, 5, 6 and 7, as a new user meets them. */

const HEPH = ["--as", "Hephaestus"];

describe("mission show names the references of the tasks it lists (point 1)", () => {
  it("a COMPLETE task's dependency, blocker and epic are ids, in the human view and in --json", async () => {
    const p = await initializedProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["epic", "create", "--title", "Login", "--priority", "high"]);
    await p.ok(["task", "create", "--title", "Schema", "--role", "eng"]);
    await p.ok([
      "task",
      "create",
      "--title",
      "Login form",
      "--role",
      "eng",
      "--depends-on",
      "1",
      "--epic",
      "EPC-H-0001",
    ]);
    await p.ok([...HEPH, "task", "claim", "1"]);
    await p.ok([...HEPH, "task", "close", "1"]);
    await p.ok([...HEPH, "task", "claim", "2"]);
    await p.ok([...HEPH, "task", "close", "2"]);
    const m = await p.json(["mission", "show", "MSN-0001"], "mission");
    expect(m.completed.find((t: { id: string }) => t.id === "ENG-M-0002")).toMatchObject({
      dependencies: ["ENG-M-0001"],
      blockedBy: [],
      epic: "EPC-H-0001",
    });
    const human = await p.ok(["mission", "show", "MSN-0001"], { tty: true });
    expect(human.stdout).not.toMatch(/\?-\d|EPC-\?/);
    const piped = await p.ok(["mission", "show", "MSN-0001"]);
    expect(piped.stdout).not.toMatch(/\?-\d|EPC-\?/);
  });

  it("mission show MSN-0099 says No mission, without '(from mission)'", async () => {
    const p = await initializedProject();
    const r = await p.refused(["mission", "show", "MSN-0099"], 1);
    expect(r.stderr.split("\n")[0]).toBe("✗ No mission MSN-0099");
  });
});

describe("tables keep a header row when piped; --no-headers drops it; empty lists say so on a terminal (point 7)", () => {
  it("every list-type read", async () => {
    const p = await initializedProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "create", "--title", "Schema", "--role", "eng"]);
    await p.ok(["epic", "create", "--title", "Login"]);
    await p.ok(["review", "create", "--title", "Design"]);
    const headers: [string[], string][] = [
      [["task", "list"], "ID\tSTATUS\tTITLE\tCLAIMED BY\tBLOCKED BY"],
      [["task", "search", "schema"], "ID\tSTATUS\tTITLE\tCLAIMED BY\tBLOCKED BY"],
      [["epic", "list"], "ID\tSTATUS\tPROGRESS\tDONE\tTITLE"],
      [["review", "list"], "ID\tSTATUS\tTYPE\tTASK\tREQUESTED BY\tREVIEWER\tTITLE"],
      [["mission", "list"], "ID\tCODENAME\tPERSONA\tROLE\tSTATUS\tSTARTED\tOBJECTIVE"],
      [["persona", "list", "--role", "engineer"], "NAME\tROLE\tMISSIONS\tACTIVE\tBIO"],
      [["persona", "activity"], "PERSONA\tROLE\tMISSIONS\tENDED\tTASKS COMPLETED"],
    ];
    for (const [argv, header] of headers) {
      const lines = (await p.ok(argv)).stdout.trimEnd().split("\n");
      expect.soft(lines[0], argv.join(" ")).toBe(header);
      expect.soft(lines.length, `${argv.join(" ")}: a header and rows`).toBeGreaterThan(1);
      const bare = (await p.ok(["--no-headers", ...argv])).stdout.trimEnd().split("\n");
      expect.soft(bare, `${argv.join(" ")} --no-headers`).toEqual(lines.slice(1));
      const terminal = (await p.ok(argv, { tty: true })).stdout.split("\n")[0]!;
      expect
        .soft(
          terminal
            .split(/\s{2,}/)
            .join("\t")
            .startsWith(header.split("\t")[0]!),
          `${argv.join(" ")} on a terminal`,
        )
        .toBe(true);
    }
    expect((await p.ok(["persona", "activity"])).stdout).toBe(
      "PERSONA\tROLE\tMISSIONS\tENDED\tTASKS COMPLETED\nHephaestus\tengineer\t1\t0\t0\n",
    );
  });

  it("an empty list says so on a terminal and prints only its header row when piped", async () => {
    const p = await initializedProject();
    const empties: [string[], RegExp][] = [
      [["review", "list"], /^No reviews: pantheon review create/],
      [["epic", "list"], /^No epics: pantheon epic create/],
      [["mission", "list"], /^No missions: pantheon summon ROLE/],
      [["task", "list"], /^No tasks match\./],
      [["task", "blocked"], /^Nothing is blocked\./],
      [["persona", "activity"], /^No activity yet/],
    ];
    for (const [argv, says] of empties) {
      expect.soft((await p.ok(argv, { tty: true })).stdout, argv.join(" ")).toMatch(says);
      const piped = (await p.ok(argv)).stdout;
      expect.soft(piped.split("\n").length, `${argv.join(" ")} piped: one header line`).toBe(2);
      expect.soft(piped, argv.join(" ")).toMatch(/^[A-Z][A-Z ]*\t/);
      expect.soft((await p.ok(["--no-headers", ...argv])).stdout, `${argv.join(" ")} --no-headers`).toBe("");
    }
  });

  it("task list at 80 columns leaves out columns empty in every row instead of cutting titles", async () => {
    const p = await initializedProject();
    const title = "Implement the token store with rotating refresh tokens";
    await p.ok(["task", "create", "--title", title, "--role", "eng"]);
    await p.ok(["task", "create", "--title", "Second", "--role", "eng"]);
    const r = await p.ok(["task", "list"], { tty: true, columns: 80 });
    expect(r.stdout).toContain(title);
    expect(r.stdout.split("\n")[0]).toMatch(/^ID\s+STATUS\s+TITLE$/);
    for (const line of r.stdout.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    // With a claim, its column comes back, and the title gives up only the width it needs.
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok([...HEPH, "task", "claim", "1"]);
    const claimed = await p.ok(["task", "list"], { tty: true, columns: 80 });
    expect(claimed.stdout.split("\n")[0]).toMatch(/^ID\s+STATUS\s+TITLE\s+CLAIMED BY$/);
    expect(claimed.stdout.split("\n")[1]).toMatch(
      /^ENG-M-0001 {2}UNDERWAY {2}Implement the token store with rotating refre… {2}Hephaestus$/,
    );
    expect(claimed.stdout.split("\n")[1]!.length).toBe(80);
  });
});

describe("task update --status UNDERWAY on one's own UNDERWAY task (point 6, DESIGN §1.4)", () => {
  it("✓ says it is already UNDERWAY; no commit; a note given is not lost silently", async () => {
    const p = await initializedProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["task", "create", "--title", "Schema", "--role", "eng"]);
    await p.ok([...HEPH, "task", "claim", "1"]);
    const before = stateRef(p.dir);
    const r = await p.ok([...HEPH, "task", "update", "ENG-M-0001", "--status", "underway"]);
    expect(r.stdout).toBe(
      '✓ ENG-M-0001 "Schema" [MEDIUM, engineer, UNDERWAY] is already UNDERWAY: nothing to change\n',
    );
    expect(r.stderr).toBe("");
    expect(stateRef(p.dir), "no commit").toBe(before);
    const j = await p.envelope([...HEPH, "task", "update", "1", "--status", "UNDERWAY"]);
    expect(j).toMatchObject({ kind: "task", data: { id: "ENG-M-0001", status: "UNDERWAY", claimedBy: "Hephaestus" } });
    const noted = await p.ok([...HEPH, "task", "update", "1", "--status", "UNDERWAY", "--notes", "still on it"]);
    expect(noted.stderr).toMatch(/the note was not recorded .*pantheon task note ENG-M-0001/);
    expect(stateRef(p.dir)).toBe(before);
    // Not the claimant: refused, as before.
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
    await p.refused(["--as", "Daedalus", "task", "update", "1", "--status", "UNDERWAY"], 1, /claimed by Hephaestus/);
  });
});

describe("handing off a task that is still blocked says so (point 6)", () => {
  it("the ✓ line is followed by what blocks it", async () => {
    const p = await initializedProject();
    await p.ok(["task", "create", "--title", "Schema", "--role", "eng"]);
    await p.ok(["task", "create", "--title", "Form", "--role", "eng", "--depends-on", "1"]);
    const r = await p.ok(["task", "handoff", "2", "--notes", "design in ADR-7"]);
    expect(r.stdout).toBe(
      '✓ Handed off ENG-M-0002 "Form" [MEDIUM, engineer, READY]\n  TODO → READY\n  note: still blocked by ENG-M-0001: READY, but no one can claim it until that is done (pantheon task prereqs ENG-M-0002)\n',
    );
    const free = await p.ok(["task", "handoff", "1", "--notes", "go"]);
    expect(free.stdout).not.toContain("blocked");
  });
});

describe("usage errors (point 5)", () => {
  it("a mistyped command gets did-you-mean, and the hint names the right command's help", async () => {
    const p = await initProject();
    const cases: [string[], string, string][] = [
      [["dashbaord"], "✗ unknown command 'dashbaord' (did you mean dashboard?)", "  hint: pantheon dashboard --help"],
      [["task", "lsit"], "✗ unknown command 'lsit' (did you mean list?)", "  hint: pantheon task list --help"],
      [
        ["--as", "Zeus", "task", "create", "--title", "x"],
        "✗ required option '--role <role>' not specified",
        "  hint: pantheon task create --help",
      ],
      [["-C", ".", "--json", "task", "list", "--stauts", "todo"], "", ""],
      [
        ["task", "list", "--stauts", "todo"],
        "✗ unknown option '--stauts' (did you mean --status?)",
        "  hint: pantheon task list --help",
      ],
      [["frobnicate"], "✗ unknown command 'frobnicate'", "  hint: pantheon --help lists the commands"],
      [
        ["--mission", "MSN-0001", "mission", "strat"],
        "✗ unknown command 'strat' (did you mean start?)",
        "  hint: pantheon mission start --help",
      ],
    ];
    const before = stateRef(p.dir);
    for (const [argv, first, hint] of cases) {
      const r = await p.run(argv);
      expect.soft(r.exitCode, argv.join(" ")).toBe(2);
      expect.soft(r.stdout, argv.join(" ")).toBe("");
      if (argv.includes("--json")) {
        expect.soft(JSON.parse(r.stderr).error, argv.join(" ")).toEqual({
          code: "E_USAGE",
          message: "unknown option '--stauts' (did you mean --status?)",
          hint: "pantheon task list --help",
        });
        continue;
      }
      expect.soft(r.stderr.split("\n").slice(0, 2), argv.join(" ")).toEqual([first, hint]);
    }
    expect(stateRef(p.dir)).toBe(before);
    await expectRefused(p, ["config", "sett", "roles", "engineer"], 2, [/did you mean set\?/]);
  });
});

describe("init's first-day message (point 4)", () => {
  it("Next names summon, task create, the dashboard and sync; a re-run does not repeat it", async () => {
    const p = await initializedProject();
    const r = await runCli(["init", "--yes"], { cwd: makeRepo() });
    expect(r.stdout).toMatch(
      /\nNext:\n {2}pantheon summon engineer +start an AI assistant as an engineer persona[^\n]*\n {2}pantheon task create --title "\.\.\." --role engineer\n {2}pantheon dashboard +[^\n]+\n {2}pantheon sync +share the state/,
    );
    expect((await p.ok(["init"])).stdout).not.toContain("Next:");
  });
});

describe("summon leaves no persona files behind (point 7)", () => {
  it("--dry-run makes no temporary folder; one file per role in the git dir, rewritten by the next dry run", async () => {
    const p = await initializedProject();
    const leftovers = () => readdirSync(tmpdir()).filter((f) => f.startsWith("pantheon-summon-"));
    const before = leftovers();
    const s = standIns(["claude"]);
    const dry = async () =>
      jsonData<{ personaFile: string }>(
        await p.ok(["summon", "engineer", "--assistant", "claude", "--dry-run", "--json"], { env: s.env() }),
        "summon",
      );
    const a = await dry();
    const b = await dry();
    expect(leftovers(), "no temporary folder is made").toEqual(before);
    expect(a.personaFile).toBe(b.personaFile);
    const human = await p.ok(["summon", "engineer", "--assistant", "claude", "--dry-run"], { env: s.env() });
    expect(human.stdout).toContain(`  persona:  ${a.personaFile} (from `);
    expect(human.stdout).toContain("the next dry run of engineer rewrites it)");
    expect(readdirSync(join(p.dir, ".git", "pantheon", "sessions"))).toEqual(["dry-run-engineer"]);
  });

  it("a summon removes its session folder when the assistant exits, and sweeps those of ENDED missions; unknown ones stay", async () => {
    const p = await initializedProject();
    const s = standIns(["claude"]);
    const dir = join(p.dir, ".git", "pantheon", "sessions");
    // A summon killed earlier left MSN-0001's file; a concurrent summon's mission is not yet known here.
    await p.ok(["mission", "start", "--role", "tester", "--persona", "Artemis"]);
    const m1 = await p.json(["mission", "show", "MSN-0001"], "mission");
    await p.ok(["mission", "end", "MSN-0001"]);
    mkdirSync(join(dir, `MSN-0001-${m1.codename}`), { recursive: true });
    writeFileSync(join(dir, `MSN-0001-${m1.codename}`, "persona.md"), "stale");
    mkdirSync(join(dir, "MSN-0042-other-clone"), { recursive: true });
    writeFileSync(join(dir, "MSN-0042-other-clone", "persona.md"), "another summon's");
    const r = await p.run(["summon", "engineer", "--assistant", "claude"], { env: s.env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.one("claude").personaFileContent, "the assistant read it while it ran").toContain("engineer");
    expect(readdirSync(dir).sort()).toEqual(["MSN-0042-other-clone"]);
    expect(
      existsSync(join(p.dir, ".pantheon", "personas", "engineer.md")),
      "the project's persona file is not touched",
    ).toBe(true);
  });
});
