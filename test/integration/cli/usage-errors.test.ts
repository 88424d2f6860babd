import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { makeRepo, readStateFile, stateRef, tempDir } from "../../helpers/repo.js";
import { expectFailure, expectRefused, HEPH, initProject, showTask } from "./fixture.js";

/** DESIGN §4.3: usage errors exit 2, domain failures 1; each says ✗ plus a hint; the ref never moves. */

interface UsageCase {
  name: string;
  argv: string[];
  says?: RegExp[];
}

const TITLE_201 = "x".repeat(201);

const usageCases: UsageCase[] = [
  { name: "unknown command", argv: ["frobnicate"], says: [/frobnicate/] },
  { name: "unknown subcommand", argv: ["task", "frobnicate"], says: [/frobnicate/] },
  { name: "unknown flag", argv: ["task", "list", "--wat"], says: [/--wat/] },
  {
    name: "unknown flag on a mutation",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--colour", "red"],
    says: [/--colour/],
  },
  { name: "unknown global flag", argv: ["--wat", "task", "list"], says: [/--wat/] },
  { name: "missing --role", argv: ["task", "create", "--title", "x"], says: [/--role/] },
  { name: "missing --title", argv: ["task", "create", "--role", "eng"], says: [/--title/] },
  { name: "missing --role for mission start", argv: ["mission", "start", "--persona", "Ares"], says: [/--role/] },
  { name: "missing --status for update", argv: ["task", "update", "1"], says: [/--status/] },
  { name: "missing task id", argv: ["task", "show"], says: [/id/] },
  { name: "bad role (task create)", argv: ["task", "create", "--title", "x", "--role", "wizard"], says: [/wizard/] },
  {
    name: "bad role (mission start)",
    argv: ["mission", "start", "--role", "wizard", "--persona", "Ares"],
    says: [/wizard/],
  },
  { name: "bad role (task list)", argv: ["task", "list", "--role", "wizard"], says: [/wizard/] },
  {
    name: "ambiguous role a (mission start)",
    argv: ["mission", "start", "--role", "a", "--persona", "Ares"],
    says: [/ambiguous/i, /administrator/, /architect/],
  },
  {
    name: "ambiguous role a (task create)",
    argv: ["task", "create", "--title", "x", "--role", "a"],
    says: [/ambiguous/i],
  },
  {
    name: "administrator as a task's role",
    argv: ["task", "create", "--title", "x", "--role", "administrator"],
    says: [/administrator/],
  },
  {
    name: "bad priority (task create)",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--priority", "urgent"],
    says: [/urgent/],
  },
  { name: "bad priority (task priority)", argv: ["task", "priority", "1", "urgent"], says: [/urgent/] },
  { name: "bad priority (task list)", argv: ["task", "list", "--priority", "zzz"], says: [/zzz/] },
  { name: "bad status (task update)", argv: ["task", "update", "1", "--status", "DOING"], says: [/DOING/] },
  { name: "bad status (task list)", argv: ["task", "list", "--status", "nope"], says: [/nope/] },
  { name: "bad status (task close)", argv: ["task", "close", "1", "--status", "wat"], says: [/wat/] },
  { name: "task close --status TODO", argv: ["task", "close", "1", "--status", "TODO"], says: [/TODO/] },
  ...["ENG-X-1", "../7", "7\nrm", "abc", "ENG-H-", "XYZ-H-0001", "0", "1.5", "tasks/01/1.json"].flatMap(
    (id): UsageCase[] =>
      [
        ["task", "show", id],
        [...HEPH, "task", "claim", id],
        ["task", "close", id],
        ["task", "note", id, "x"],
        ["task", "update", id, "--status", "REVIEW"],
      ].map((argv) => ({
        name: `bad id ${JSON.stringify(id)} (${argv.filter((a) => a !== id && a !== "x" && !/^(--|Hephaestus|REVIEW)/.test(a)).join(" ")})`,
        argv,
      })),
  ),
  {
    name: "bad id in --depends-on",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--depends-on", "../1"],
    says: [/\.\.\/1/],
  },
  { name: "bad mission id", argv: ["--mission", "../1", "task", "show", "1"] },
  { name: "bad persona name", argv: ["--as", "bad\nname", "task", "show", "1"] },
  { name: "empty title", argv: ["task", "create", "--title", "", "--role", "eng"], says: [/title/] },
  { name: "blank title", argv: ["task", "create", "--title", "  \t ", "--role", "eng"], says: [/title/] },
  { name: "201-character title", argv: ["task", "create", "--title", TITLE_201, "--role", "eng"], says: [/200/] },
  { name: "201-character title (task edit)", argv: ["task", "edit", "1", "--title", TITLE_201], says: [/200/] },
  { name: "--limit 0", argv: ["task", "list", "--limit", "0"], says: [/--limit/] },
  { name: "--limit x", argv: ["task", "list", "--limit", "x"], says: [/--limit/] },
  { name: "--offset x", argv: ["task", "list", "--offset", "x"], says: [/--offset/] },
  { name: "handoff without --notes", argv: ["task", "handoff", "1"], says: [/--notes/] },
  { name: "handoff with blank --notes", argv: ["task", "handoff", "1", "--notes", "  "], says: [/notes/] },
  { name: "unassign without --notes", argv: ["task", "unassign", "1"], says: [/--notes/] },
  { name: "reopen without --notes", argv: ["task", "reopen", "1"], says: [/--notes/] },
  {
    name: "close --status ABORTED without --notes",
    argv: ["task", "close", "1", "--status", "ABORTED"],
    says: [/notes/],
  },
  {
    name: "close --status aborted with blank --notes",
    argv: ["task", "close", "1", "--status", "aborted", "--notes", ""],
    says: [/notes/],
  },
];

