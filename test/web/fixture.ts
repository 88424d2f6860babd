import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPantheon } from "../../src/api/open-pantheon.js";
import { writeSummonRecord } from "../../src/services/live/summon-record.js";
import { runCli } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git } from "../helpers/repo.js";

/** A repository outside any test (beforeAll): the caller removes it with `rmSync`. */
function makeRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-web-")));
  git(dir, "init", "-q", "-b", "main");
  git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
  return dir;
}

const DAY = 86_400_000;

/**
 * A project with two weeks of history (the API with a clock that moves day by day, so the charts
 * have days to draw): two epics, a dependency chain with a blocked path, reviews, personas on
 * missions (one with a live summon record of this process, so its card shows a live state) and
 * a task whose title is hostile HTML.
 */
export async function richProject(): Promise<{ dir: string; hephaestus: string }> {
  const dir = makeRepo();
  const init = await runCli(["init", "--yes"], { cwd: dir });
  if (init.exitCode !== 0) throw new Error(init.stderr);
  let now = Date.now() - 14 * DAY;
  const p = createPantheon({ cwd: dir, env: testEnv(), onWarning: () => {} }, { now: () => new Date(now) });
  const tick = (hours: number) => (now += hours * 3_600_000);
  const login = await p.epics.create({ title: "Login and sessions", priority: "high", description: "Users sign in" });
  const billing = await p.epics.create({ title: "Billing", priority: "medium" });
  const athena = await p.missions.start({
    role: "architect",
    persona: "Athena",
    objective: "Design the login and billing flows",
  });
  const heph = await p.missions.start({ role: "engineer", persona: "Hephaestus", objective: "Build login" });
  const artemis = await p.missions.start({ role: "tester", persona: "Artemis", objective: "Test what lands" });
  const created: string[] = [];
  const make = async (title: string, role: string, priority: string, epic: string | undefined, deps: string[] = []) => {
    const t = await p.tasks.create({ title, role: role as never, priority: priority as never, epic, dependsOn: deps });
    created.push(t.id);
    tick(3);
    return t.id;
  };
  const design = await make("Design the login flow", "architect", "high", login.id);
  const api = await make("Implement the login API", "engineer", "high", login.id, [design]);
  const ui = await make("Build the login form", "engineer", "medium", login.id, [design]);
  const tests = await make("Test login end to end", "tester", "high", login.id, [api, ui]);
  const sessions = await make("Session expiry and refresh", "engineer", "medium", login.id, [api]);
  const invoices = await make("Design invoices", "architect", "medium", billing.id);
  const pay = await make("Payment provider integration", "engineer", "high", billing.id, [invoices]);
  await make("Refunds", "engineer", "low", billing.id, [pay]);
  await make("Billing docs", "documentarian", "low", billing.id, [pay]);
  await make('<img src=x onerror="alert(1)"> hostile <script>alert(2)</script> title', "operator", "low", undefined);
  for (let i = 0; i < 8; i++)
    await make(`Chore ${i + 1}: tidy module ${"abcdefgh"[i]}`, "engineer", i % 3 ? "low" : "medium", undefined);
  const as = (m: { id: string }) => ({ mission: m.id });
  // Labels and acceptance criteria: session expiry (claimed, open) has 2 of 3 criteria checked.
  await p.tasks.label(api, ["api", "auth"]);
  await p.tasks.label(sessions, ["auth"]);
  for (const text of ["expired sessions get a 401", "refresh tokens rotate on every use", "documented in docs/api.md"])
    await p.tasks.ac(sessions, text);
  await p.tasks.check(sessions, 1);
  await p.tasks.check(sessions, 3);
  tick(20);
  await p.tasks.claim(design, as(athena));
  tick(26);
  await p.tasks.close(design, as(athena));
  tick(4);
  await p.tasks.claim(invoices, as(athena));
  tick(30);
  await p.tasks.close(invoices, as(athena));
  tick(5);
  await p.tasks.claim(api, as(heph));
  tick(40);
  await p.tasks.update(api, { status: "REVIEW", mission: heph.id });
  tick(6);
  const review = (await p.reviews.list({ status: "PENDING" }))[0]!;
  await p.reviews.approve(review.id, as(athena));
  tick(8);
  await p.tasks.claim(ui, as(heph));
  tick(30);
  await p.tasks.close(ui, as(heph));
  tick(10);
  await p.tasks.claim(sessions, as(heph));
  await p.tasks.note(sessions, "Refresh tokens rotate on every use", as(heph));
  tick(12);
  await p.tasks.claim(tests, as(artemis));
  await p.tasks.update(tests, { status: "BLOCKED", notes: "waiting for a test account", mission: artemis.id });
  for (const [i, id] of created.slice(-8).entries()) {
    if (i > 4) break;
    tick(14);
    if (i === 4) {
      await p.tasks.close(id, { status: "ABORTED", notes: "not needed" });
      continue;
    }
    await p.tasks.claim(id, as(heph));
    tick(9 + i * 5);
    await p.tasks.close(id, as(heph));
  }
  // Hephaestus's mission as summon would leave it: a live record of a running process (this one).
  const missions = await p.missions.list({ active: true });
  const m = missions.find((x) => x.persona === "Hephaestus")!;
  const commonDir = join(dir, git(dir, "rev-parse", "--git-common-dir").trim());
  const uid = JSON.parse(
    git(
      dir,
      "cat-file",
      "-p",
      `refs/coordination/main:missions/${String(m.number % 100).padStart(2, "0")}/${m.number}.json`,
    ),
  ).uid as string;
  writeSummonRecord(
    commonDir,
    { uid },
    { mission: m.handle, assistant: "claude", sessionId: null, since: new Date().toISOString() },
  );
  return { dir, hephaestus: heph.id };
}

/** `size` tasks by one `task import` (one commit), some depending on others, as the bench seeds them. */
export async function largeProject(size: number): Promise<string> {
  const dir = makeRepo();
  await runCli(["init", "--yes"], { cwd: dir });
  const roles = ["architect", "engineer", "tester", "documentarian", "inspector", "operator"];
  const entries = Array.from({ length: size }, (_, k) => {
    const i = k + 1;
    return {
      key: `k${i}`,
      title: `Task ${i}: ${["login", "billing", "search", "export", "sync"][i % 5]} work item ${i % 97}`,
      role: roles[i % roles.length],
      priority: ["critical", "high", "medium", "low"][i % 4],
      ...(i > 10 && i % 3 === 0 ? { depends_on: [`k${i - 7}`] } : {}),
    };
  });
  const file = join(dir, "import.json");
  writeFileSync(file, JSON.stringify(entries));
  const r = await runCli(["task", "import", file], { cwd: dir });
  if (r.exitCode !== 0) throw new Error(r.stderr);
  return dir;
}
