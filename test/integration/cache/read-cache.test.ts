import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData, runBin, type CliResult } from "../../helpers/cli.js";
import { makeRepo } from "../../helpers/repo.js";
import { CACHE_VERSION as V } from "../../../src/store/cache/read-cache.js";

const cacheDir = (dir: string) => join(dir, ".git", "pantheon", "cache");
const cacheOf = (dir: string) => join(cacheDir(dir), `tasks-v${V}.bin`);
/** The titles and timestamps of the tasks' cache (named by the commit it describes). */
const textOf = (dir: string) => join(cacheDir(dir), readdirSync(cacheDir(dir)).find((f) => f.endsWith(".text"))!);

/** Every cache file's content, to put back later as a stale cache. */
function snapshotCache(dir: string): Map<string, string> {
  return new Map(readdirSync(cacheDir(dir)).map((f) => [f, readFileSync(join(cacheDir(dir), f), "utf8")]));
}
function restoreCache(dir: string, files: Map<string, string>): void {
  for (const [f, text] of files) writeFileSync(join(cacheDir(dir), f), text);
}

const READS: string[][] = [
  ["task", "list", "--json"],
  ["task", "list", "--status", "todo,ready", "--limit", "3", "--json"],
  ["task", "list", "--limit", "2", "--offset", "1", "--json"],
  ["task", "list", "--limit", "2", "--offset", "4"],
  ["task", "next", "--role", "engineer", "--json"],
  ["task", "report", "--json"],
  ["task", "blocked", "--json"],
  ["task", "prereqs", "4", "--json"],
  ["epic", "show", "1", "--json"],
  ["epic", "list", "--json"],
  ["review", "list", "--json"],
  ["mission", "list", "--json"],
  ["persona", "activity", "--json"],
  ["dashboard", "--json"],
];

// Real processes of the built bundle: an in-process run would keep the cache it loaded in
// memory, and these tests are about what a process finds on disk.
async function runCli(argv: string[], o: { cwd: string }): Promise<CliResult> {
  return runBin(argv, { cwd: o.cwd, env: { NO_COLOR: "1" } });
}

async function ok(dir: string, argv: string[]) {
  const r = await runCli(argv, { cwd: dir });
  expect(r.exitCode, `${argv.join(" ")}\n${r.stderr}`).toBe(0);
  return r;
}

/** Every read answers the same with the cache as it is, deleted, and replaced by a stale one. */
async function expectSameAnswers(dir: string, stale: Map<string, string> | null) {
  for (const argv of READS) {
    const normal = (await ok(dir, argv)).stdout;
    rmSync(cacheDir(dir), { recursive: true, force: true });
    expect((await ok(dir, argv)).stdout, `${argv.join(" ")} with the cache deleted`).toBe(normal);
    if (stale) {
      restoreCache(dir, stale);
      expect((await ok(dir, argv)).stdout, `${argv.join(" ")} with a stale cache`).toBe(normal);
    }
  }
}

