/**
 * A 10,000-deep dependency chain (issue 12 point 10): `task prereqs` overflowed the stack at
 * ~7,000, and a refused cycle printed every id of its path on one line. The chain is made in one
 * commit by `task import` (task k depends on k-1).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "../../helpers/repo.js";
import { expectRefused, project, type Project } from "../cli/fixture.js";

const DEPTH = 10_000;
let p: Project;

beforeAll(async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-deep-chain-")));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  git(dir, "init", "-q", "-b", "main");
  p = project(dir);
  await p.ok(["init", "--yes"]);
  const entries = Array.from({ length: DEPTH }, (_, i) => ({
    key: `k${i + 1}`,
    title: `Step ${i + 1}`,
    role: "engineer",
    ...(i > 0 && { depends_on: [`k${i}`] }),
  }));
  writeFileSync(join(p.dir, "chain.json"), JSON.stringify(entries));
  await p.ok(["task", "import", "chain.json"]);
}, 120_000);

describe(`a ${DEPTH.toLocaleString("en-US")}-deep dependency chain`, () => {
  it("task prereqs lists every unfinished prerequisite, deepest first", async () => {
    const r = await p.run(["task", "prereqs", String(DEPTH), "--json"]);
    expect(r.exitCode, r.stderr.slice(0, 500)).toBe(0);
    const data = JSON.parse(r.stdout).data as { tasks: Array<{ id: string }> } | Array<{ id: string }>;
    const tasks = Array.isArray(data) ? data : data.tasks;
    expect(tasks).toHaveLength(DEPTH - 1);
    expect(tasks[0]!.id).toBe("ENG-M-0001");
    expect(tasks.at(-1)!.id).toBe(`ENG-M-${DEPTH - 1}`);
  });

  it("a dependency that would close the cycle is refused in one bounded line naming its size", async () => {
    const r = await expectRefused(p, ["task", "depend", "1", String(DEPTH)], 1, [/would make a cycle of 10,000 tasks/]);
    const line = r.stderr.split("\n")[0]!;
    expect(line.length, line.slice(0, 300)).toBeLessThan(300);
    expect(line).toContain("ENG-M-0001 → ENG-M-10000 → ENG-M-9999");
    expect(line).toMatch(/ → … \(9,991 more\) … → ENG-M-0005 → ENG-M-0004 → ENG-M-0003 → ENG-M-0002 → ENG-M-0001\)$/);
  });

  it("blocked, next and show answer", async () => {
    expect((await p.json<unknown[]>(["task", "blocked"], "tasks")).length).toBe(DEPTH - 1);
    expect((await p.json<Array<{ id: string }>>(["task", "next", "--role", "engineer"], "tasks"))[0]!.id).toBe(
      "ENG-M-0001",
    );
    expect((await p.json<{ blockedBy: string[] }>(["task", "show", String(DEPTH)], "task")).blockedBy).toEqual([
      `ENG-M-${DEPTH - 1}`,
    ]);
  });
});