/** Which table a case belongs to: one fresh repository per table keeps the suite quick. */
function topic(name: string): string {
  if (name.startsWith("unknown")) return "unknown commands and flags";
  if (name.startsWith("missing")) return "missing options and arguments";
  if (/role|administrator/.test(name)) return "roles";
  if (/priority|status/.test(name)) return "priorities and statuses";
  if (/title/.test(name)) return "titles";
  if (/limit|offset/.test(name)) return "--limit and --offset";
  if (/notes/.test(name)) return "notes the table requires";
  return "ids and names";
}

function byTopic(cases: UsageCase[]): [string, UsageCase[]][] {
  const groups = new Map<string, UsageCase[]>();
  for (const c of cases) groups.set(topic(c.name), [...(groups.get(topic(c.name)) ?? []), c]);
  return [...groups].map(([t, group]) => [`${t}: ${group.map((c) => c.name).join("; ")}`, group]);
}

describe("usage errors exit 2 with ✗, a hint, and no change", () => {
  // Usage errors never write, so a table's cases share one fresh repository (with a task 1 to act on).
  it.each(byTopic(usageCases))("%s", async (_title, group) => {
    const p = await initProject();
    await p.ok(["task", "create", "--title", "Existing", "--role", "engineer"]);
    const ref = stateRef(p.dir);
    for (const c of group) {
      const r = await expectRefused(p, c.argv, 2, c.says ?? [], { label: c.name, soft: true, refBefore: ref });
      expect
        .soft(r.stderr.split("\n").filter((l) => l !== "").length, `${c.name}: exactly a message and a hint`)
        .toBe(2);
      // The same error as one JSON document on stderr.
      const j = await p.run([...c.argv, "--json"]);
      expect.soft(j.exitCode, c.name).toBe(2);
      expect.soft(j.stdout, c.name).toBe("");
      expect.soft(j.stderr, c.name).toMatch(/^\{"error":\{"code":"E_USAGE",.*\}\n$/);
    }
    expect(stateRef(p.dir), "no usage error (nor its --json twin) moved the ref").toBe(ref);
  });
});

describe("a failed command prints only its error", () => {
  it("update --status BLOCKED without --notes that fails: no advice before the ✗ line, and --json stderr is one document", async () => {
    const p = await initProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
    await p.ok(["task", "create", "--title", "Existing", "--role", "engineer"]);
    await p.ok([...HEPH, "task", "claim", "1"]);
    for (const [argv, exit] of [
      [["task", "update", "../7", "--status", "BLOCKED"], 2],
      [["task", "update", "999", "--status", "BLOCKED"], 1],
      [["--as", "Daedalus", "task", "update", "1", "--status", "BLOCKED"], 1],
    ] as const) {
      await expectRefused(p, [...argv], exit, [], { soft: true });
      const j = await p.run([...argv, "--json"]);
      expect.soft(j.stderr, `pantheon ${argv.join(" ")} --json`).toMatch(/^\{"error":\{[^\n]*\}\n$/);
    }
  });
});

describe("hints", () => {
  it("the hint of an unknown command or flag is a command that works", async () => {
    const p = await initProject();
    for (const argv of [
      ["frobnicate"],
      ["task", "frobnicate"],
      ["task", "list", "--wat"],
      ["mission", "start", "--role", "eng", "--wat"],
    ]) {
      const r = await p.run(argv);
      expect(r.exitCode).toBe(2);
      const hint = /^ {2}hint: (pantheon .*)$/m.exec(r.stderr)?.[1];
      expect(hint, r.stderr).toBeDefined();
      const h = await p.run(hint!.split(" ").slice(1));
      expect.soft(h.exitCode, `pantheon ${argv.join(" ")}: its hint "${hint}" fails:\n${h.stderr}`).toBe(0);
    }
  });
});

describe("titles", () => {
  it("a 200-character title is accepted and stored exactly", async () => {
    const p = await initProject();
    const title = "é".repeat(199) + "!";
    const t = await p.json(["task", "create", "--title", title, "--role", "eng"], "task");
    expect(t.title).toBe(title);
    expect(JSON.parse(readStateFile(p.dir, "tasks/01/1.json")).title).toBe(title);
  });

  it("Unicode, quotes, tabs and control characters round-trip exactly through --json and the stored record", async () => {
    const p = await initProject();
    const title = `Café "double" 'single' \`tick\` \\ back\tslash 漢字 🚀 \u0001\u0007\u001b[31m\r\u202e end`;
    const description = `line 1\nline 2\t"x"\u001b]8;;http://evil\u0007`;
    const created = await p.json(
      ["task", "create", "--title", title, "--role", "eng", "--description", description],
      "task",
    );
    expect(created.title).toBe(title);
    const shown = await showTask(p, created.id);
    expect(shown.title).toBe(title);
    expect(shown.description).toBe(description);
    const listed = await p.json(["task", "list"], "tasks");
    expect(listed[0].title).toBe(title);
    const stored = JSON.parse(readStateFile(p.dir, "tasks/01/1.json"));
    expect(stored.title).toBe(title);
    expect(stored.description).toBe(description);
    // A note's text round-trips as well.
    const noted = await p.json(["task", "note", "1", title], "task");
    expect(noted.id).toBe("ENG-M-0001");
    expect((await showTask(p, 1)).notes.at(-1).text).toBe(title);
  });
});

describe("not found exits 1", () => {
  it("tasks and missions that do not exist", async () => {
    const p = await initProject();
    await p.ok(["task", "create", "--title", "Existing", "--role", "engineer"]);
    const cases: [string, string[], RegExp, NodeJS.ProcessEnv?][] = [
      ["task show 999", ["task", "show", "999"], /999/],
      ["task show ENG-H-0999", ["task", "show", "ENG-H-0999"], /ENG-H-0999/],
      ["task claim 999", [...HEPH, "task", "claim", "999"], /999/],
      ["task depend on a missing task", ["task", "depend", "1", "999"], /999/],
      [
        "task create --depends-on a missing task",
        ["task", "create", "--title", "x", "--role", "eng", "--depends-on", "999"],
        /999/,
      ],
      ["mission show MSN-0099", ["mission", "show", "MSN-0099"], /MSN-0099/],
      ["mission end MSN-0099", ["mission", "end", "MSN-0099"], /MSN-0099/],
      ["--mission MSN-0099", ["--mission", "MSN-0099", "task", "show", "1"], /MSN-0099/],
      ["PANTHEON_MISSION naming no mission", ["task", "note", "1", "x"], /MSN-0099/, { PANTHEON_MISSION: "MSN-0099" }],
    ];
    for (const [label, argv, says, env] of cases) {
      await expectRefused(p, argv, 1, [says], { label, soft: true, ...(env && { env }) });
      const j = await p.run([...argv, "--json"], env ? { env } : {});
      expect.soft(JSON.parse(j.stderr || "{}").error?.code, label).toBe("E_NOT_FOUND");
    }
  });
});

describe("finding the repository", () => {
  it("-C /nonexistent exits 1 naming the path", async () => {
    const dir = makeRepo();
    const r = await runCli(["-C", "/nonexistent/pantheon-nowhere", "task", "list"], { cwd: dir });
    expectFailure(r, { exitCode: 1, refBefore: null, dir, firstLine: [/\/nonexistent\/pantheon-nowhere/] });
  });

  it("outside a git repository every command exits 1 with the hint git init", async () => {
    const dir = tempDir();
    for (const argv of [
      ["task", "list"],
      ["task", "show", "1"],
      ["init", "--yes"],
      ["mission", "start", "--role", "eng"],
      [...HEPH, "task", "claim", "1"],
    ]) {
      const label = `pantheon ${argv.join(" ")}`;
      const r = await runCli(argv, { cwd: dir });
      expect.soft(r.exitCode, `${label}\n${r.stderr}`).toBe(1);
      expect.soft(r.stdout, label).toBe("");
      expect.soft(r.stderr, label).toMatch(/^✗ /);
      expect.soft(r.stderr.split("\n")[1], label).toMatch(/^ {2}hint: .*git init/);
    }
    expect(existsSync(join(dir, ".pantheon")), "nothing is created outside a repository").toBe(false);
  });

  it("before init every command but init exits 1 with the hint pantheon init", async () => {
    const dir = makeRepo();
    for (const argv of [
      ["task", "list"],
      ["task", "show", "1"],
      ["task", "create", "--title", "x", "--role", "eng"],
      ["mission", "start", "--role", "eng"],
      ["mission", "list"],
      ["persona", "list"],
    ]) {
      const r = await runCli(argv, { cwd: dir });
      expectFailure(r, { exitCode: 1, refBefore: null, dir, label: `pantheon ${argv.join(" ")}`, soft: true });
      expect.soft(r.stderr.split("\n")[1], argv.join(" ")).toMatch(/pantheon init/);
    }
  });

  it("works from a subdirectory and with -C from elsewhere", async () => {
    const p = await initProject();
    const sub = join(p.dir, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const a = await runCli(["task", "create", "--title", "From below", "--role", "eng"], { cwd: sub });
    expect(a.exitCode, a.stderr).toBe(0);
    const b = await runCli(["-C", p.dir, "task", "show", "1", "--json"], { cwd: tempDir() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).data.title).toBe("From below");
    const c = await runCli(["-C", "src/deep", "task", "list", "--json"], { cwd: p.dir });
    expect(JSON.parse(c.stdout).data).toHaveLength(1);
  });
});
