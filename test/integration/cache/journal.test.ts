import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../../helpers/cli.js";
import { git, makeRepo } from "../../helpers/repo.js";
import { CACHE_VERSION } from "../../../src/store/cache/read-cache.js";

const cacheDir = (dir: string) => join(dir, ".git", "pantheon", "cache");
const journal = (dir: string) => join(cacheDir(dir), `journal-v${CACHE_VERSION}.ndjson`);
const LISTS = [
  ["task", "list", "--json"],
  ["task", "next", "--role", "engineer", "--json"],
  ["task", "report", "--json"],
  ["epic", "list", "--json"],
  ["mission", "list", "--json"],
];

function ok(dir: string, argv: string[]) {
  const r = runBin(argv, { cwd: dir, env: { NO_COLOR: "1" } });
  expect(r.exitCode, `${argv.join(" ")}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** What every list-type read answers when it has to read everything from git. */
function fromGit(dir: string): string[] {
  rmSync(cacheDir(dir), { recursive: true, force: true });
  return LISTS.map((a) => ok(dir, a));
}

async function project(): Promise<string> {
  const dir = makeRepo();
  ok(dir, ["init", "--yes"]);
  ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  ok(dir, ["epic", "create", "--title", "Login"]);
  for (const t of ["Design", "Build", "Test"])
    ok(dir, ["task", "create", "--title", t, "--role", "engineer", "--epic", "1"]);
  for (const a of LISTS) ok(dir, a); // a cache of every kind, at this commit
  return dir;
}

describe("the read cache's journal", () => {
  it("brings every list-type read up to the tip after mutations without reading a git object", async () => {
    const dir = await project();
    const lines = () => readFileSync(journal(dir), "utf8").trim().split("\n").length;
    const before = lines();
    ok(dir, ["task", "create", "--title", "Polish", "--role", "engineer", "--depends-on", "2"]);
    ok(dir, ["--as", "Hephaestus", "task", "claim", "1"]);
    ok(dir, ["--as", "Hephaestus", "task", "update", "1", "--status", "REVIEW", "--notes", "done"]);
    ok(dir, ["epic", "create", "--title", "Billing"]);
    ok(dir, ["task", "priority", "3", "critical"]);
    for (const n of ["1", "2", "3"]) ok(dir, ["task", "note", n, "noted"]);
    expect(lines() - before).toBe(8); // one line per commit
    ok(dir, ["dashboard"]); // validates project.json once: its memo
    // With the object database out of reach, only the cache and its journal can answer.
    const objects = join(dir, ".git", "objects");
    const loose = readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d));
    mkdirSync(`${objects}.away`);
    for (const d of loose) renameSync(join(objects, d), join(`${objects}.away`, d));
    const answers = LISTS.map((a) => ok(dir, a));
    const recent = ok(dir, ["log", "-n", "5", "--json"]); // the journal's lines describe their commits too
    // ...and name project.json's blob, which the project memo holds: the whole dashboard answers.
    const dashboard = ok(dir, ["dashboard", "--json"]);
    for (const d of loose) renameSync(join(`${objects}.away`, d), join(objects, d));
    expect(answers).toEqual(fromGit(dir));
    expect(recent).toBe(ok(dir, ["log", "-n", "5", "--json"])); // the same after the journal is gone (fromGit)
    expect(dashboard).toBe(ok(dir, ["dashboard", "--json"]));
    expect(JSON.parse(recent).data.map((c: { summary: string }) => c.summary)).toHaveLength(5);
    expect(
      JSON.parse(answers[0]!).data.map((t: { title: string; status: string }) => `${t.title} ${t.status}`),
    ).toEqual(["Design REVIEW", "Build TODO", "Test TODO", "Polish TODO"]);
  });

  it("changes no answer when a line is torn, the ref was reset, or a sync-like commit skipped the journal", async () => {
    const dir = await project();
    ok(dir, ["task", "create", "--title", "Kept", "--role", "engineer"]);
    appendFileSync(journal(dir), '{"p":"torn by a crash');
    const torn = LISTS.map((a) => ok(dir, a));
    expect(torn).toEqual(fromGit(dir));

    for (const a of LISTS) ok(dir, a);
    const before = git(dir, "rev-parse", "refs/coordination/main").trim();
    ok(dir, ["task", "create", "--title", "Undone", "--role", "engineer"]);
    git(dir, "update-ref", "refs/coordination/main", before); // someone resets the ref by hand
    ok(dir, ["task", "create", "--title", "Redone", "--role", "tester"]);
    const reset = LISTS.map((a) => ok(dir, a));
    expect(reset[0]).toContain("Redone");
    expect(reset[0]).not.toContain("Undone");
    expect(reset).toEqual(fromGit(dir));

    for (const a of LISTS) ok(dir, a);
    // A commit made by plain git (as a sync's merge is) has no journal line: reads refresh from git.
    const tip = git(dir, "rev-parse", "refs/coordination/main").trim();
    const tree = git(dir, "rev-parse", `${tip}^{tree}`).trim();
    const other = git(dir, "commit-tree", tree, "-p", tip, "-m", "outside").trim();
    git(dir, "update-ref", "refs/coordination/main", other);
    ok(dir, ["task", "create", "--title", "After", "--role", "engineer"]);
    const skipped = LISTS.map((a) => ok(dir, a));
    expect(skipped[0]).toContain("After");
    expect(skipped).toEqual(fromGit(dir));
    expect(existsSync(journal(dir))).toBe(false); // fromGit dropped the whole cache: nothing stale survives
  });
});
