import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { makeRepo, stateRef } from "../../helpers/repo.js";
import { changedBetween, rewriteState, stateJson } from "../../helpers/state-plumbing.js";

/**
 * Forward compatibility (DESIGN §1.3, issue 12): a record written by a newer Pantheon carries
 * fields this version does not know, at the top and nested (inside a note, the project's
 * features, a mission's worktree). Planted with git plumbing, they must come out of every
 * command that writes the record exactly as they went in.
 */

const FUTURE = { nested: { deep: [1, "two", { three: true }] }, since: "Pantheon 9" };
const TASK = "tasks/01/1.json";
const EPIC = "epics/01/1.json";
const MISSION = "missions/01/1.json";
const review = (n: number) => `reviews/0${n}/${n}.json`;
const COUNTERS = "counters.json";
const PERSONA = "personas/custom.json";
const PROJECT = "project.json";

async function ok(dir: string, argv: string[]): Promise<CliResult> {
  const r = await runCli(argv, { cwd: dir });
  if (r.exitCode !== 0) throw new Error(`pantheon ${argv.join(" ")} exited ${r.exitCode}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Every future field planted in a record kind, and where to look for it again. */
const CHECKS: Record<string, (rec: any) => void> = {
  [TASK]: (t) => {
    expect(t.futureField).toEqual(FUTURE);
    expect(t.notes[0].futureNoteKey, "a future key inside a note").toEqual({ kept: true });
    expect(t.acceptance[0].futureCriterionKey, "a future key inside an acceptance criterion").toEqual({ kept: true });
  },
  [EPIC]: (e) => expect(e.futureField).toEqual(FUTURE),
  [MISSION]: (m) => {
    expect(m.futureField).toEqual(FUTURE);
    expect(m.worktree.futureWorktreeKey, "a future key inside the mission's worktree").toBe("kept");
  },
  [review(1)]: (r) => expect(r.futureField).toEqual(FUTURE),
  [review(2)]: (r) => expect(r.futureField).toEqual(FUTURE),
  [review(3)]: (r) => expect(r.futureField).toEqual(FUTURE),
  [COUNTERS]: (c) => {
    expect(c.futureKind, "a counter of a kind this version does not know").toBe(5);
    expect(c.futureField).toEqual(FUTURE);
  },
  [PERSONA]: (p) => expect(p.futureField).toEqual(FUTURE),
  [PROJECT]: (p) => {
    expect(p.futureField).toEqual(FUTURE);
    expect(p.features.futureFeature).toBe(true);
    expect(p.customization.futureCustomization).toEqual(FUTURE);
    expect(p.worktree.futureWorktreeKey).toBe("kept");
  },
};

const withFuture = (rec: any) => ({ ...rec, futureField: FUTURE });

async function plantedRepo(): Promise<string> {
  const dir = makeRepo();
  await ok(dir, ["init", "--yes"]);
  await ok(dir, ["persona", "add", "Custom", "--role", "engineer"]);
  await ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await ok(dir, ["task", "create", "--title", "Target", "--role", "engineer"]);
  await ok(dir, ["task", "create", "--title", "A dependency", "--role", "engineer"]);
  await ok(dir, ["epic", "create", "--title", "First epic"]);
  await ok(dir, ["review", "create", "--title", "First look", "--task", "1"]);
  await ok(dir, ["review", "create", "--title", "Second look", "--task", "1"]);
  await ok(dir, ["task", "note", "1", "a note from before"]);
  await ok(dir, ["task", "ac", "1", "a criterion from before"]);
  rewriteState(dir, {
    [TASK]: (t) => ({
      ...withFuture(t),
      notes: t.notes.map((n: object) => ({ ...n, futureNoteKey: { kept: true } })),
      acceptance: t.acceptance.map((c: object) => ({ ...c, futureCriterionKey: { kept: true } })),
    }),
    [EPIC]: withFuture,
    [MISSION]: (m) => ({
      ...withFuture(m),
      worktree: {
        path: "/nowhere/wt",
        branch: "pantheon/hephaestus-1",
        base: "0".repeat(40),
        futureWorktreeKey: "kept",
      },
    }),
    [review(1)]: withFuture,
    [review(2)]: withFuture,
    [COUNTERS]: (c) => ({ ...withFuture(c), futureKind: 5 }),
    [PERSONA]: withFuture,
    [PROJECT]: (p) => ({
      ...withFuture(p),
      features: { ...p.features, futureFeature: true },
      customization: { ...p.customization, futureCustomization: FUTURE },
      worktree: { ...p.worktree, futureWorktreeKey: "kept" },
    }),
  });
  // List-type reads build the read cache from the planted records: later writes must not start from its rows.
  for (const argv of [
    ["task", "list"],
    ["review", "list"],
    ["mission", "list"],
    ["epic", "list"],
  ])
    await ok(dir, argv);
  return dir;
}

interface Step {
  argv: string[];
  /** The records the command must write (each checked to have changed, and to keep its future fields). */
  writes: string[];
  /** Plants what the step needs first. */
  before?: (dir: string) => Promise<void>;
}

/** Review 3 (just created) gets a future field, and a list puts it in the read cache. */
async function plantReview3(dir: string): Promise<void> {
  rewriteState(dir, { [review(3)]: withFuture });
  await ok(dir, ["review", "list"]);
}

const M = ["--mission", "MSN-0001"];

/** Every command that writes a task, an epic, a mission, a review or the counters (docs/cli.md), in an order the state table allows. */
const STEPS: Step[] = [
  { argv: ["task", "note", "1", "second note"], writes: [TASK] },
  { argv: ["task", "label", "1", "api", "db"], writes: [TASK] },
  { argv: ["task", "unlabel", "1", "db"], writes: [TASK] },
  { argv: ["task", "ac", "1", "a second criterion"], writes: [TASK] },
  { argv: ["task", "check", "1", "1"], writes: [TASK] },
  { argv: ["task", "check", "1", "2"], writes: [TASK] },
  { argv: ["task", "uncheck", "1", "1"], writes: [TASK] },
  { argv: ["task", "check", "1", "1"], writes: [TASK] },
  { argv: ["task", "depend", "1", "2"], writes: [TASK] },
  { argv: ["task", "undepend", "1", "2"], writes: [TASK] },
  { argv: ["task", "priority", "1", "high"], writes: [TASK] },
  { argv: ["task", "edit", "1", "--title", "Target, renamed", "--description", "now described"], writes: [TASK] },
  { argv: ["task", "link", "1", "1"], writes: [TASK] },
  { argv: ["task", "unlink", "1"], writes: [TASK] },
  { argv: ["epic", "link", "1", "1"], writes: [TASK] },
  { argv: ["epic", "unlink", "1", "1"], writes: [TASK] },
  { argv: ["task", "claim", "1", ...M], writes: [TASK] },
  { argv: ["task", "update", "1", "--status", "BLOCKED", "--notes", "waiting on a vendor", ...M], writes: [TASK] },
  { argv: ["task", "update", "1", "--status", "UNDERWAY", ...M], writes: [TASK] },
  { argv: ["task", "handoff", "1", "--notes", "over to a colleague", ...M], writes: [TASK] },
  { argv: ["task", "claim", "1", ...M], writes: [TASK] },
  { argv: ["task", "unassign", "1", "--notes", "back to the pool"], writes: [TASK] },
  { argv: ["task", "claim", "1", ...M], writes: [TASK] },
  // Two reviews of it are pending, so going to REVIEW requests none.
  { argv: ["task", "update", "1", "--status", "REVIEW", ...M], writes: [TASK] },
  { argv: ["review", "reject", "RVW-001", "--reason", "more tests"], writes: [review(1), TASK] },
  { argv: ["task", "update", "1", "--status", "REVIEW", ...M], writes: [TASK] },
  { argv: ["review", "approve", "RVW-002"], writes: [review(2), TASK] },
  { argv: ["task", "reopen", "1", "--notes", "found a bug"], writes: [TASK] },
  { argv: ["review", "create", "--title", "Third look", "--task", "1"], writes: [COUNTERS] },
  { argv: ["task", "claim", "1", ...M], writes: [TASK] },
  // Closing withdraws the pending review 3, which the close finds in a list (the read cache).
  { argv: ["task", "close", "1", ...M], writes: [TASK, review(3)], before: plantReview3 },
  { argv: ["task", "reopen", "1", "--notes", "once more"], writes: [TASK] },
  { argv: ["task", "close", "1", "--status", "ABORTED", "--notes", "dropped"], writes: [TASK] },
  { argv: ["task", "reopen", "1", "--notes", "back again"], writes: [TASK] },
  { argv: ["task", "claim", "1", ...M], writes: [TASK] },
  // The mission found through --as comes from a list (the read cache); the write re-reads it.
  { argv: ["mission", "end", "--as", "Hephaestus", "--release", "--summary", "done"], writes: [MISSION, TASK] },
  { argv: ["epic", "edit", "1", "--title", "First epic, renamed", "--priority", "high"], writes: [EPIC] },
  { argv: ["epic", "abort", "1", "--reason", "descoped"], writes: [EPIC] },
  { argv: ["task", "create", "--title", "Another", "--role", "tester"], writes: [COUNTERS] },
  { argv: ["epic", "create", "--title", "Another epic"], writes: [COUNTERS] },
  { argv: ["mission", "start", "--role", "tester", "--persona", "Athena"], writes: [COUNTERS] },
  { argv: ["task", "import", "import.yaml"], writes: [COUNTERS] },
  { argv: ["persona", "add", "Another", "--role", "tester"], writes: ["personas/another.json"] },
];

describe("fields this version does not know survive every command that writes their record", () => {
  it("tasks, epics, missions, reviews and counters keep top-level and nested future fields through each write; persona and project stay as planted", async () => {
    const dir = await plantedRepo();
    writeFileSync(join(dir, "import.yaml"), "- title: Imported\n  role: engineer\n");
    const persona = stateJson(dir, PERSONA);
    const project = stateJson(dir, PROJECT);
    for (const step of STEPS) {
      const label = `pantheon ${step.argv.join(" ")}`;
      await step.before?.(dir);
      const before = stateRef(dir)!;
      await ok(dir, step.argv);
      const after = stateRef(dir)!;
      const changed = changedBetween(dir, before, after);
      for (const path of step.writes) {
        expect(changed, `${label} writes ${path}`).toContain(path);
        const check = CHECKS[path];
        if (!check) continue;
        const rec = stateJson(dir, path);
        try {
          check(rec);
        } catch (e) {
          throw new Error(
            `${label}: ${path} lost a future field: ${(e as Error).message}\n${JSON.stringify(rec, null, 2)}`,
          );
        }
      }
    }
    // Nothing rewrites a persona or (at this schema) the project: both are as planted, future fields and all.
    expect(stateJson(dir, PERSONA)).toEqual(persona);
    expect(stateJson(dir, PROJECT)).toEqual(project);
    CHECKS[PERSONA]!(stateJson(dir, PERSONA));
    CHECKS[PROJECT]!(stateJson(dir, PROJECT));
  });

  it("config set (every key) and init --config rewrite project.json and keep its future fields, nested ones too", async () => {
    const dir = await plantedRepo();
    const config = join(dir, "pantheon.yaml");
    writeFileSync(config, "project:\n  name: Renamed by a file\nfeatures:\n  daemon_naming: false\n");
    const steps: string[][] = [
      ["config", "set", "project.name", "Olympus"],
      ["config", "set", "project.type", "typescript"],
      ["config", "set", "project.description", "described"],
      ["config", "set", "features.commit_guidelines", "false"],
      ["config", "set", "customization.variables.team", "core"],
      ["config", "set", "roles", "engineer,tester"],
      ["config", "set", "assistant", "claude"],
      ["config", "set", "worktree.copy", ".env"],
      ["init", "--config", config],
    ];
    for (const argv of steps) {
      const before = stateRef(dir)!;
      await ok(dir, argv);
      expect(changedBetween(dir, before, stateRef(dir)!), `pantheon ${argv.join(" ")} writes project.json`).toContain(
        PROJECT,
      );
      try {
        CHECKS[PROJECT]!(stateJson(dir, PROJECT));
      } catch (e) {
        throw new Error(`pantheon ${argv.join(" ")}: project.json lost a future field: ${(e as Error).message}`);
      }
    }
  });

  it("doctor --fix repairs a task and keeps its future fields", async () => {
    const dir = await plantedRepo();
    rewriteState(dir, { [TASK]: (t) => ({ ...t, dependencies: [99] }) });
    const before = stateRef(dir)!;
    await ok(dir, ["doctor", "--fix"]);
    expect(changedBetween(dir, before, stateRef(dir)!)).toContain(TASK);
    const t = stateJson(dir, TASK);
    expect(t.dependencies).toEqual([]);
    CHECKS[TASK]!(t);
  });

  it("reads show the known fields of a record that carries unknown ones, and warn about nothing", async () => {
    const dir = await plantedRepo();
    for (const argv of [
      ["task", "show", "1"],
      ["epic", "show", "1"],
      ["mission", "show", "MSN-0001"],
      ["review", "show", "RVW-001"],
      ["persona", "list"],
      ["dashboard"],
      ["task", "list"],
    ]) {
      const r = await ok(dir, argv);
      expect(r.stderr, `pantheon ${argv.join(" ")}`).toBe("");
    }
  });
});

describe("a task written before labels and acceptance criteria", () => {
  it("reads with both empty (show, list, the read cache), and its first label writes them", async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    await ok(dir, ["task", "create", "--title", "Old task", "--role", "engineer"]);
    rewriteState(dir, { [TASK]: ({ labels: _l, acceptance: _a, ...t }) => t });
    expect(Object.keys(stateJson(dir, TASK))).not.toContain("labels");
    const shown = JSON.parse((await ok(dir, ["task", "show", "1", "--json"])).stdout).data;
    expect([shown.labels, shown.acceptance]).toEqual([[], []]);
    const listed = JSON.parse((await ok(dir, ["task", "list", "--json"])).stdout).data;
    expect([listed[0].labels, listed[0].acceptance]).toEqual([[], []]);
    expect(JSON.parse((await ok(dir, ["task", "list", "--label", "api", "--json"])).stdout).data).toEqual([]);
    await ok(dir, ["task", "label", "1", "api"]);
    expect(stateJson(dir, TASK)).toMatchObject({ labels: ["api"], acceptance: [] });
    expect(JSON.parse((await ok(dir, ["task", "list", "--label", "api", "--json"])).stdout).data).toHaveLength(1);
  });
});
