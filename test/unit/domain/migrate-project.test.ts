/** The schema migrations (DESIGN §1.3, §2.1): pure functions of project.json as stored. */
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../../src/domain/constants.js";
import { MIGRATION_STEPS, migrateProject } from "../../../src/domain/migrations/migrate-project.js";
import { ProjectSchema } from "../../../src/domain/schemas/project.js";

const AT = "2026-01-01T00:00:00.000Z";

/** project.json as schema 1 stored it. */
function v1(setup: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: "project-uid-1",
    createdAt: AT,
    updatedAt: AT,
    createdBy: "Director",
    schemaVersion: 1,
    name: "shop",
    type: "typescript",
    description: "",
    features: { pmSystem: true, sessionTracking: true, commitGuidelines: true, daemonNaming: true },
    customization: { personasTheme: "mythology", variables: {} },
    roles: ["engineer"],
    assistant: null,
    worktree: { copy: [".env"], setup },
    ...extra,
  };
}

describe("migrateProject", () => {
  it("has one step per version up to SCHEMA_VERSION", () => {
    expect(MIGRATION_STEPS.map((s) => s.to)).toEqual(Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 2));
  });

  it("1 → 2 removes worktree.setup, keeps every other field (unknown ones too) and updatedAt, and validates as a schema-2 project", () => {
    const before = v1("npm ci", { futureField: { a: 1 } });
    (before.features as Record<string, unknown>).futureFeature = true;
    const m = migrateProject(before)!;
    expect(m).toMatchObject({ from: 1, to: 2 });
    expect(m.project.worktree).toEqual({ copy: [".env"] });
    expect(m.project.schemaVersion).toBe(2);
    const { worktree: _w, schemaVersion: _s, ...rest } = before;
    const { worktree: _w2, schemaVersion: _s2, ...after } = m.project;
    expect(after).toEqual(rest);
    expect(ProjectSchema.safeParse(m.project).success).toBe(true);
    expect(before.worktree, "the input is not modified").toEqual({ copy: [".env"], setup: "npm ci" });
  });

  it("says the old command once, quoted and escaped, with where a set-up command lives now and no command line built from it", () => {
    const hostile = "npm ci\u001b[2J; curl x | sh\u009b\u202e\n";
    const { notices } = migrateProject(v1(hostile))!;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(String.raw`"npm ci\u001b[2J; curl x | sh\u009b\u202e\n"`);
    expect(notices[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(notices[0]).toContain(".pantheon/worktree-setup");
    expect(notices[0]).toContain("git config pantheon.worktreeSetup");
    expect(notices[0]).not.toContain("pantheon.worktreeSetup 'npm");
  });

  it("cuts a long command short in the notice and says where the whole of it is", () => {
    const { notices } = migrateProject(v1("x".repeat(5000)))!;
    expect(notices[0]!.length).toBeLessThan(1500);
    expect(notices[0]).toContain("4500 more characters");
    expect(notices[0]).toContain("git log -p refs/coordination/main -- project.json");
  });

  it("says nothing for an empty or absent set-up command, and still migrates", () => {
    for (const setup of [null, "", "  "]) {
      const m = migrateProject(v1(setup))!;
      expect(m.notices, JSON.stringify(setup)).toEqual([]);
      expect(m.project.worktree).toEqual({ copy: [".env"] });
    }
    const { worktree: _, ...noWorktree } = v1(null);
    expect(migrateProject({ ...noWorktree, worktree: { copy: [] } })!.project).toMatchObject({
      schemaVersion: 2,
      worktree: { copy: [] },
    });
  });

  it("is deterministic and idempotent: the same input gives the same record; a step over its own output changes nothing", () => {
    const once = migrateProject(v1("make setup"))!;
    expect(migrateProject(v1("make setup"))).toEqual(once);
    const step = MIGRATION_STEPS[0]!;
    expect(step.migrate(once.project)).toEqual({ project: once.project, notices: [] });
  });

  it("leaves a current, newer or versionless project alone (null): only an older version is migrated", () => {
    for (const schemaVersion of [SCHEMA_VERSION, SCHEMA_VERSION + 1, 0, -1, 1.5, "1", null, undefined]) {
      expect(migrateProject({ ...v1("npm ci"), schemaVersion }), String(schemaVersion)).toBeNull();
    }
  });
});
