import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { git, makeRepo, readStateFile, stateRef, tempDir } from "../../helpers/repo.js";
import { expectFailure, project } from "./fixture.js";
import { SCHEMA_VERSION } from "../../../src/domain/constants.js";

/** DESIGN §1.3 (the YAML config), §2.1 (canonical records) and §5 (init). */

function configFile(yaml: string): string {
  const file = join(tempDir(), "pantheon.yaml");
  writeFileSync(file, yaml);
  return file;
}

/** A refused init writes nothing: no ref, no .pantheon/. */
async function expectInitRefused(
  argv: string[],
  says: RegExp[],
  o: { env?: NodeJS.ProcessEnv; tty?: boolean; dir?: string; label?: string } = {},
) {
  const dir = o.dir ?? makeRepo();
  const r = await runCli(argv, { cwd: dir, ...(o.env && { env: o.env }), ...(o.tty !== undefined && { tty: o.tty }) });
  expectFailure(r, { exitCode: 2, refBefore: null, dir, firstLine: says, ...(o.label && { label: o.label }) });
  expect(existsSync(join(dir, ".pantheon")), ".pantheon/ must not be created").toBe(false);
  expect(git(dir, "for-each-ref", "refs/coordination").trim()).toBe("");
  return r;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

describe("init --config refuses a bad file and writes nothing", () => {
  it("names the key or the problem: project.type, project.colour, unknown keys, wrong types, roles, YAML, a missing file", async () => {
    const cases: [string, string, RegExp][] = [
      ["project.type: java", configFile("project:\n  name: demo\n  type: java\n"), /project\.type/],
      ["unknown key project.colour", configFile("project:\n  name: demo\n  colour: blue\n"), /project\.colour/],
      ["unknown top-level key", configFile("projekt:\n  name: demo\n"), /projekt/],
      ["wrong type features.pm_system", configFile("features:\n  pm_system: maybe\n"), /features\.pm_system/],
      ["unknown role", configFile("roles: [engineer, wizard]\n"), /roles.*wizard|wizard.*roles/],
      ["invalid YAML", configFile("project: [unclosed\n"), /YAML|pantheon\.yaml/],
      ["a missing file", "/nonexistent/pantheon.yaml", /\/nonexistent\/pantheon\.yaml/],
      // Schema 2: no command lives in the shared state; the message says where it goes instead.
      ["worktree.setup", configFile("worktree:\n  setup: npm ci\n"), /worktree\.setup is no longer a project setting/],
    ];
    // A refused init writes nothing, so the cases can share one repository.
    const dir = makeRepo();
    for (const [label, file, says] of cases) {
      const r = await runCli(["init", "--config", file], { cwd: dir });
      expectFailure(r, { exitCode: 2, refBefore: null, dir, firstLine: [says], label, soft: true });
      const j = await runCli(["init", "--json", "--config", file], { cwd: dir });
      expect.soft(j.stdout, label).toBe("");
      expect.soft(JSON.parse(j.stderr || "{}").error?.code, label).toBe("E_USAGE");
    }
    expect(existsSync(join(dir, ".pantheon")), ".pantheon/ must not be created").toBe(false);
    expect(git(dir, "for-each-ref", "refs/coordination").trim()).toBe("");
  });
});

describe("init --config stores a valid config camelCase", () => {
  it("maps every snake_case key and stores canonical JSON", async () => {
    const dir = makeRepo();
    const file = configFile(
      [
        "project:",
        "  name: Olympus",
        "  type: rust",
        '  description: "Mount \\"Olympus\\" — home of the gods"',
        "features:",
        "  pm_system: true",
        "  session_tracking: true",
        "  commit_guidelines: false",
        "  daemon_naming: false",
        "customization:",
        "  personas_theme: mythology",
        "  variables:",
        "    team_size: 7",
        "    motto: build well",
        "roles: [Engineer, tst, architect]",
        "assistant: claude",
        "worktree:",
        "  copy: [.env, config/local.toml]",
        "",
      ].join("\n"),
    );
    const r = await runCli(["init", "--config", file], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ /);
    const text = readStateFile(dir, "project.json");
    const stored = JSON.parse(text);
    expect(stored).toMatchObject({
      name: "Olympus",
      type: "rust",
      description: 'Mount "Olympus" — home of the gods',
      features: { pmSystem: true, sessionTracking: true, commitGuidelines: false, daemonNaming: false },
      customization: { personasTheme: "mythology", variables: { team_size: "7", motto: "build well" } },
      roles: ["engineer", "tester", "architect"],
      assistant: "claude",
      worktree: { copy: [".env", "config/local.toml"] },
      schemaVersion: SCHEMA_VERSION,
    });
    expect(stored.worktree, "no set-up command in the shared state (schema 2)").toEqual({
      copy: [".env", "config/local.toml"],
    });
    for (const key of ["pm_system", "session_tracking", "commit_guidelines", "daemon_naming", "personas_theme"]) {
      expect(text, `stored keys are camelCase (${key})`).not.toContain(`"${key}"`);
    }
    // Canonical JSON (DESIGN §2.1): sorted keys, 2-space indent, trailing newline.
    expect(text).toBe(`${JSON.stringify(sortKeys(stored), null, 2)}\n`);
    // The root commit holds project.json and counters.json, nothing else.
    expect(git(dir, "ls-tree", "--name-only", "refs/coordination/main").trim().split("\n")).toEqual([
      "counters.json",
      "project.json",
    ]);
    expect(git(dir, "rev-list", "--count", "refs/coordination/main").trim()).toBe("1");
    expect(JSON.parse(readStateFile(dir, "counters.json"))).toEqual({ tasks: 0, epics: 0, missions: 0, reviews: 0 });
  });

  it("a config path is read relative to the directory the command runs in", async () => {
    const dir = makeRepo();
    writeFileSync(join(dir, "pantheon.yaml"), "project:\n  name: Relative\n  type: go\n");
    const p = project(dir);
    const data = await p.json(["init", "--config", "pantheon.yaml"], "init");
    expect(data.project).toMatchObject({ name: "Relative", type: "go" });
    expect(JSON.parse(readStateFile(dir, "project.json")).type).toBe("go");
  });
});

describe("init takes what the project already says", () => {
  it("the description of package.json, Cargo.toml or pyproject.toml is the default (one line, no control characters)", async () => {
    const cases: Array<[file: string, text: string, description: string]> = [
      [
        "package.json",
        JSON.stringify({ name: "x", description: "A tool\u001b[31m to ship\n things" }),
        "A tool [31m to ship things",
      ],
      [
        "Cargo.toml",
        '[workspace]\n\n[package]\nname = "x"\ndescription = "Fast \\"search\\" for logs" # crate\n',
        'Fast "search" for logs',
      ],
      [
        "pyproject.toml",
        "[build-system]\nrequires = []\n[project]\nname = 'x'\ndescription = 'Data pipelines'\n",
        "Data pipelines",
      ],
      ["go.mod", "module example.com/x\n\ngo 1.22\n", ""],
    ];
    for (const [file, text, description] of cases) {
      const dir = makeRepo();
      writeFileSync(join(dir, file), text);
      const data = await project(dir).json(["init", "--yes"], "init");
      expect(data.project.description, file).toBe(description);
    }
  });

  it("an unknown theme in the --config file is fixed in the file: the hint names its key and the installed themes", async () => {
    const file = configFile("customization:\n  personas_theme: klingon\n");
    const r = await expectInitRefused(
      ["init", "--config", file],
      [/customization\.personas_theme must be an installed theme: constellations, mythology \(not "klingon"\)/],
    );
    const hint = r.stderr.split("\n")[1]!;
    expect(hint).toContain(
      `in ${file}, set personas_theme (under customization:) to an installed theme (constellations, mythology)`,
    );
    expect(hint).not.toContain("config set");
  });
});

describe("init's report on a terminal", () => {
  it("wraps at word boundaries to the terminal's width, keeping commands whole; piped, each line stays one", async () => {
    const dir = makeRepo();
    const r = await runCli(["init", "--yes"], { cwd: dir, tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const commands = /^ {2}(git add |writable_roots = )/;
    for (const line of lines) if (!commands.test(line)) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines).toContain("Commit these files:");
    expect(lines.some((l) => /^ {2}git add .* && git commit -m "Set up Pantheon"$/.test(l))).toBe(true);
    // The prose reads the same once its lines are joined: no word was cut.
    const text = lines
      .map((l) => l.trim())
      .join(" ")
      .replace(/ +/g, " ");
    expect(text).toContain(
      "Teammates: after your first pantheon sync, they git clone and run any pantheon command: it takes the state from the remote (a plain git clone or pull brings none).",
    );
    expect(text).toContain(
      "pantheon sync share the state with teammates through your git remote (publish it once now)",
    );
    // Continuations sit under the text they continue.
    const summon = lines.findIndex((l) => l.startsWith("  pantheon summon engineer"));
    expect(lines[summon + 1]).toMatch(/^ {32}\S/);

    const piped = await runCli(["init", "--yes"], { cwd: makeRepo(), columns: 80 });
    expect(piped.stdout).toContain(
      "\nTeammates: after your first pantheon sync, they git clone and run any pantheon command: it takes the state from the remote (a plain git clone or pull brings none).\n",
    );
  });
});

describe("init without answers", () => {
  it("without a terminal and without flags, exits 2 naming what is missing", async () => {
    const r = await expectInitRefused(["init"], [/name/, /type/, /description/, /features/, /roles/]);
    expect(r.stderr.split("\n")[1]).toMatch(/--yes|--config/);
  });

  it("with a terminal but an assistant or CI marker set, it does not prompt: exit 2", async () => {
    const dir = makeRepo();
    for (const marker of ["CLAUDECODE", "GEMINI_CLI", "CODEX_THREAD_ID", "OPENCODE", "AGENT", "CI"]) {
      await expectInitRefused(["init"], [/name/], { tty: true, env: { [marker]: "1" }, dir, label: marker });
    }
  });
});

describe("re-running init", () => {
  it("reports what exists, adds what is missing, keeps user edits, and does not move the ref", async () => {
    const dir = makeRepo();
    const p = project(dir);
    const first = await p.json(["init", "--yes"], "init");
    expect(first.stateCreated).toBe(true);
    expect(first.created).toContain(".pantheon/README.md");
    const ref = stateRef(dir);
    const readme = join(dir, ".pantheon", "README.md");
    writeFileSync(readme, "my own notes\n");
    rmSync(join(dir, ".pantheon", "planning"), { recursive: true });

    const again = await p.ok(["init", "--yes"]);
    expect(again.stdout).toMatch(/^✓ .*already/);
    // Both are reported (paths may be grouped by folder): what was kept and what was added back.
    expect(again.stdout).toMatch(/^ +kept\s+.*\.pantheon\//m);
    expect(again.stdout, "the re-created .pantheon/planning/ is reported").toMatch(
      /^ +created\s+.*\.pantheon\/(planning\/)?/m,
    );
    expect(stateRef(dir)).toBe(ref);
    expect(readFileSync(readme, "utf8")).toBe("my own notes\n");

    const json = await p.json(["init", "--yes"], "init");
    expect(json.stateCreated).toBe(false);
    expect(json.created).toEqual([]);
    expect(json.existing).toEqual(
      expect.arrayContaining([
        ".pantheon/README.md",
        ".pantheon/planning/",
        ".pantheon/personas/",
        ".pantheon/procedures/",
      ]),
    );
    expect(stateRef(dir)).toBe(ref);
  });

  it("a different --config on re-run applies the file's keys as one commit and says which; the same file again changes nothing", async () => {
    const dir = makeRepo();
    const p = project(dir);
    await p.ok(["init", "--yes"]);
    await p.ok(["config", "set", "customization.variables.team", "Core"]);
    const ref = stateRef(dir);
    const file = configFile("project:\n  name: Other\n  type: python\n");
    const r = await p.ok(["init", "--config", file]);
    expect(r.stdout).toMatch(
      /^✓ Pantheon is already set up for "Other"; applied .*pantheon\.yaml:\n {2}project\.name: \S+ → Other\n {2}project\.type: other → python\n/,
    );
    expect(git(dir, "rev-list", "--count", `${ref}..refs/coordination/main`).trim(), "one commit").toBe("1");
    const stored = JSON.parse(readStateFile(dir, "project.json"));
    expect(stored).toMatchObject({
      name: "Other",
      type: "python",
      customization: { personasTheme: "mythology", variables: { team: "Core" } },
    });
    const after = stateRef(dir);
    const again = await p.ok(["init", "--config", file]);
    expect(again.stdout).toMatch(/pantheon\.yaml changes no setting/);
    expect(stateRef(dir), "nothing to apply: no commit").toBe(after);
  });

  it("init leaves the index, HEAD and tracked files alone", async () => {
    const dir = makeRepo();
    const head = git(dir, "rev-parse", "HEAD").trim();
    await project(dir).ok(["init", "--yes"]);
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
    expect(git(dir, "diff", "--cached", "--name-only")).toBe("");
    const status = git(dir, "status", "--porcelain");
    expect(status).toContain("?? .pantheon/\n");
    for (const line of status.trimEnd().split("\n")) expect(line, "init only adds untracked files").toMatch(/^\?\? /);
  });
});
