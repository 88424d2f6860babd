/**
 * Crashes and locks (DESIGN §2.3, §7 crash bar): a `pantheon` process killed at any point of a
 * mutation leaves `refs/coordination/main` at a valid commit, and a lock it leaves behind is
 * reported (path, age, fix), never silently waited on forever, and recoverable.
 *
 * `PANTHEON_FAULT_AT=<point>` makes the built bundle announce `pantheon-fault:<point>` on stderr
 * and hang there, so the test can SIGKILL it at exactly that point.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runBin, type CliResult } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git, makeRepo, readStateFile, stateRef } from "../helpers/repo.js";

const REF = "refs/coordination/main";
const CREATED = /^✓ Created ([A-Z]{3}-[A-Z]-\d{4,}) "([^"]*)"/m;

interface TaskJson {
  id: string;
  number: number;
  title: string;
}

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
});

function pantheon(cwd: string, argv: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  return runBin(argv, { cwd, env: { NO_COLOR: "1", ...env } });
}

function ok(r: CliResult, what: string): CliResult {
  if (r.exitCode !== 0) throw new Error(`${what} exited ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

function initRepo(): string {
  const dir = makeRepo();
  ok(pantheon(dir, ["init", "--yes"]), "pantheon init --yes");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Set up Pantheon");
  return dir;
}

/** The lock git and pantheon take on the state ref (the repository's common dir). */
function lockPath(dir: string): string {
  return join(dir, ".git", "refs", "coordination", "main.lock");
}

/** `task create` in human mode; returns the id its `✓` line names. */
function createTask(dir: string, title: string, env: NodeJS.ProcessEnv = {}): string {
  const r = ok(pantheon(dir, ["task", "create", "--title", title, "--role", "engineer"], env), `task create ${title}`);
  const m = CREATED.exec(r.stdout);
  if (!m) throw new Error(`no ✓ line in: ${r.stdout}`);
  expect(m[2]).toBe(title);
  return m[1]!;
}

function listTasks(dir: string): TaskJson[] {
  return (JSON.parse(ok(pantheon(dir, ["task", "list", "--json"]), "task list").stdout) as { data: TaskJson[] }).data;
}

function jsonError(r: CliResult): { code: string; message: string; hint: string | null } {
  const line = r.stderr
    .trim()
    .split("\n")
    .find((l) => l.startsWith("{"));
  if (!line) throw new Error(`no JSON error on stderr: ${r.stderr}`);
  return (JSON.parse(line) as { error: { code: string; message: string; hint: string | null } }).error;
}

