import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { initializedProject } from "../../helpers/project.js";
import { stateRef } from "../../helpers/repo.js";

/** Issue 3, item 4: the dashboard, for a person (terminal or pipe), for scripts (--json), and --watch. */

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Terminal cells of a line, written here independently of src/render: wide CJK and emoji take two. */
function cells(line: string): number {
  let w = 0;
  for (const ch of line.replace(ANSI, "")) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x300 && cp <= 0x36f) continue;
    const wide =
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) ||
      (cp >= 0x1f300 && cp <= 0x1faff);
    w += wide ? 2 : 1;
  }
  return w;
}

async function project() {
  return initializedProject();
}

type P = Awaited<ReturnType<typeof project>>;

/**
 * A busy project: personas on missions with claims, an epic under way, a blocked task, a
 * pending review, a claim left on an ENDED mission, long and wide titles.
 */
async function busy(p: P) {
  const as = (who: string, argv: string[]) => ["--as", who, ...argv];
  await p.ok(["mission", "start", "--role", "architect", "--persona", "Athena"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Icarus"]);
  await p.ok(["mission", "start", "--role", "tester", "--persona", "Cassandra"]);
  const epic = (
    await p.json(
      [
        "epic",
        "create",
        "--title",
        "User login with a rather long epic title that will not fit in sixty columns",
        "--priority",
        "high",
      ],
      "epic",
    )
  ).id;
  const design = (
    await p.json(
      [
        "task",
        "create",
        "--title",
        "Design the login flow and the token storage, in detail, for every client",
        "--role",
        "architect",
        "--epic",
        epic,
        "--priority",
        "high",
      ],
      "task",
    )
  ).id;
  const impl = (
    await p.json(
      [
        "task",
        "create",
        "--title",
        "ログイン画面の実装とトークン更新処理を行う長いタイトルの作業です",
        "--role",
        "engineer",
        "--epic",
        epic,
        "--depends-on",
        design,
      ],
      "task",
    )
  ).id;
  const tests = (
    await p.json(
      [
        "task",
        "create",
        "--title",
        "Test the login 🔐 expiry and refresh paths thoroughly across every supported browser",
        "--role",
        "tester",
        "--epic",
        epic,
        "--depends-on",
        impl,
      ],
      "task",
    )
  ).id;
  const stuck = (
    await p.json(
      [
        "task",
        "create",
        "--title",
        "Refactor the session cache left behind by Icarus when his mission ended",
        "--role",
        "engineer",
      ],
      "task",
    )
  ).id;
  const docs = (await p.json(["task", "create", "--title", "Document the API", "--role", "documentarian"], "task")).id;
  await p.ok(as("Athena", ["task", "claim", design]));
  await p.ok(as("Athena", ["task", "update", design, "--status", "REVIEW"]));
  await p.ok(as("Icarus", ["task", "claim", stuck]));
  await p.ok(["mission", "end", "MSN-0003"]); // Icarus leaves without --release
  await p.ok(
    as("Cassandra", [
      "review",
      "create",
      "--title",
      "Check the test plan of the login epic before anyone writes a single test",
    ]),
  );
  return { epic, design, impl, tests, stuck, docs };
}

const SECTIONS = [
  "Active personas",
  "Tasks",
  "Epics",
  "Blocked",
  "Pending reviews",
  "Claims left on ended missions",
  "Recent activity",
];

describe("dashboard --json", () => {
  it("carries missions, tasks, epics, blocked, pending reviews, orphaned claims and recent activity", async () => {
    const p = await project();
    const ids = await busy(p);
    const d = await p.json(["dashboard"], "dashboard");
    expect(Object.keys(d)).toEqual(
      expect.arrayContaining(["missions", "tasks", "epics", "blocked", "reviews", "orphanedClaims", "recent"]),
    );
    expect(d.missions.map((m: any) => [m.id, m.persona, m.role, m.status])).toEqual([
      ["MSN-0001", "Athena", "architect", "ACTIVE"],
      ["MSN-0002", "Hephaestus", "engineer", "ACTIVE"],
      ["MSN-0004", "Cassandra", "tester", "ACTIVE"],
    ]);
    expect(d.missions[0].claims.map((t: any) => [t.id, t.status])).toEqual([[ids.design, "REVIEW"]]);
    expect(d.tasks.byStatus).toEqual({
      TODO: 3,
      READY: 0,
      UNDERWAY: 1,
      REVIEW: 1,
      BLOCKED: 0,
      COMPLETE: 0,
      ABORTED: 0,
    });
    expect(d.tasks.completionRate).toBe(0);
    expect(d.epics.map((e: any) => [e.id, e.status, e.progress])).toEqual([
      [ids.epic, "UNDERWAY", { complete: 0, total: 3, percent: 0 }],
    ]);
    // the implementation waits on a review only: not blocked; the tests are blocked by it
    expect(d.blocked.map((t: any) => [t.id, t.blockedBy])).toEqual([[ids.tests, [ids.impl]]]);
    expect(d.reviews.map((r: any) => [r.id, r.status, r.task])).toEqual([
      ["RVW-001", "PENDING", ids.design],
      ["RVW-002", "PENDING", null],
    ]);
    expect(d.orphanedClaims).toHaveLength(1);
    expect(d.orphanedClaims[0]).toMatchObject({
      id: ids.stuck,
      status: "UNDERWAY",
      claimedBy: "Icarus",
      mission: "MSN-0003",
      endedMission: "MSN-0003",
    });
    expect(d.recent.length).toBeGreaterThan(0);
    expect(d.recent[0].commit).toBe(stateRef(p.dir));
    expect(d.recent[0].op).toBe("review.create");
    expect(d.recent[0].actor).toBe("Cassandra");
  });

  it("--epic ID narrows to that epic: its header, progress and tasks", async () => {
    const p = await project();
    const ids = await busy(p);
    const d = await p.json(["dashboard", "--epic", ids.epic], "dashboard");
    expect(d.epic).toMatchObject({ id: ids.epic, status: "UNDERWAY", progress: { complete: 0, total: 3, percent: 0 } });
    expect(d.epic.tasks.map((t: any) => t.id).sort()).toEqual([ids.design, ids.impl, ids.tests].sort());
    expect(d.tasks.byStatus).toMatchObject({ TODO: 2, REVIEW: 1, UNDERWAY: 0 });
    expect(d.blocked.map((t: any) => t.id)).toEqual([ids.tests]);
    expect(d.reviews.map((r: any) => r.id)).toEqual(["RVW-001"]);
    expect(d.orphanedClaims).toEqual([]);
    const human = await p.ok(["dashboard", "--epic", ids.epic]);
    expect(human.stdout).toContain(ids.epic);
    expect(human.stdout).toContain("0/3");
    for (const id of [ids.design, ids.impl, ids.tests]) expect(human.stdout).toContain(id);
    expect(human.stdout).toContain("Tasks (3)"); // the epic's tasks only (the project has 5)
    expect(human.stdout.split("Recent activity")[0]).not.toContain(ids.docs);
    // an unknown epic is refused
    const bad = await p.run(["dashboard", "--epic", "EPC-M-0042"]);
    expect(bad.exitCode).toBe(1);
  });

  it("--role ROLE narrows missions and tasks to that role", async () => {
    const p = await project();
    const ids = await busy(p);
    const d = await p.json(["dashboard", "--role", "eng"], "dashboard");
    expect(d.missions.map((m: any) => m.persona)).toEqual(["Hephaestus"]);
    expect(d.tasks.total ?? Object.values(d.tasks.byStatus).reduce((a: number, b: any) => a + b, 0)).toBe(2);
    expect(d.tasks.byStatus).toMatchObject({ TODO: 1, UNDERWAY: 1 });
    expect(d.orphanedClaims.map((t: any) => t.id)).toEqual([ids.stuck]);
    expect(d.blocked).toEqual([]);
    expect(d.reviews).toEqual([]);
    const tester = await p.json(["dashboard", "--role", "tester"], "dashboard");
    expect(tester.missions.map((m: any) => m.persona)).toEqual(["Cassandra"]);
    expect(tester.blocked.map((t: any) => t.id)).toEqual([ids.tests]);
    expect((await p.run(["dashboard", "--role", "administrator"])).exitCode).toBe(2);
    expect((await p.run(["dashboard", "--role", "wizard"])).exitCode).toBe(2);
  });

  it("--watch with --json is a usage error (exit 2)", async () => {
    const p = await project();
    const r = await p.run(["dashboard", "--watch", "--json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr).error.code).toBe("E_USAGE");
  });
});

describe("dashboard for a person", () => {
  it("on a 60-column terminal: every section, colour, and no line wider than 60 cells", async () => {
    const p = await project();
    const ids = await busy(p);
    const r = await p.ok(["dashboard"], { tty: true, columns: 60, env: { NO_COLOR: "" } });
    expect(r.stdout).toMatch(ANSI); // colour on a terminal
    const plain = r.stdout.replace(ANSI, "");
    for (const s of SECTIONS) expect(plain, s).toContain(s);
    const wide = plain.split("\n").filter((l) => cells(l) > 60);
    expect.soft(wide, `lines wider than 60 cells:\n${wide.join("\n")}`).toEqual([]);
    // a cut line still names what it is about: the orphaned claim's id is not cut away
    const orphan = plain.split("\n").find((l) => l.includes("Icarus") && l.includes("ENDED"));
    expect(orphan, "the orphaned claim's line").toBeDefined();
    expect(orphan).toContain(ids.stuck);
  });

  it("on a 60-column terminal with --epic: no line wider than 60 cells", async () => {
    const p = await project();
    const ids = await busy(p);
    const r = await p.ok(["dashboard", "--epic", ids.epic], { tty: true, columns: 60 });
    const wide = r.stdout
      .replace(ANSI, "")
      .split("\n")
      .filter((l) => cells(l) > 60);
    expect(wide, `lines wider than 60 cells:\n${wide.join("\n")}`).toEqual([]);
  });

  it("piped: plain text, no ANSI escape, every section, titles not cut", async () => {
    const p = await project();
    const ids = await busy(p);
    const r = await p.ok(["dashboard"], { tty: false, env: { NO_COLOR: "" } });
    expect(r.stdout).not.toContain("\u001b");
    for (const s of SECTIONS) expect(r.stdout, s).toContain(s);
    // piped output is not cut to a width
    expect(r.stdout).toContain("Test the login 🔐 expiry and refresh paths thoroughly across every supported browser");
    expect(r.stdout).toContain("Check the test plan of the login epic before anyone writes a single test");
    expect(r.stdout).toContain("User login with a rather long epic title that will not fit in sixty columns");
    // the resume hint names the task in full
    expect(r.stdout).toContain(`pantheon task claim ${ids.stuck}`);
  });

  it("escapes control characters from titles instead of sending them to the terminal", async () => {
    const p = await project();
    await p.ok(["task", "create", "--title", "evil \u001b[2J title\u0007", "--role", "engineer"]);
    await p.ok(["task", "create", "--title", "blocked by evil", "--role", "engineer", "--depends-on", "1"]);
    for (const tty of [true, false]) {
      const r = await p.ok(["dashboard"], { tty, columns: 100 });
      expect(r.stdout).not.toContain("\u001b[2J");
      expect(r.stdout).not.toContain("\u0007");
    }
  });

  it("shows the 15 most urgent blocked tasks and counts the rest, pointing to task blocked", async () => {
    const p = await project();
    const import_ = [
      { key: "root", title: "Root", role: "architect" },
      ...Array.from({ length: 18 }, (_, i) => ({
        key: `b${i}`,
        title: `Blocked ${i}`,
        role: "engineer",
        priority: i === 17 ? "critical" : "medium",
        depends_on: ["root"],
      })),
    ];
    const file = `${p.dir}/import.json`;
    writeFileSync(file, JSON.stringify(import_));
    await p.ok(["task", "import", file]);
    const text = (await p.ok(["dashboard"])).stdout;
    const section = text.split("== Blocked (18)")[1]!.split("\n\n")[0]!;
    expect(section.split("\n").filter((l) => l.includes("Blocked "))).toHaveLength(15);
    expect(section).toContain("Blocked 17"); // the critical one comes first
    expect(section).toContain("… and 3 more: pantheon task blocked");
    const d = await p.json(["dashboard"], "dashboard");
    expect(d.blocked).toHaveLength(15);
    expect(d.blockedTotal).toBe(18);
    expect(await p.json(["task", "blocked"], "tasks")).toHaveLength(18);
  });

  it("an empty project still draws", async () => {
    const p = await project();
    const r = await p.ok(["dashboard"], { tty: true, columns: 60 });
    expect(r.stdout).toContain("Active personas");
    expect(r.stdout).toContain("Tasks");
    const d = await p.json(["dashboard"], "dashboard");
    expect(d).toMatchObject({ missions: [], epics: [], blocked: [], reviews: [], orphanedClaims: [] });
    expect(d.tasks.completionRate).toBe(0);
  });
});

describe("orphaned claims", () => {
  it("a claim left on an ENDED mission shows in the dashboard and can be resumed", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    const t = (await p.json(["task", "create", "--title", "Long job", "--role", "engineer"], "task")).id;
    await p.ok(["--as", "Hephaestus", "task", "claim", t]);
    const ended = await p.ok(["mission", "end", "MSN-0001"]);
    expect(ended.stdout + ended.stderr).toContain(t); // the claim left behind is listed as a warning

    let d = await p.json(["dashboard"], "dashboard");
    expect(d.orphanedClaims.map((o: any) => [o.id, o.claimedBy, o.endedMission])).toEqual([
      [t, "Hephaestus", "MSN-0001"],
    ]);
    expect(d.missions).toEqual([]);
    const human = await p.ok(["dashboard"]);
    expect(human.stdout).toContain("Claims left on ended missions");
    expect(human.stdout).toContain(`pantheon task claim ${t}`);

    // the same persona resumes it on a new mission
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    const resumed = await p.json(["--as", "Hephaestus", "task", "claim", t], "task");
    expect(resumed).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: "MSN-0002" });
    d = await p.json(["dashboard"], "dashboard");
    expect(d.orphanedClaims).toEqual([]);
    expect(d.missions[0].claims.map((c: any) => c.id)).toEqual([t]);
  });

  it("another persona of the role resumes it only with --force", async () => {
    const p = await project();
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Icarus"]);
    await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
    const t = (await p.json(["task", "create", "--title", "Wings", "--role", "engineer"], "task")).id;
    await p.ok(["--as", "Icarus", "task", "claim", t]);
    await p.ok(["--as", "Icarus", "task", "update", t, "--status", "BLOCKED", "--notes", "too close to the sun"]);
    await p.ok(["mission", "end", "MSN-0001"]);
    expect((await p.json(["dashboard"], "dashboard")).orphanedClaims.map((o: any) => [o.id, o.status])).toEqual([
      [t, "BLOCKED"],
    ]);
    const ref = stateRef(p.dir);
    const refused = await p.run(["--as", "Daedalus", "task", "claim", t]);
    expect(refused.exitCode).toBe(1);
    expect(stateRef(p.dir)).toBe(ref);
    const forced = await p.json(["--as", "Daedalus", "task", "claim", t, "--force"], "task");
    expect(forced).toMatchObject({ status: "BLOCKED", claimedBy: "Daedalus", mission: "MSN-0002" });
    expect((await p.json(["dashboard"], "dashboard")).orphanedClaims).toEqual([]);
  });
});

describe("dashboard --watch (a real process)", () => {
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
  });

  /** Resolves when the child's stdout contains `needle` (counted from `from`), or rejects after `ms`. */
  function waitFor(
    out: { text: string },
    child: ChildProcessWithoutNullStreams,
    test: (text: string) => boolean,
    what: string,
    ms = 15_000,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (test(out.text)) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; stdout so far:\n${out.text}`));
      }, ms);
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`the watcher exited (${code}) before ${what}; stdout:\n${out.text}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.stdout.off("data", check);
        child.off("exit", onExit);
      };
      child.stdout.on("data", check);
      child.on("exit", onExit);
      check();
    });
  }

  it("draws, redraws when another command changes the state, and exits 0 on SIGINT", async () => {
    const p = await project();
    await p.ok(["task", "create", "--title", "First task", "--role", "engineer"]);
    const child = spawn(process.execPath, [BIN, "dashboard", "--watch"], {
      cwd: p.dir,
      env: testEnv({ NO_COLOR: "1" }),
    });
    const out = { text: "" };
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d: string) => (out.text += d));
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await waitFor(
        out,
        child,
        (t) => t.includes("Recent activity") && t.includes("task ENG-M-0001 create"),
        "the first draw",
      );
      expect(out.text).not.toContain("Watched change");
      const firstDraw = out.text.length;

      // another command (another process would do the same: the ref moves)
      await p.ok(["task", "create", "--title", "Watched change", "--role", "tester"]);
      await waitFor(
        out,
        child,
        (t) => t.slice(firstDraw).includes("task TST-M-0002 create"),
        "the redraw showing the change",
      );
      expect(out.text.slice(firstDraw)).toContain("Tasks (2)");
    } finally {
      child.kill("SIGINT");
    }
    const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000))]);
    if (code === "timeout") child.kill("SIGKILL");
    expect(code, `stderr:\n${stderr}`).toBe(0);
    expect(out.text).not.toContain("\u001b"); // piped: plain
  });
});
