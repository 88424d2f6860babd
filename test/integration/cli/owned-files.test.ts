import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo, stateRef } from "../../helpers/repo.js";
import { project } from "./fixture.js";

/** Issue 15, point 3: init --force rewrites only files Pantheon wrote, and says what it leaves alone. */

const MINE = "My own /summon: deploy the staging stack.\n";

function write(dir: string, rel: string, text: string): void {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), "utf8");

describe("files Pantheon wrote carry a pantheon:generated line, in a comment the model never sees", () => {
  it("Markdown commands and skills in their frontmatter, TOML as a comment, persona files as an HTML comment the persona text leaves out", async () => {
    const p = project(makeRepo());
    await p.ok(["init", "--yes"]);
    for (const rel of [
      ".claude/commands/summon.md",
      ".opencode/commands/dismiss.md",
      ".agents/skills/pantheon/SKILL.md",
    ]) {
      expect(read(p.dir, rel), rel).toMatch(
        /^---\n# pantheon:generated \(pantheon init --force rewrites this file; delete this line to keep it as your own\)\n[a-z-]+: "/,
      );
    }
    expect(read(p.dir, ".gemini/commands/summon.toml")).toMatch(/^# pantheon:generated .*\ndescription = "/);
    expect(read(p.dir, ".pantheon/personas/engineer.md")).toMatch(
      /^<!-- pantheon:generated .* -->\n# \{\{persona\}\}, engineer of /,
    );
    const dry = await p.json(["summon", "engineer", "--assistant", "claude", "--dry-run"], "summon");
    expect(readFileSync(dry.personaFile, "utf8"), "the persona text handed to the model").not.toContain(
      "pantheon:generated",
    );
  });
});

describe("a user's own file at a path Pantheon installs", () => {
  it("plain init creates the rest, keeps the user's file and says it stands in for Pantheon's command", async () => {
    const dir = makeRepo();
    write(dir, ".claude/commands/summon.md", MINE);
    const p = project(dir);
    const r = await p.ok(["init", "--yes"]);
    expect(read(dir, ".claude/commands/summon.md")).toBe(MINE);
    expect(r.stdout).toContain(
      "  ! .claude/commands/summon.md: yours (no pantheon:generated line): never overwritten; it stands in for Pantheon's /summon in claude (rename it to get Pantheon's)\n",
    );
    const j = await p.json(["init"], "init");
    expect(j.leftAlone).toEqual([
      {
        path: ".claude/commands/summon.md",
        reason: expect.stringMatching(/stands in for Pantheon's \/summon in claude/),
      },
    ]);
  });

  it("init --force rewrites Pantheon's files (edited ones too), never the user's, and names each file it leaves alone", async () => {
    const dir = makeRepo();
    const p = project(dir);
    await p.ok(["init", "--yes"]);
    write(dir, ".claude/commands/summon.md", MINE);
    write(dir, ".gemini/commands/dismiss.toml", 'description = "mine"\nprompt = "mine"\n');
    const edited = read(dir, ".pantheon/personas/engineer.md").replace("You implement:", "You implement, carefully:");
    write(dir, ".pantheon/personas/engineer.md", edited);
    // A file whose owner deleted the mark is the user's from then on.
    const claimed = read(dir, ".opencode/commands/summon.md")
      .replace(/^# pantheon:generated.*\n/m, "")
      .replace("Turn this session", "Please turn this session");
    write(dir, ".opencode/commands/summon.md", claimed);
    const ref = stateRef(dir);

    const plain = await p.ok(["init"]);
    expect(plain.stdout).toContain(
      "  ! .pantheon/personas/engineer.md: Pantheon's, from another version or edited: pantheon init --force rewrites it\n",
    );

    const r = await p.ok(["init", "--force"]);
    expect(read(dir, ".claude/commands/summon.md"), "the user's file").toBe(MINE);
    expect(read(dir, ".gemini/commands/dismiss.toml")).toBe('description = "mine"\nprompt = "mine"\n');
    expect(read(dir, ".opencode/commands/summon.md")).toBe(claimed);
    expect(read(dir, ".pantheon/personas/engineer.md"), "Pantheon's own, edited, is rewritten").not.toContain(
      "carefully",
    );
    for (const [path, command] of [
      [".claude/commands/summon.md", "/summon in claude"],
      [".gemini/commands/dismiss.toml", "/dismiss in gemini"],
      [".opencode/commands/summon.md", "/summon in opencode"],
    ]) {
      expect(r.stdout).toContain(
        `  ! ${path}: yours (no pantheon:generated line): never overwritten; it stands in for Pantheon's ${command}`,
      );
    }
    const j = await p.json(["init", "--force"], "init");
    expect(j.updated, "nothing left to rewrite").toEqual([]);
    expect(j.leftAlone.map((f: { path: string }) => f.path).sort()).toEqual([
      ".claude/commands/summon.md",
      ".gemini/commands/dismiss.toml",
      ".opencode/commands/summon.md",
    ]);
    expect(stateRef(dir), "files only: the state ref never moves").toBe(ref);
  });

  it("doctor reports a user's file that shadows a Pantheon command (a warning: the state is still healthy)", async () => {
    const dir = makeRepo();
    const p = project(dir);
    await p.ok(["init", "--yes"]);
    write(dir, ".claude/commands/dismiss.md", MINE);
    write(dir, ".agents/skills/pantheon/SKILL.md", "---\nname: pantheon\ndescription: mine\n---\nmine\n");
    // One line for the kind, naming both; --verbose shows each with its fix.
    expect((await p.ok(["doctor"])).stdout).toContain(
      "! 2 project files standing in for Pantheon's: .claude/commands/dismiss.md, .agents/skills/pantheon/SKILL.md\n",
    );
    const r = await p.ok(["doctor", "--verbose"]);
    expect(r.stdout).toContain(
      "! .claude/commands/dismiss.md is not Pantheon's: it stands in for Pantheon's /dismiss in claude\n  fix: rename it if you want Pantheon's, then run pantheon init",
    );
    expect(r.stdout).toContain(
      "! .agents/skills/pantheon/SKILL.md is not Pantheon's: it stands in for Pantheon's $pantheon in codex",
    );
    const data = await p.json(["doctor"], "doctor");
    expect(data.ok).toBe(true);
    expect(
      data.findings
        .filter((f: { code: string }) => f.code === "W_SHADOWED")
        .map((f: { subject: string }) => f.subject)
        .sort(),
    ).toEqual([".agents/skills/pantheon/SKILL.md", ".claude/commands/dismiss.md"]);
  });
});

describe("a CLAUDE.md of the user's", () => {
  it("without an @AGENTS.md import: init and doctor say Claude will not see Pantheon's block; with one, nothing is said", async () => {
    const dir = makeRepo();
    write(dir, "CLAUDE.md", "# House rules\n\nUse tabs.\n");
    const p = project(dir);
    const r = await p.ok(["init", "--yes"]);
    expect(read(dir, "CLAUDE.md")).toBe("# House rules\n\nUse tabs.\n");
    expect(r.stdout).toContain(
      "  ! CLAUDE.md: your CLAUDE.md does not import AGENTS.md, so Claude will not see Pantheon's block: add a line @AGENTS.md to it\n",
    );
    expect((await p.ok(["doctor"])).stdout).toMatch(/! CLAUDE\.md: your CLAUDE\.md does not import AGENTS\.md/);

    write(dir, "CLAUDE.md", "# House rules\n\n@AGENTS.md\n");
    expect((await p.ok(["init"])).stdout).not.toContain("CLAUDE.md:");
    expect((await p.ok(["doctor"])).stdout).not.toContain("CLAUDE.md");
  });
});