/** `git fsck --strict` exits 0 and reports nothing but dangling objects (a killed writer's orphans). */
function expectFsckClean(dir: string): void {
  const r = spawnSync("git", ["fsck", "--strict", "--no-progress"], { cwd: dir, env: testEnv(), encoding: "utf8" });
  const complaints = `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^dangling (commit|tree|blob|tag) [0-9a-f]{40}$/.test(l));
  expect({ status: r.status, complaints }).toEqual({ status: 0, complaints: [] });
}

function expectRefIsCommit(dir: string): string {
  const tip = stateRef(dir);
  expect(tip).toMatch(/^[0-9a-f]{40}$/);
  expect(git(dir, "cat-file", "-t", tip!).trim()).toBe("commit");
  return tip!;
}

interface Killed {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** ms from spawn until the fault line appeared */
  faultAfterMs: number;
}

/** Spawns the bundle with PANTHEON_FAULT_AT=point, waits for its fault line, SIGKILLs it. */
function killAtFault(dir: string, argv: string[], point: string, env: NodeJS.ProcessEnv = {}): Promise<Killed> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: dir,
      env: testEnv({ NO_COLOR: "1", ...env, PANTHEON_FAULT_AT: point }),
    });
    let stdout = "";
    let stderr = "";
    let faultAfterMs = -1;
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      if (faultAfterMs < 0 && stderr.includes(`pantheon-fault:${point}\n`)) {
        faultAfterMs = Date.now() - t0;
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      if (faultAfterMs < 0)
        reject(new Error(`never reached ${point} (exit ${exitCode}, ${signal})\nstdout: ${stdout}\nstderr: ${stderr}`));
      else resolve({ stdout, stderr, exitCode, signal, faultAfterMs });
    });
  });
}

/** mulberry32: a small seeded PRNG, so the kill loop makes the same choices on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("a process killed during a mutation", () => {
  it.each(["after-objects", "holding-lock", "after-rename"] as const)(
    "killed at %s: the ref names a valid commit, printed tasks survive",
    async (point) => {
      const dir = initRepo();
      const kept = [createTask(dir, "kept one"), createTask(dir, "kept two")];
      const before = expectRefIsCommit(dir);

      const killed = await killAtFault(dir, ["task", "create", "--title", "doomed", "--role", "engineer"], point);
      expect(killed.signal).toBe("SIGKILL");
      expect(killed.stdout).not.toContain("✓");

      const tip = expectRefIsCommit(dir);
      expectFsckClean(dir);
      if (point === "after-rename") {
        // The ref moved: the new commit is a child of the old tip and holds the task.
        expect(tip).not.toBe(before);
        expect(git(dir, "rev-parse", `${tip}^`).trim()).toBe(before);
        expect(git(dir, "rev-list", "--count", `${before}..${tip}`).trim()).toBe("1");
        expect(JSON.parse(readStateFile(dir, "tasks/03/3.json"))).toMatchObject({ number: 3, title: "doomed" });
      } else {
        expect(tip).toBe(before);
      }
      expect(existsSync(lockPath(dir))).toBe(point === "holding-lock");

      // Reads work (they never take the lock), and every task a ✓ was printed for is there.
      const ids = listTasks(dir).map((t) => t.id);
      for (const id of kept) expect(ids).toContain(id);

      if (point === "holding-lock") {
        const lock = lockPath(dir);
        // The lock holds the commit the killed process was about to publish: a valid child of the tip.
        const pending = readFileSync(lock, "utf8").trim();
        expect(git(dir, "cat-file", "-t", pending).trim()).toBe("commit");
        expect(git(dir, "rev-parse", `${pending}^`).trim()).toBe(before);

        // Real git honours the same lock.
        const gu = spawnSync("git", ["update-ref", REF, before, before], {
          cwd: dir,
          env: testEnv(),
          encoding: "utf8",
        });
        expect(gu.status).not.toBe(0);
        expect(gu.stderr).toContain("main.lock");

        const human = pantheon(dir, ["task", "create", "--title", "blocked", "--role", "engineer"], {
          PANTHEON_RETRY_BUDGET_MS: "300",
        });
        expect(human.exitCode, human.stderr).toBe(3);
        expect(human.stdout).toBe("");
        expect(human.stderr).toContain(lock);
        expect(human.stderr).toMatch(/\d+ (s|min|h) old/);
        expect(human.stderr).toMatch(/^✗ /m);
        expect(human.stderr).toMatch(/^\s*hint: .*pantheon doctor --break-lock/m);

        const asJson = pantheon(dir, ["task", "create", "--title", "blocked", "--role", "engineer", "--json"], {
          PANTHEON_RETRY_BUDGET_MS: "300",
        });
        expect(asJson.exitCode, asJson.stderr).toBe(3);
        expect(asJson.stdout).toBe("");
        const err = jsonError(asJson);
        expect(err.code).toBe("E_LOCKED");
        expect(err.message).toContain(lock);
        expect(err.message).toMatch(/\d+ (s|min|h) old/);
        expect(err.hint).toContain("--break-lock");

        expect(stateRef(dir)).toBe(before);
        expect(existsSync(lock)).toBe(true); // refusing is not breaking

        rmSync(lock); // what `pantheon doctor --break-lock` will do
      }

      // The next command just works, and takes the next number.
      const next = createTask(dir, "after the crash");
      const tasks = listTasks(dir);
      const expected =
        point === "after-rename"
          ? ["kept one", "kept two", "doomed", "after the crash"]
          : ["kept one", "kept two", "after the crash"];
      expect(tasks.map((t) => t.title)).toEqual(expected);
      expect(tasks.map((t) => t.number)).toEqual(expected.map((_, i) => i + 1));
      expect(tasks.at(-1)!.id).toBe(next);
      expect(JSON.parse(readStateFile(dir, "counters.json")).tasks).toBe(expected.length);
      expect(existsSync(lockPath(dir))).toBe(false);
      expectFsckClean(dir);
    },
  );
});

describe("a held lock", () => {
  it("older than the retry budget fails fast with E_LOCKED, and the ref is unchanged", () => {
    const dir = initRepo();
    createTask(dir, "before");
    const before = expectRefIsCommit(dir);
    const lock = lockPath(dir);
    writeFileSync(lock, `${before}\n`);
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(lock, hourAgo, hourAgo);

    // Default 10 s budget: a lock older than that cannot be waited out, so no waiting (the test's
    // own timeout is not raised, and this file must stay well inside its wall-time budget).
    const r = pantheon(dir, ["task", "create", "--title", "stuck", "--role", "engineer", "--json"]);
    expect(r.exitCode, r.stderr).toBe(3);
    const err = jsonError(r);
    expect(err.code).toBe("E_LOCKED");
    expect(err.message).toContain(lock);
    expect(err.message).toMatch(/(60 min|1 h) old/);
    expect(err.hint).toContain("--break-lock");
    expect(stateRef(dir)).toBe(before);
    expect(existsSync(lock)).toBe(true);

    rmSync(lock);
    createTask(dir, "unstuck");
    expect(listTasks(dir).map((t) => t.title)).toEqual(["before", "unstuck"]);
  });

  it("fresh, under contention: exits 3 once the retry budget is spent, and the ref is unchanged", () => {
    const dir = initRepo();
    createTask(dir, "before");
    const before = expectRefIsCommit(dir);
    const lock = lockPath(dir);
    writeFileSync(lock, `${before}\n`);

    const r = pantheon(dir, ["task", "create", "--title", "contended", "--role", "engineer", "--json"], {
      PANTHEON_RETRY_BUDGET_MS: "200",
    });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stdout).toBe("");
    expect(jsonError(r).code).toMatch(/^E_(LOCKED|CONTENTION)$/);
    expect(stateRef(dir)).toBe(before);
    expect(readFileSync(lock, "utf8")).toBe(`${before}\n`);
    expect(listTasks(dir).map((t) => t.title)).toEqual(["before"]);
    rmSync(lock);
  });

  it("released within the retry budget: the waiting command succeeds", async () => {
    const dir = initRepo();
    const lock = lockPath(dir);
    writeFileSync(lock, `${expectRefIsCommit(dir)}\n`);
    // The command says when its compare-and-swap met the lock (PANTHEON_FAULT_AT=lock-busy): the
    // lock is released only then, so the test shows a wait that ended well, never a command that
    // started after the release and met no lock at all.
    const child = spawn(process.execPath, [BIN, "task", "create", "--title", "patient", "--role", "engineer"], {
      cwd: dir,
      env: testEnv({ NO_COLOR: "1", PANTHEON_RETRY_BUDGET_MS: "8000", PANTHEON_FAULT_AT: "lock-busy" }),
    });
    let stdout = "";
    let stderr = "";
    let met: () => void = () => undefined;
    const metLock = new Promise<void>((r) => (met = r));
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("pantheon-fault:lock-busy\n")) met();
    });
    const exit = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    const first = await Promise.race([metLock.then(() => "met" as const), exit.then(() => "exited" as const)]);
    expect(first, `the command must meet the lock before it is released; stderr: ${stderr}`).toBe("met");
    rmSync(lock);
    expect(await exit, stderr).toBe(0);
    expect(stdout).toMatch(CREATED);
    expect(listTasks(dir).map((t) => t.title)).toEqual(["patient"]);
  });
});

describe("kill loop", () => {
  it("40 creates killed at seeded random moments: fsck clean, every printed task present, numbers unique", async () => {
    const dir = initRepo();
    const rand = prng(0x9a7e0);

    // Node start-up takes far longer than 40 ms, so a delay counted from spawn would only ever
    // kill processes that had not begun. Aim the 0-40 ms window at the mutation instead: start it
    // ~20 ms before the moment a create has its objects written (measured here, on this machine).
    const calib: number[] = [];
    for (let i = 0; i < 2; i++)
      calib.push(
        (
          await killAtFault(
            dir,
            ["task", "create", "--title", `calibration ${i}`, "--role", "engineer"],
            "after-objects",
          )
        ).faultAfterMs,
      );
    const base = Math.max(0, Math.min(...calib) - 20);
    const ITERATIONS = 40;

    const printed = new Map<string, string>(); // id → title of every ✓ seen
    const locksBroken: number[] = [];
    let completed = 0;
    let killed = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const delay = base + Math.floor(rand() * 41);
      const child = spawn(process.execPath, [BIN, "task", "create", "--title", `t${i}`, "--role", "engineer"], {
        cwd: dir,
        env: testEnv({ NO_COLOR: "1" }),
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
        child.on("close", (code, signal) => r({ code, signal })),
      );
      const timer = setTimeout(() => child.kill("SIGKILL"), delay);
      const { code, signal } = await exit;
      clearTimeout(timer);
      if (signal === "SIGKILL") killed++;
      else {
        expect(code, `t${i}: ${stderr}`).toBe(0);
        completed++;
      }
      const m = CREATED.exec(stdout);
      if (m) {
        expect(m[2]).toBe(`t${i}`);
        printed.set(m[1]!, m[2]!);
      }
      if (existsSync(lockPath(dir))) {
        locksBroken.push(i);
        rmSync(lockPath(dir)); // simulating pantheon doctor --break-lock
      }
      expectRefIsCommit(dir);
    }
    expect(killed + completed).toBe(ITERATIONS);

    expectFsckClean(dir);
    const tasks = listTasks(dir);
    const byId = new Map(tasks.map((t) => [t.id, t]));
    for (const [id, title] of printed) expect(byId.get(id)?.title, id).toBe(title);
    const numbers = tasks.map((t) => t.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    // A number is allocated in the same commit as its task: no gaps, and the counter agrees.
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
    expect(JSON.parse(readStateFile(dir, "counters.json")).tasks).toBe(numbers.length);
    // Each title was attempted once; none may appear twice.
    const titles = tasks.map((t) => t.title);
    expect(new Set(titles).size).toBe(titles.length);
    // History stays one line: one commit per task that landed, on top of init.
    expect(Number(git(dir, "rev-list", "--count", REF).trim())).toBe(1 + tasks.length);
    expect(git(dir, "rev-list", "--min-parents=2", REF).trim()).toBe("");

    // And the repository is still usable.
    const last = createTask(dir, "after the loop");
    expect(listTasks(dir).at(-1)!.id).toBe(last);
    expectFsckClean(dir);
    if (process.env.PANTHEON_TEST_VERBOSE) {
      console.info(
        `kill loop: base ${base} ms, ${killed} killed, ${completed} completed, ${printed.size} printed, ${tasks.length} landed, locks broken at ${JSON.stringify(locksBroken)}`,
      );
    }
  });
});
