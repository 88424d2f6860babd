import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData, runCli } from "../../helpers/cli.js";
import { initializedProject } from "../../helpers/project.js";
import { rewriteState } from "../../helpers/state-plumbing.js";
import { stateRef } from "../../helpers/repo.js";
import { loadKind, loadSealed, saveKind } from "../../../src/store/cache/cache-files.js";
import { CACHE_VERSION } from "../../../src/store/cache/cache-version.js";
import { applyJournal, journalFile, readJournal } from "../../../src/store/cache/cache-journal.js";

/**
 * doctor at scale (DESIGN §2.5): it validates from git only what the sealed read cache cannot
 * vouch for (a record whose very blob it validated), so a state unchanged since the last check
 * reads no record; a changed shard is read again; a cache that was edited is not believed.
 */

const cacheDir = (dir: string) => join(dir, ".git", "pantheon", "cache");

async function doctor(dir: string, ...flags: string[]) {
  const r = await runCli(["doctor", "--json", ...flags], { cwd: dir });
  return { exitCode: r.exitCode, ...jsonData<any>(r, "doctor") };
}

const codes = (findings: Array<{ code: string; subject: string }>) =>
  findings.map((f) => `${f.code} ${f.subject}`).sort();

/** A project with `n` tasks (one import), its cache built and sealed by a read. */
async function withTasks(n: number) {
  const p = await initializedProject();
  const file = join(p.dir, "tasks.json");
  writeFileSync(file, JSON.stringify(Array.from({ length: n }, (_, i) => ({ title: `t${i + 1}`, role: "engineer" }))));
  await p.ok(["epic", "create", "--title", "An epic"]);
  await p.ok(["task", "import", file]); // past 256 tasks, no journal line: the reads below refresh from git
  await p.ok(["task", "list"]);
  await p.ok(["epic", "list"]);
  return p;
}

