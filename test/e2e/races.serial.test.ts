/**
 * Races between real `pantheon` processes (DESIGN §7, concurrency bar): racers are released
 * together from a file barrier (test/e2e/barrier-worker.mjs), never staggered by sleeps, and run
 * the built bundle exactly as a user does, in the main worktree and in a linked one.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runBin, type CliResult } from "../helpers/cli.js";
import { race, type Job, type StepResult, type WorkerRun } from "../helpers/barrier.js";
import { testEnv } from "../helpers/env.js";
import { git, makeRepo, readStateFile, stateRef, tempDir } from "../helpers/repo.js";

const REF = "refs/coordination/main";

interface TaskJson {
  id: string;
  number: number;
  title: string;
  status: string;
  claimedBy: string | null;
  mission: string | null;
  completedBy: string | null;
}

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
});

/** Asserts the barrier did its job: every racer was released before any racer had finished. */
function expectOverlap(runs: WorkerRun[]): void {
  const lastRelease = Math.max(...runs.map((r) => r.released));
  const firstFinish = Math.min(...runs.map((r) => r.finished));
  expect(lastRelease, "a racer was released only after another had finished: no race happened").toBeLessThan(
    firstFinish,
  );
}

function pantheon(cwd: string, argv: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  return runBin(argv, { cwd, env: { NO_COLOR: "1", ...env } });
}

function ok(r: CliResult, what: string): CliResult {
  if (r.exitCode !== 0) throw new Error(`${what} exited ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

function data<T>(r: CliResult): T {
  return (JSON.parse(r.stdout) as { schemaVersion: number; data: T }).data;
}

/** A repository with Pantheon initialised and its project files committed, so the tree is clean. */
function initRepo(): string {
  const dir = makeRepo();
  ok(pantheon(dir, ["init", "--yes"]), "pantheon init --yes");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Set up Pantheon");
  expect(git(dir, "status", "--porcelain")).toBe("");
  return dir;
}

function startMission(dir: string, persona: string): { id: string; persona: string } {
  const m = data<{ id: string; persona: string }>(
    ok(
      pantheon(dir, ["mission", "start", "--role", "engineer", "--persona", persona, "--json"]),
      `mission start ${persona}`,
    ),
  );
  expect(m.persona).toBe(persona);
  return m;
}

function listTasks(dir: string): TaskJson[] {
  return data<TaskJson[]>(ok(pantheon(dir, ["task", "list", "--json"]), "task list"));
}

/** `git fsck --strict`: exit 0, and nothing reported but dangling objects (losers' unreferenced commits). */
function expectFsckClean(dir: string): void {
  const r = spawnSync("git", ["fsck", "--strict", "--no-progress"], { cwd: dir, env: testEnv(), encoding: "utf8" });
  const complaints = `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^dangling (commit|tree|blob|tag) [0-9a-f]{40}$/.test(l));
  expect({ status: r.status, complaints }).toEqual({ status: 0, complaints: [] });
}

/** The state ref's history is one straight line of `count` commits. */
function expectLinearHistory(dir: string, count: number): void {
  expect(Number(git(dir, "rev-list", "--count", REF).trim())).toBe(count);
  expect(git(dir, "rev-list", "--min-parents=2", REF).trim()).toBe("");
  expect(git(dir, "rev-list", "--max-parents=0", REF).trim().split("\n")).toHaveLength(1);
}

function counters(dir: string): Record<string, number> {
  return JSON.parse(readStateFile(dir, "counters.json")) as Record<string, number>;
}

function describeFailure(r: StepResult): string {
  return `${r.argv.join(" ")} → exit ${r.exitCode}${r.skipped ? ` (skipped: ${r.skipped})` : ""}\n${r.stderr}`;
}

