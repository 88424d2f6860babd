import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git, makeRepo, readStateFile, stateRef, tempDir } from "../../helpers/repo.js";
import { rewriteState } from "../../helpers/state-plumbing.js";
import { expectFailure, expectRefused, initProject, project, REF, writeOntoRef } from "./fixture.js";

/** Issue 15, point 2 and DESIGN §4.1: `config show | set KEY VALUE`, validated as init validates, one commit. */

function commits(dir: string): number {
  return Number(git(dir, "rev-list", "--count", REF).trim());
}

function stored(dir: string): any {
  return JSON.parse(readStateFile(dir, "project.json"));
}

describe("config set: the theme, the roles and the default assistant of a set-up project", () => {
  it("each change is one commit, stored camelCase, and what it changed is said; the same value again commits nothing", async () => {
    const p = await initProject();
    const cases: [string, string, RegExp, (s: any) => unknown, unknown][] = [
      [
        "customization.personas_theme",
        "constellations",
        /^✓ Set customization\.personas_theme: mythology → constellations\n/,
        (s) => s.customization.personasTheme,
        "constellations",
      ],
      [
        "roles",
        "engineer, TST,architect",
        /^✓ Set roles: administrator, architect, engineer, tester, documentarian, inspector, operator → engineer, tester, architect\n/,
        (s) => s.roles,
        ["engineer", "tester", "architect"],
      ],
      ["assistant", "codex", /^✓ Set assistant: none → codex\n/, (s) => s.assistant, "codex"],
      ["assistant", "none", /^✓ Set assistant: codex → none\n/, (s) => s.assistant, null],
      ["project.name", "Olympus", /^✓ Set project\.name: \S+ → Olympus\n/, (s) => s.name, "Olympus"],
      ["project.type", "rust", /^✓ Set project\.type: other → rust\n/, (s) => s.type, "rust"],
      [
        "project.description",
        "Home of the gods",
        /^✓ Set project\.description: "" → Home of the gods\n/,
        (s) => s.description,
        "Home of the gods",
      ],
      [
        "features.commit_guidelines",
        "false",
        /^✓ Set features\.commit_guidelines: true → false\n/,
        (s) => s.features.commitGuidelines,
        false,
      ],
      [
        "features.daemon_naming",
        "no",
        /^✓ Set features\.daemon_naming: true → false\n/,
        (s) => s.features.daemonNaming,
        false,
      ],
      [
        "customization.variables.team",
        "Core platform",
        /^✓ Set customization\.variables\.team: \(unset\) → Core platform\n/,
        (s) => s.customization.variables,
        { team: "Core platform" },
      ],
      [
        "customization.variables.team",
        "",
        /^✓ Set customization\.variables\.team: Core platform → \(unset\)\n/,
        (s) => s.customization.variables,
        {},
      ],
      [
        "worktree.copy",
        ".env,config/local.json",
        /^✓ Set worktree\.copy: \(none\) → \.env, config\/local\.json\n/,
        (s) => s.worktree.copy,
        [".env", "config/local.json"],
      ],
    ];
    for (const [key, value, says, read, expected] of cases) {
      const before = commits(p.dir);
      const r = await p.ok(["config", "set", key, value]);
      expect.soft(r.stdout, `${key} ${value}`).toMatch(says);
      expect.soft(commits(p.dir), `${key}: one commit`).toBe(before + 1);
      expect.soft(read(stored(p.dir)), key).toEqual(expected);
      expect.soft(git(p.dir, "log", "-1", "--format=%s", REF).trim(), key).toBe(`settings ${key} set by Director`);
    }
    const tip = stateRef(p.dir);
    const again = await p.ok(["config", "set", "assistant", "none"]);
    expect(again.stdout).toMatch(/^✓ Nothing to change: assistant already has that value\n/);
    expect(stateRef(p.dir), "an unchanged setting makes no commit").toBe(tip);
  });

  it("after a theme change, mission start and summon --dry-run name personas from the new theme", async () => {
    const p = await initProject();
    await p.ok(["config", "set", "customization.personas_theme", "constellations"]);
    const m = await p.json(["mission", "start", "--role", "engineer"], "mission");
    const theme = readFileSync(join(__dirname, "../../../templates/themes/constellations.yaml"), "utf8");
    expect(theme, `${m.persona} comes from the constellations theme`).toContain(`- ${m.persona}\n`);
    expect((await p.json(["persona", "suggest", "tester"], "persona")).theme).toBe("constellations");
    const dry = await p.json(["summon", "tester", "--assistant", "claude", "--dry-run"], "summon");
    expect(theme).toContain(`- ${dry.mission.persona}\n`);
  });

  it("a role added by config set gets its persona file (created, never rewritten), and says so", async () => {
    const p = project(makeRepo());
    await p.ok(["init", "--yes", "--config", configFile("roles: [engineer]\n")]);
    expect(existsSync(join(p.dir, ".pantheon/personas/tester.md"))).toBe(false);
    const r = await p.ok(["config", "set", "roles", "engineer,tester"]);
    expect(r.stdout).toMatch(
      /created \.pantheon\/personas\/tester\.md \(commit it: git add \.pantheon\/personas\/tester\.md\)/,
    );
    expect(existsSync(join(p.dir, ".pantheon/personas/tester.md"))).toBe(true);
    const json = await p.json(["config", "set", "features.commit_guidelines", "false"], "config");
    expect(json.created).toEqual([]);
    expect(
      existsSync(join(p.dir, ".pantheon/procedures/commit-guidelines.md")),
      "an existing file is left where it is",
    ).toBe(true);
  });

  it("config show prints the YAML that init --config reads back, and this clone's git config settings", async () => {
    const p = await initProject();
    await p.ok(["config", "set", "customization.variables.motto", "build: well # always"]);
    await p.ok(["config", "set", "roles", "engineer,tester"]);
    git(p.dir, "config", "pantheon.assistant", "gemini");
    const shown = await p.ok(["config", "show"]);
    expect(shown.stdout).toContain(
      'customization:\n  personas_theme: mythology\n  variables:\n    motto: "build: well # always"\n',
    );
    expect(shown.stdout).toContain("roles: [engineer, tester]\n");
    expect(shown.stdout).toContain("#   pantheon.assistant = gemini\n");
    const data = await p.json(["config", "show"], "config");
    expect(data.settings).toMatchObject({
      features: { pm_system: true, daemon_naming: true },
      roles: ["engineer", "tester"],
      customization: { variables: { motto: "build: well # always" } },
    });
    expect(data.clone).toEqual({ "pantheon.assistant": "gemini" });

    // The shown YAML sets up another repository the same way.
    const file = join(tempDir(), "pantheon.yaml");
    writeFileSync(file, shown.stdout);
    const other = project(makeRepo());
    await other.ok(["init", "--config", file]);
    const a = stored(p.dir);
    const b = stored(other.dir);
    for (const k of ["type", "description", "features", "customization", "roles", "assistant"])
      expect(b[k], k).toEqual(a[k]);
  });

  it("config show of a project.json a teammate crafted: no raw C1 control or bidi override reaches the terminal, and the YAML reads back to the exact text", async () => {
    const p = await initProject();
    // JSON.stringify escapes C0 controls but leaves C1 (U+009B is a CSI on many terminals), DEL and bidi overrides raw.
    const evil = "proj\u009b31m\u202eX\u007f\u001b[2J";
    rewriteState(p.dir, {
      "project.json": (r) => ({
        ...r,
        name: evil,
        description: evil,
        customization: { ...r.customization, variables: { k: evil } },
      }),
    });
    const shown = await p.ok(["config", "show"], { tty: true });
    expect(shown.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const file = join(tempDir(), "pantheon.yaml");
    writeFileSync(file, shown.stdout);
    const other = project(makeRepo());
    await other.ok(["init", "--config", file]);
    const b = stored(other.dir);
    expect([b.name, b.description, b.customization.variables.k]).toEqual([evil, evil, evil]);
  });
});

describe("config set refuses a bad value naming the allowed ones: exit 2, the ref untouched", () => {
  it("every key", async () => {
    const p = await initProject();
    const cases: [string[], RegExp[], RegExp?][] = [
      [
        ["customization.personas_theme", "startrek"],
        [/customization\.personas_theme must be an installed theme: constellations, mythology \(not "startrek"\)/],
        /config set customization\.personas_theme mythology/,
      ],
      [["customization.personas_theme", "../../etc"], [/installed theme: constellations, mythology/]],
      [["project.type", "java"], [/project\.type must be one of python, typescript, go, rust, other, not "java"/]],
      [["project.name", ""], [/project\.name must be a name of 1 to 200 characters/]],
      [["features.pm_system", "maybe"], [/features\.pm_system must be true or false, not "maybe"/]],
      [["features.pm_system", "false"], [/features\.pm_system cannot be false: task management is Pantheon's core/]],
      [["features.session_tracking", "off"], [/features\.session_tracking cannot be false: mission tracking/]],
      [["roles", "engineer,wizard"], [/roles\.1: Unknown role "wizard"/], /administrator, architect, engineer/],
      [["assistant", "copilot"], [/assistant must be one of claude, opencode, codex, gemini, or null, not "copilot"/]],
      [
        ["features.commitGuidelines", "true"],
        [/Unknown setting "features\.commitGuidelines" \(did you mean features\.commit_guidelines\?\)/],
        /keys: project\.\{name,type,description\}/,
      ],
      [["colour", "blue"], [/Unknown setting "colour"/]],
      [
        ["worktree.setup", "npm ci"],
        [/worktree\.setup is not a project setting/],
        /\.pantheon\/worktree-setup|pantheon\.worktreeSetup/,
      ],
      [["customization.variables", "x"], [/Set one variable at a time/]],
    ];
    const before = stateRef(p.dir);
    for (const [[key, value], says, hint] of cases) {
      const r = await expectRefused(p, ["config", "set", key!, value!], 2, says, {
        refBefore: before,
        soft: true,
        label: `config set ${key} ${value}`,
      });
      if (hint) expect.soft(r.stderr.split("\n")[1], `hint of ${key}`).toMatch(hint);
    }
    expect(stateRef(p.dir)).toBe(before);
  });
});

describe("init and the theme (issue 15, point 2)", () => {
  it("init --config with a theme that is not installed is refused and writes nothing", async () => {
    const dir = makeRepo();
    const r = await project(dir).run(["init", "--config", configFile("customization:\n  personas_theme: startrek\n")]);
    expectFailure(r, {
      exitCode: 2,
      refBefore: null,
      dir,
      firstLine: [/installed theme: constellations, mythology \(not "startrek"\)/],
    });
    expect(existsSync(join(dir, ".pantheon"))).toBe(false);
  });

  it("init --config with a fixed file on a set-up project applies it; a bad one is refused with the ref untouched", async () => {
    const p = await initProject();
    const before = stateRef(p.dir);
    await expectRefused(p, ["init", "--config", configFile("customization:\n  personas_theme: startrek\n")], 2, [
      /not "startrek"/,
    ]);
    expect(stateRef(p.dir)).toBe(before);
    const r = await p.ok(["init", "--config", configFile("customization:\n  personas_theme: constellations\n")]);
    expect(r.stdout).toMatch(
      /applied .*pantheon\.yaml:\n {2}customization\.personas_theme: mythology → constellations\n/,
    );
    expect(stored(p.dir).customization.personasTheme).toBe("constellations");
  });

  it("doctor reports a project theme that is not installed (exit 1, with the command that fixes it)", async () => {
    const p = await initProject();
    expect((await p.ok(["doctor"])).stdout).toMatch(/State is healthy/);
    const project = stored(p.dir);
    writeOntoRef(p.dir, {
      "project.json": `${JSON.stringify({ ...project, customization: { ...project.customization, personasTheme: "startrek" } }, null, 2)}\n`,
    });
    const r = await p.run(["doctor"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(
      /✗ the persona theme "startrek" is not installed \(installed: constellations, mythology\): mission start without --persona and summon fail\n {2}fix: pantheon config set customization\.personas_theme mythology/,
    );
    await p.ok(["config", "set", "customization.personas_theme", "mythology"]);
    expect((await p.ok(["doctor"])).stdout).toMatch(/State is healthy/);
  });
});

describe("features: each switch does what its name says", () => {
  it("daemon_naming off: personas are named after their role (Engineer, Engineer 2), --persona still wins", async () => {
    const p = project(makeRepo());
    await p.ok(["init", "--config", configFile("features:\n  daemon_naming: false\n")]);
    expect((await p.json(["mission", "start", "--role", "engineer"], "mission")).persona).toBe("Engineer");
    expect((await p.json(["mission", "start", "--role", "eng"], "mission")).persona).toBe("Engineer 2");
    expect(await p.json(["persona", "suggest", "engineer"], "persona")).toMatchObject({
      name: "Engineer 3",
      naming: "role",
    });
    expect((await p.json(["mission", "start", "--role", "tester", "--persona", "Artemis"], "mission")).persona).toBe(
      "Artemis",
    );
    await p.ok(["mission", "end", "MSN-0001"]);
    expect(
      (await p.json(["mission", "start", "--role", "engineer"], "mission")).persona,
      "a name frees up when its mission ends",
    ).toBe("Engineer");
    await p.ok(["config", "set", "features.daemon_naming", "true"]);
    expect(await p.json(["persona", "suggest", "engineer"], "persona")).toMatchObject({
      naming: "theme",
      theme: "mythology",
    });
  });

  it("commit_guidelines chooses whether the commit-guidelines procedure is written", async () => {
    const off = project(makeRepo());
    await off.ok(["init", "--config", configFile("features:\n  commit_guidelines: false\n")]);
    expect(existsSync(join(off.dir, ".pantheon/procedures/commit-guidelines.md"))).toBe(false);
    const r = await off.ok(["config", "set", "features.commit_guidelines", "true"]);
    expect(r.stdout).toMatch(/created \.pantheon\/procedures\/commit-guidelines\.md/);
    expect(existsSync(join(off.dir, ".pantheon/procedures/commit-guidelines.md"))).toBe(true);
  });

  it("init --config refuses pm_system or session_tracking false, naming the key; nothing is written", async () => {
    for (const key of ["pm_system", "session_tracking"]) {
      const dir = makeRepo();
      const r = await project(dir).run(["init", "--config", configFile(`features:\n  ${key}: false\n`)]);
      expectFailure(r, {
        exitCode: 2,
        refBefore: null,
        dir,
        firstLine: [new RegExp(`features\\.${key} cannot be false`)],
        label: key,
      });
      expect(existsSync(join(dir, ".pantheon"))).toBe(false);
    }
  });
});

describe("config errors name the allowed values (issue 15, point 5)", () => {
  it("init --config: a wrong type or value says what the key accepts", async () => {
    const cases: [string, RegExp][] = [
      ["project:\n  type: java\n", /project\.type must be one of python, typescript, go, rust, other, not "java"/],
      ["features:\n  daemon_naming: maybe\n", /features\.daemon_naming must be true or false, not "maybe"/],
      ["assistant: copilot\n", /assistant must be one of claude, opencode, codex, gemini, or null, not "copilot"/],
      ["roles: engineer\n", /roles must be a list of roles among administrator, architect/],
      ['worktree:\n  copy: [""]\n', /worktree\.copy\.0 is not valid: worktree\.copy must be a list of paths/],
      [
        "customization:\n  variables:\n    team: [a, b]\n",
        /customization\.variables\.team is not valid: customization\.variables must be a map of names to text, numbers or true\/false \(got a list\)/,
      ],
    ];
    const dir = makeRepo();
    for (const [yaml, says] of cases) {
      const r = await project(dir).run(["init", "--config", configFile(yaml)]);
      expectFailure(r, { exitCode: 2, refBefore: null, dir, firstLine: [says], label: yaml, soft: true });
      expect.soft(r.stderr, yaml).not.toMatch(/Invalid input/);
    }
  });
});

function configFile(yaml: string): string {
  const file = join(tempDir(), "pantheon.yaml");
  writeFileSync(file, yaml);
  return file;
}