describe("the read cache changes no answer", () => {
  // About 70 CLI processes, each list-type read run three ways: ~20 s alone on two cores, past the
  // default 60 s when the whole suite shares them. A time limit, not a timing assertion.
  it("deleted between commands or left stale on purpose, every list-type read answers the same", {
    timeout: 180_000,
  }, async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    await ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await ok(dir, ["mission", "start", "--role", "inspector", "--persona", "Argus"]);
    await ok(dir, ["epic", "create", "--title", "Login", "--priority", "high"]);
    await ok(dir, ["task", "create", "--title", "Design", "--role", "architect", "--epic", "1"]);
    await ok(dir, ["task", "create", "--title", "Build", "--role", "engineer", "--depends-on", "1", "--epic", "1"]);
    await ok(dir, ["dashboard"]); // a cache of every kind now exists
    const stale = snapshotCache(dir);
    await ok(dir, ["task", "create", "--title", "Test", "--role", "tester", "--depends-on", "2", "--epic", "1"]);
    await ok(dir, [
      "task",
      "create",
      "--title",
      "Release",
      "--role",
      "operator",
      "--depends-on",
      "3",
      "--priority",
      "critical",
    ]);
    await ok(dir, ["task", "create", "--title", "Polish", "--role", "engineer"]);
    await ok(dir, ["--as", "Hephaestus", "task", "claim", "5"]);
    await ok(dir, ["--as", "Hephaestus", "task", "update", "5", "--status", "REVIEW"]);
    await ok(dir, ["task", "priority", "1", "low"]);
    await expectSameAnswers(dir, stale);
    await ok(dir, ["--as", "Argus", "review", "approve", "RVW-001"]);
    await ok(dir, ["mission", "end", "MSN-0002"]);
    await expectSameAnswers(dir, stale);
  });

  it("is rebuilt from nothing, and a cache of another version is ignored", async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    for (let i = 0; i < 5; i++) await ok(dir, ["task", "create", "--title", `t${i}`, "--role", "engineer"]);
    const first = (await ok(dir, ["task", "list", "--json"])).stdout;
    expect(existsSync(cacheOf(dir))).toBe(true);
    const file = readFileSync(cacheOf(dir));
    writeFileSync(cacheOf(dir), Buffer.concat([Buffer.from("PTT0"), file.subarray(4)])); // another version's table
    expect((await ok(dir, ["task", "list", "--json"])).stdout).toBe(first);
    writeFileSync(cacheOf(dir), file.subarray(0, file.length - 30)); // cut short
    expect((await ok(dir, ["task", "list", "--json"])).stdout).toBe(first);
    writeFileSync(cacheOf(dir), "{ not a table");
    expect((await ok(dir, ["task", "list", "--json"])).stdout).toBe(first);
    rmSync(textOf(dir)); // the titles' side file gone
    expect((await ok(dir, ["task", "list", "--json"])).stdout).toBe(first);
    writeFileSync(textOf(dir), readFileSync(textOf(dir)).subarray(0, 10)); // cut short
    expect((await ok(dir, ["task", "list", "--json"])).stdout).toBe(first);
    expect(jsonData(await ok(dir, ["task", "list", "--json"]), "tasks")).toHaveLength(5);
  });

  it("sweeps what a save leaves behind once it is a minute old: other commits' side files, other versions' files, temporary files", async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    await ok(dir, ["task", "create", "--title", "t", "--role", "engineer"]);
    await ok(dir, ["task", "list"]);
    const old = [
      `tasks-v${V - 1}.bin`,
      `head-v${V - 1}.json`,
      `journal-v${V - 1}.ndjson`,
      `project-v${V - 1}.json`,
      `tasks-v${V - 1}-${"a".repeat(40)}.text`,
      `tasks-v${V}-${"b".repeat(40)}.oids`,
      `tasks-v${V}.bin.123.456.tmp`,
    ];
    const recent = [`tasks-v${V - 2}.bin`, `tasks-v${V}-${"c".repeat(40)}.text`];
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of [...old, ...recent]) writeFileSync(join(cacheDir(dir), f), "left behind");
    for (const f of old) utimesSync(join(cacheDir(dir), f), hourAgo, hourAgo);
    const current = readdirSync(cacheDir(dir)).filter((f) => !old.includes(f) && !recent.includes(f));
    rmSync(cacheOf(dir)); // the next read rebuilds and saves the tasks' table
    await ok(dir, ["task", "list"]);
    const after = readdirSync(cacheDir(dir));
    for (const f of old) expect(after, f).not.toContain(f);
    for (const f of [...recent, ...current]) expect(after, f).toContain(f);
  });

  it("uses the project record it validated only for the very same project.json", async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    const name = JSON.parse((await ok(dir, ["dashboard", "--json"])).stdout).data.project.name;
    const memo = join(cacheDir(dir), `project-v${V}.json`);
    const saved = JSON.parse(readFileSync(memo, "utf8"));
    expect(saved.record.name).toBe(name);
    writeFileSync(
      memo,
      JSON.stringify({ ...saved, text: `${saved.text} `, record: { ...saved.record, name: "Forged" } }),
    );
    expect(JSON.parse((await ok(dir, ["dashboard", "--json"])).stdout).data.project.name).toBe(name);
    writeFileSync(memo, "{ not json");
    expect(JSON.parse((await ok(dir, ["dashboard", "--json"])).stdout).data.project.name).toBe(name);
  });

  it("doctor reports a cache that disagrees with the ref, and --fix rebuilds it", async () => {
    const dir = makeRepo();
    await ok(dir, ["init", "--yes"]);
    await ok(dir, ["task", "create", "--title", "real title", "--role", "engineer"]);
    await ok(dir, ["task", "list"]);
    const backup = join(dir, "cache.bak");
    const text = textOf(dir);
    copyFileSync(text, backup);
    // Same length, so the table stays well-formed: only its content lies.
    writeFileSync(
      text,
      Buffer.from(readFileSync(backup).toString("latin1").replace("real title", "fake title"), "latin1"),
    );
    const bad = await runCli(["doctor", "--json"], { cwd: dir });
    expect(bad.exitCode).toBe(1);
    expect(JSON.stringify(jsonData(bad, "doctor").findings)).toContain("E_CACHE_MISMATCH");
    const fixed = await runCli(["doctor", "--fix"], { cwd: dir });
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain("rebuilt the read cache");
    expect(readFileSync(textOf(dir)).toString("latin1")).toContain("real title");
    expect(jsonData(await ok(dir, ["task", "list", "--json"]), "tasks")[0].title).toBe("real title");
  });
});