describe("racing processes (barrier start)", () => {
  it("8 workers x 25 task creates across two worktrees: 200 tasks, unique numbers, linear history", async () => {
    const dir = initRepo();
    const wt = join(tempDir("pantheon-wt-"), "linked");
    git(dir, "worktree", "add", "-q", "-b", "linked", wt);
    expect(git(wt, "status", "--porcelain")).toBe("");
    const before = stateRef(dir);
    expect(before).not.toBeNull();

    const WORKERS = 8;
    const PER = 25;
    const jobs: Job[] = Array.from({ length: WORKERS }, (_, w) => ({
      cwd: w < 4 ? dir : wt,
      steps: Array.from({ length: PER }, (_, k) => ({
        argv: ["task", "create", "--title", `w${w} t${k}`, "--role", "engineer", "--json"],
      })),
    }));
    const runs = await race(jobs);
    expectOverlap(runs);
    const results = runs.map((r) => r.results);

    // Every create succeeded and printed the task it made.
    const printed = new Map<string, string>(); // id → title
    for (const [w, steps] of results.entries()) {
      expect(steps).toHaveLength(PER);
      for (const [k, s] of steps.entries()) {
        if (s.exitCode !== 0) throw new Error(`worker ${w} step ${k}: ${describeFailure(s)}`);
        const t = data<TaskJson>({ stdout: s.stdout, stderr: s.stderr, exitCode: 0 });
        expect(t.title).toBe(`w${w} t${k}`);
        expect(printed.has(t.id), `${t.id} printed twice`).toBe(false);
        printed.set(t.id, t.title);
      }
    }
    expect(printed.size).toBe(WORKERS * PER);

    // Both worktrees see the same 200 tasks, numbered 1..200 exactly once.
    for (const cwd of [dir, wt]) {
      const tasks = listTasks(cwd);
      expect(tasks).toHaveLength(200);
      const numbers = tasks.map((t) => t.number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      const byId = new Map(tasks.map((t) => [t.id, t.title]));
      for (const [id, title] of printed) expect(byId.get(id), id).toBe(title);
    }
    expect(counters(dir).tasks).toBe(200);

    // The state change touched neither working tree nor index.
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(git(wt, "status", "--porcelain")).toBe("");

    expectFsckClean(dir);
    expectLinearHistory(dir, 201);
    const ops = git(dir, "log", "--format=%(trailers:key=Pantheon-Op,valueonly)", REF)
      .split("\n")
      .filter((l) => l.trim() !== "");
    expect(ops.filter((o) => o.trim() === "task.create")).toHaveLength(200);
  });

  it("two missions race to claim the same task: exactly one wins, the loser names the winner (5 rounds)", async () => {
    const dir = initRepo();
    const a = startMission(dir, "Hephaestus");
    const b = startMission(dir, "Daedalus");
    const ROUNDS = 5;
    const ids: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ids.push(
        data<TaskJson>(
          ok(
            pantheon(dir, ["task", "create", "--title", `contested ${i}`, "--role", "engineer", "--json"]),
            "task create",
          ),
        ).id,
      );
    }

    const winners: string[] = [];
    for (const [round, id] of ids.entries()) {
      // Alternate which racer is spawned (and so usually released) first.
      const racers = round % 2 === 0 ? [a, b] : [b, a];
      const before = stateRef(dir);
      const runs = await race(
        racers.map((m) => ({ cwd: dir, steps: [{ argv: ["--mission", m.id, "task", "claim", id] }] })),
      );
      expectOverlap(runs);
      const results = runs.map((r) => r.results);
      const outcomes = results.map((steps, i) => ({ mission: racers[i]!, r: steps[0]! }));
      const won = outcomes.filter((o) => o.r.exitCode === 0);
      const lost = outcomes.filter((o) => o.r.exitCode !== 0);
      expect(
        won.map((o) => o.r.exitCode),
        outcomes.map((o) => describeFailure(o.r)).join("\n"),
      ).toEqual([0]);
      expect(
        lost.map((o) => o.r.exitCode),
        lost.map((o) => describeFailure(o.r)).join("\n"),
      ).toEqual([1]);
      const winner = won[0]!.mission.persona;
      winners.push(winner);
      expect(won[0]!.r.stdout).toContain(`Claimed ${id}`);
      expect(lost[0]!.r.stderr).toContain(`already claimed by ${winner}`);
      expect(lost[0]!.r.stdout).toBe("");

      const shown = data<TaskJson>(ok(pantheon(dir, ["task", "show", id, "--json"]), "task show"));
      expect(shown.status).toBe("UNDERWAY");
      expect(shown.claimedBy).toBe(winner);
      expect(shown.mission).toBe(won[0]!.mission.id);
      // One commit for the winner, none for the loser.
      expect(git(dir, "rev-list", "--count", `${before}..${REF}`).trim()).toBe("1");
    }
    expect(winners).toHaveLength(ROUNDS);
    if (process.env.PANTHEON_TEST_VERBOSE) console.info(`claim race winners: ${winners.join(", ")}`);
    expectFsckClean(dir);
    // init + 2 missions + 5 creates + 5 claims
    expectLinearHistory(dir, 1 + 2 + ROUNDS + ROUNDS);
  });

  it("mixed race: 8 workers create, claim and close their own tasks; no update is lost", async () => {
    const dir = initRepo();
    const personas = ["Hephaestus", "Daedalus", "Talos", "Wayland", "Ptah", "Kothar", "Goibniu", "Ilmarinen"];
    const missions = personas.map((p) => startMission(dir, p));
    const PER = 5;
    const jobs: Job[] = missions.map((m) => ({
      cwd: dir,
      steps: Array.from({ length: PER }, (_, k) => [
        { argv: ["task", "create", "--title", `${m.persona} ${k}`, "--role", "engineer", "--json"] },
        { argv: ["--mission", m.id, "task", "claim", `{{id:${3 * k}}}`, "--json"] },
        { argv: ["--mission", m.id, "task", "close", `{{id:${3 * k}}}`, "--json"] },
      ]).flat(),
    }));
    const runs = await race(jobs);
    expectOverlap(runs);
    const results = runs.map((r) => r.results);

    const done = new Map<string, string>(); // task id → persona that reported it COMPLETE
    for (const [w, steps] of results.entries()) {
      for (const s of steps) if (s.exitCode !== 0) throw new Error(`worker ${w}: ${describeFailure(s)}`);
      for (let k = 0; k < PER; k++) {
        const created = data<TaskJson>({ stdout: steps[3 * k]!.stdout, stderr: "", exitCode: 0 });
        const claimed = data<TaskJson>({ stdout: steps[3 * k + 1]!.stdout, stderr: "", exitCode: 0 });
        const closed = data<TaskJson>({ stdout: steps[3 * k + 2]!.stdout, stderr: "", exitCode: 0 });
        expect(claimed.id).toBe(created.id);
        expect(claimed.claimedBy).toBe(missions[w]!.persona);
        expect(closed.id).toBe(created.id);
        expect(closed.status).toBe("COMPLETE");
        done.set(closed.id, missions[w]!.persona);
      }
    }
    expect(done.size).toBe(missions.length * PER);

    const tasks = listTasks(dir);
    expect(tasks).toHaveLength(missions.length * PER);
    expect(new Set(tasks.map((t) => t.number)).size).toBe(tasks.length);
    expect(tasks.map((t) => t.number).sort((x, y) => x - y)).toEqual(
      Array.from({ length: tasks.length }, (_, i) => i + 1),
    );
    for (const [id, persona] of done) {
      const t = tasks.find((x) => x.id === id);
      expect(t, id).toBeDefined();
      expect({ id, status: t!.status, claimedBy: t!.claimedBy, completedBy: t!.completedBy }).toEqual({
        id,
        status: "COMPLETE",
        claimedBy: persona,
        completedBy: persona,
      });
    }
    expect(counters(dir).tasks).toBe(missions.length * PER);
    expect(git(dir, "status", "--porcelain")).toBe("");
    expectFsckClean(dir);
    // init + 8 missions + 3 commits per task
    expectLinearHistory(dir, 1 + missions.length + 3 * missions.length * PER);
  });
});