describe("doctor and the sealed read cache", () => {
  it("reads no record when the cache validated every blob; a commit made by git that corrupts one is found, reading only that blob", async () => {
    const p = await withTasks(300);
    const clean = await doctor(p.dir);
    expect(clean.findings).toEqual([]);
    expect(clean.counts.tasks).toBe(300);
    expect(clean.validated).toBe(0);

    // Shard 07 changes under the cache: one record broken, one rewritten validly (by git, no journal line).
    rewriteState(p.dir, {
      "tasks/07/107.json": '{"number": 107, "title": ',
      "tasks/07/207.json": (t) => ({ ...t, title: "renamed by git" }),
    });
    const found = await doctor(p.dir);
    expect(found.exitCode).toBe(1);
    expect(codes(found.findings)).toEqual(["E_CORRUPT_RECORD tasks/07/107.json"]);
    expect(found.validated).toBe(2);
    expect(found.counts.tasks).toBe(299);

    // Nothing changed since: nothing is read again, and the finding stands (kept by blob id).
    const again = await doctor(p.dir);
    expect(codes(again.findings)).toEqual(["E_CORRUPT_RECORD tasks/07/107.json"]);
    expect(again.validated).toBe(0);
    // --full believes no cache: every record read from git, the same findings.
    const full = await doctor(p.dir, "--full");
    expect(codes(full.findings)).toEqual(["E_CORRUPT_RECORD tasks/07/107.json"]);
    expect(full.validated).toBe(301); // 299 tasks, the corrupt one, the epic
  });

  it("reads again what the journal gave: a mutation's rows are hints to reads, not checks", async () => {
    const p = await withTasks(300);
    await p.ok(["task", "note", "5", "a journaled change"]);
    await p.ok(["task", "note", "6", "another"]);
    await p.ok(["task", "list"]); // follows the journal: reads no git object
    const d = await doctor(p.dir);
    expect(d.findings).toEqual([]);
    expect(d.validated).toBe(2);
    expect((await doctor(p.dir)).validated).toBe(0);
  });

  it("does not believe a cache file that was edited: it finds the corrupt record the edit hid, and says so", async () => {
    const p = await withTasks(3);
    rewriteState(p.dir, { "epics/01/1.json": '{"number": 1, "title": 7}\n' });
    await p.ok(["epic", "list"]); // the cache remembers epics/01/1.json as corrupt
    const epics = join(cacheDir(p.dir), `epics-v${CACHE_VERSION}.json`);
    const saved = JSON.parse(readFileSync(epics, "utf8"));
    expect(Object.keys(saved.bad)).toEqual(["epics/01/1.json"]);
    // The lie: no bad record, the same shard tree id, so a cache believed would hide it.
    writeFileSync(epics, JSON.stringify({ ...saved, bad: {} }));
    const d = await doctor(p.dir);
    expect(d.exitCode).toBe(1);
    expect(codes(d.findings)).toEqual(["E_CACHE_MISMATCH " + epics, "E_CORRUPT_RECORD epics/01/1.json"].sort());
    expect(d.validated).toBeGreaterThanOrEqual(1);

    // Without its seal the file is not believed either (an older version's, or a seal removed).
    rmSync(join(cacheDir(p.dir), `epics-v${CACHE_VERSION}.seal`));
    expect(codes((await doctor(p.dir)).findings)).toContain("E_CORRUPT_RECORD epics/01/1.json");

    // --fix rebuilds the cache (and removes the record); after it, nothing to say.
    const fixed = await runCli(["doctor", "--fix"], { cwd: p.dir });
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
    expect((await doctor(p.dir)).findings).toEqual([]);
  });

  it("does not believe a task table that was edited to hide a corrupt record", async () => {
    const p = await withTasks(3);
    rewriteState(p.dir, { "tasks/02/2.json": (t) => ({ ...t, status: "PWNED" }) });
    await p.ok(["task", "list"]); // the table remembers tasks/02/2.json as corrupt, by blob id
    const table = join(cacheDir(p.dir), `tasks-v${CACHE_VERSION}.bin`);
    const now = readFileSync(table);
    // Same length, so the table stays well-formed: it now blames a path that is not there.
    const lie = Buffer.from(now.toString("latin1").replace('"tasks/02/2.json":', '"tasks/02/X.json":'), "latin1");
    expect(lie.equals(now)).toBe(false);
    writeFileSync(table, lie);
    const d = await doctor(p.dir);
    expect(codes(d.findings)).toEqual([`E_CACHE_MISMATCH ${table}`, "E_CORRUPT_RECORD tasks/02/2.json"]);
  });

  it("reads again the rows a resave took from the journal, and says so when a journal line lied about one", async () => {
    for (const lie of [false, true]) {
      const p = await withTasks(3);
      const commonDir = join(p.dir, ".git");
      await doctor(p.dir); // every kind checked and saved at the tip
      await p.ok(["task", "note", "1", "journaled"]);
      await p.ok(["task", "note", "2", "journaled"]);
      if (lie) {
        const file = journalFile(commonDir);
        const lines = readFileSync(file, "utf8").trimEnd().split("\n");
        lines[lines.length - 1] = lines.at(-1)!.replace('"title":"t2"', '"title":"t9"');
        writeFileSync(file, `${lines.join("\n")}\n`);
      }
      // What a read does after 200 lines: the journal applied to the saved table, saved again.
      const state = loadKind(commonDir, "tasks")!;
      expect(applyJournal(state, "tasks", readJournal(commonDir), stateRef(p.dir)!)).toBe(2);
      saveKind(commonDir, "tasks", state);
      expect(loadSealed(commonDir, "tasks").seal).toBe("sealed");
      const d = await doctor(p.dir);
      // Tasks 1 and 2, which the journal gave; nothing else.
      expect(d.validated).toBe(2);
      expect(codes(d.findings)).toEqual(
        lie ? [`E_CACHE_MISMATCH ${join(cacheDir(p.dir), `tasks-v${CACHE_VERSION}.bin`)}`] : [],
      );
      if (!lie) expect((await doctor(p.dir)).validated).toBe(0);
    }
  });
});

