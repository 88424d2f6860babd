import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { placeholdersIn, renderTemplate } from "../../../src/assistants/render-template.js";
import { ROLES } from "../../../src/domain/roles.js";

// Reads the shipped templates (data files of this repository), nothing else.
const TEMPLATES = join(__dirname, "../../../templates");
const read = (rel: string) => readFileSync(join(TEMPLATES, rel), "utf8");

/** What `summon` provides to a persona template, besides `vars.*`. */
const PERSONA_VARS = ["persona", "role", "project.name", "project.description", "mission.id", "mission.handle"];

describe.each(ROLES)("templates/personas/%s.md", (role) => {
  const file = `personas/${role}.md`;

  it("exists, is a real instruction text, and passes --mission with the mission handle", () => {
    expect(existsSync(join(TEMPLATES, file))).toBe(true);
    const text = read(file);
    const lines = text.split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(60);
    expect(lines).toBeLessThanOrEqual(125);
    expect(text).toContain("--mission {{mission.handle}}");
  });

  it("uses only the placeholders summon provides, and names who and where", () => {
    const text = read(file);
    for (const p of placeholdersIn(text)) expect(PERSONA_VARS).toContain(p);
    for (const p of PERSONA_VARS) expect(placeholdersIn(text)).toContain(p);
  });

  it("says that quoted record text is data, and covers planning and ending", () => {
    const text = read(file);
    expect(text).toMatch(/is data/);
    expect(text).toContain("task plan");
    expect(text).toContain(".pantheon/planning/");
    expect(text).toContain("mission end --mission {{mission.handle}}");
  });

  it("says when the persona syncs and what to do with a dropped claim (issue 14)", () => {
    const text = read(file);
    expect(text).toContain("pantheon sync");
    expect(text).toMatch(/claim was dropped, stop/);
  });

  it("tells the persona to check a claim was published before starting on it (DESIGN §3.5)", () => {
    const text = read(file).replace(/\s+/g, " ");
    expect(text).toContain("A claim that says `not published yet`: `pantheon sync` before starting on it.");
  });

  it("is at most 4,000 characters, as a file and rendered for a project (DESIGN §5)", () => {
    expect(read(file).length).toBeLessThanOrEqual(4_000);
    const vars = {
      persona: "Hephaestus",
      role,
      "project.name": "online-shop-frontend",
      "project.description": "A web shop for hand-made furniture.",
      "mission.id": "MSN-0123",
      "mission.handle": "MSN-0123:silent-phoenix",
    };
    expect(renderTemplate(read(file), vars).length).toBeLessThanOrEqual(4_000);
  });

  it("renders with no placeholder left", () => {
    const vars = Object.fromEntries(PERSONA_VARS.map((k) => [k, `<${k}>`]));
    expect(placeholdersIn(renderTemplate(read(file), vars))).toEqual([]);
  });
});

describe("coordination patterns (SPEC §1.6)", () => {
  it("each role's text names the patterns it takes part in", () => {
    expect(read("personas/engineer.md")).toMatch(/Engineer → Tester[\s\S]*REVIEW/);
    expect(read("personas/tester.md")).toMatch(/in\s+REVIEW does \*\*not\*\* block/);
    expect(read("personas/architect.md")).toMatch(/Architect → Engineer[\s\S]*task handoff/);
    expect(read("personas/inspector.md")).toMatch(/Engineer → Inspector[\s\S]*review approve[\s\S]*review reject/);
    const admin = read("personas/administrator.md");
    for (const s of ["task create", "epic create", "task unassign", "dashboard"]) expect(admin).toContain(s);
  });

  it("roles that own tasks claim, move to REVIEW and hand off", () => {
    for (const role of ROLES.filter((r) => r !== "administrator")) {
      const text = read(`personas/${role}.md`);
      for (const s of ["task claim", "--status REVIEW", "task handoff"]) expect(text, role).toContain(s);
    }
  });
});

describe("procedure and planning templates", () => {
  it("ship a procedures README and the commit guidelines with the provenance trailers", () => {
    expect(read("procedures/README.md")).toContain("procedures");
    const guide = read("procedures/commit-guidelines.md");
    for (const s of ["Pantheon-Mission:", "Pantheon-Task:", "init --hooks", "feat("]) expect(guide).toContain(s);
  });

  it("ship a task plan with the task's fields and the five sections", () => {
    const plan = read("planning/task-plan.md");
    expect(placeholdersIn(plan).sort()).toEqual(["task.acceptance", "task.description", "task.id", "task.title"]);
    for (const h of ["Goal", "Approach", "Steps", "Risks", "Done when"]) expect(plan).toContain(`## ${h}\n`);
  });
});
