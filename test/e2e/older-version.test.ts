/**
 * An older Pantheon meeting the new schema (DESIGN §2.1, issue 12): the previous release, built
 * from this repository's history, runs against a repository this version has migrated, and
 * against a remote it has published to. It refuses every command with its upgrade message
 * (exit 1) and changes nothing: neither the ref, nor the origin.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../src/domain/constants.js";
import { BIN, runBin, type CliResult } from "../helpers/cli.js";
import { makeOriginAndClones, REF } from "../helpers/clones.js";
import { git, makeRepo, stateRef, tempDir } from "../helpers/repo.js";
import { previousReleaseBin, runPrevious } from "../helpers/previous-release.js";
import { stateJson } from "../helpers/state-plumbing.js";

const UPGRADE = new RegExp(
  `^✗ The coordination state has schemaVersion ${SCHEMA_VERSION}; this pantheon understands up to 1\\n  hint: upgrade pantheon`,
);

function ok(r: CliResult, what: string): CliResult {
  if (r.exitCode !== 0) throw new Error(`${what} exited ${r.exitCode}\n${r.stdout}\n${r.stderr}`);
  return r;
}

function expectRefused(r: CliResult, what: string): void {
  expect(r.exitCode, `${what}\n${r.stderr}`).toBe(1);
  expect(r.stdout, what).toBe("");
  expect(r.stderr, what).toMatch(UPGRADE);
}

const OLD_COMMANDS = [
  ["task", "list"],
  ["task", "show", "1"],
  ["task", "create", "--title", "from the old version", "--role", "engineer"],
  ["task", "note", "1", "from the old version"],
  ["mission", "start", "--role", "engineer", "--persona", "Ares"],
  ["epic", "create", "--title", "old"],
  ["dashboard"],
  ["doctor", "--fix"],
];

describe("the previous release meeting a state this version migrated", () => {
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
    previousReleaseBin(); // built once, then cached under node_modules/.cache
  }, 180_000);

  it("a state the previous release made is migrated by this version's first write; then the previous release refuses everything with its upgrade message and writes nothing", () => {
    const dir = makeRepo();
    const cfg = join(tempDir(), "pantheon.yaml");
    writeFileSync(cfg, "worktree:\n  setup: npm ci\n");
    ok(runPrevious(["init", "--config", cfg], { cwd: dir }), "previous init");
    ok(
      runPrevious(["task", "create", "--title", "made by the previous release", "--role", "engineer"], { cwd: dir }),
      "previous task create",
    );
    expect(stateJson(dir, "project.json")).toMatchObject({ schemaVersion: 1, worktree: { copy: [], setup: "npm ci" } });

    const upgrade = ok(runBin(["task", "note", "1", "upgraded"], { cwd: dir, env: { NO_COLOR: "1" } }), "task note");
    expect(upgrade.stderr).toContain('"npm ci"');
    expect(stateJson(dir, "project.json")).toMatchObject({ schemaVersion: SCHEMA_VERSION, worktree: { copy: [] } });
    expect(git(dir, "log", "-1", "--format=%(trailers:only,unfold)", `${REF}^`)).toContain("Pantheon-Op: migrate");

    const migrated = stateRef(dir);
    for (const argv of OLD_COMMANDS) {
      expectRefused(runPrevious(argv, { cwd: dir }), `previous ${argv.join(" ")}`);
      expect(stateRef(dir), `previous ${argv.join(" ")} writes nothing`).toBe(migrated);
    }
  });

  it("a clone still on the previous release refuses to take or merge a state this version published, and moves neither its ref nor the origin", async () => {
    const { origin, clones } = await makeOriginAndClones(3, { init: false });
    const [first, behind, diverged] = clones.map((c) => c.dir) as [string, string, string];
    ok(runPrevious(["init", "--yes"], { cwd: first }), "previous init");
    ok(runPrevious(["sync"], { cwd: first }), "previous sync");
    for (const dir of [behind, diverged]) ok(runPrevious(["sync"], { cwd: dir }), "previous sync");
    ok(
      runPrevious(["task", "create", "--title", "local work, not yet published", "--role", "engineer"], {
        cwd: diverged,
      }),
      "previous task create",
    );

    // The first clone upgrades: its first write migrates, its sync publishes schema 2.
    ok(
      runBin(["task", "create", "--title", "after the upgrade", "--role", "engineer"], {
        cwd: first,
        env: { NO_COLOR: "1" },
      }),
      "task create",
    );
    ok(runBin(["sync"], { cwd: first, env: { NO_COLOR: "1" } }), "sync");
    const published = git(origin, "rev-parse", REF).trim();
    expect(JSON.parse(git(origin, "cat-file", "-p", `${REF}:project.json`)).schemaVersion).toBe(SCHEMA_VERSION);

    for (const dir of [behind, diverged]) {
      const before = stateRef(dir);
      const r = runPrevious(["sync"], { cwd: dir });
      expectRefused(r, `previous sync in ${dir === behind ? "a clone behind" : "a diverged clone"}`);
      expect(stateRef(dir), "the local ref does not move").toBe(before);
      expect(git(origin, "rev-parse", REF).trim(), "the origin keeps what this version published").toBe(published);
    }
  });
});