describe("doctor's report at scale", () => {
  it("groups findings: one line per kind with its count and first subjects, every one with --verbose and in --json", async () => {
    const p = await withTasks(300);
    const broken: Record<string, string> = {};
    for (const n of [11, 22, 33, 44, 55, 66, 77]) broken[`tasks/${n % 100}/${n}.json`] = `{"number": ${n}}\n`;
    rewriteState(p.dir, broken);
    const text = await runCli(["doctor"], { cwd: p.dir });
    expect(text.exitCode).toBe(1);
    const lines = text.stdout.trim().split("\n");
    expect(lines).toEqual([
      "✗ 7 corrupt records: tasks/11/11.json, tasks/22/22.json, tasks/33/33.json, tasks/44/44.json, tasks/55/55.json, … and 2 more",
      "  fix: pantheon doctor --fix (removes it; its history stays in git log)",
    ]);
    const verbose = await runCli(["doctor", "--verbose"], { cwd: p.dir });
    for (const n of [11, 22, 33, 44, 55, 66, 77])
      expect(verbose.stdout).toMatch(new RegExp(`^✗ Record tasks/${n}/${n}\\.json at [0-9a-f]{12} is corrupt`, "m"));
    expect((await doctor(p.dir)).findings).toHaveLength(7);
  });

  it("tasks waiting in REVIEW after their implementer's mission ended are one line of information, not a warning each; stopped work is one warning line", async () => {
    const p = await initializedProject();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    for (let i = 1; i <= 5; i++) {
      await p.ok(["task", "create", "--title", `work ${i}`, "--role", "engineer"]);
      await p.ok(["--as", "Hephaestus", "task", "claim", String(i)]);
      if (i <= 3) await p.ok(["--as", "Hephaestus", "task", "update", String(i), "--status", "REVIEW"]);
    }
    await p.ok(["mission", "end", "MSN-0001"]);
    const r = await doctor(p.dir);
    expect(r.exitCode).toBe(0);
    expect(r.ok).toBe(true);
    expect(codes(r.findings)).toEqual([
      "I_AWAITING_REVIEW ENG-M-0001",
      "I_AWAITING_REVIEW ENG-M-0002",
      "I_AWAITING_REVIEW ENG-M-0003",
      "W_ORPHANED_CLAIM ENG-M-0004",
      "W_ORPHANED_CLAIM ENG-M-0005",
    ]);
    const text = (await p.ok(["doctor"])).stdout.trim().split("\n");
    expect(text).toEqual([
      "! 2 tasks UNDERWAY or BLOCKED on ENDED missions (their work stopped): ENG-M-0004, ENG-M-0005",
      '  fix: each its own, e.g. resume it: pantheon task claim ENG-M-0004 (or pantheon task unassign ENG-M-0004 --notes "...") (pantheon doctor --verbose lists them)',
      "i 3 tasks wait in REVIEW after their implementers' missions ended: ENG-M-0001, ENG-M-0002, ENG-M-0003",
      "  fix: pantheon review list --status PENDING",
    ]);
    // Only information: the state is healthy.
    await p.ok(["task", "unassign", "4", "--notes", "back to the pool"]);
    await p.ok(["task", "unassign", "5", "--notes", "back to the pool"]);
    expect((await p.ok(["doctor"])).stdout.split("\n")[0]).toBe(
      "✓ State is healthy: 5 tasks, 0 epics, 1 missions, 3 reviews",
    );
  });
});

it("the cache keeps a seal beside each kind's file, with this clone's key", async () => {
  const p = await withTasks(3);
  const files = readdirSync(cacheDir(p.dir));
  for (const kind of ["tasks", "epics"]) expect(files).toContain(`${kind}-v${CACHE_VERSION}.seal`);
  expect(files).toContain("seal-key");
});
