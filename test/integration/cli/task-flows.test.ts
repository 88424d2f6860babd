import { describe, expect, it } from "vitest";
import { git, stateRef } from "../../helpers/repo.js";
import {
  ATHENA,
  castNamedIn,
  castProject,
  DAEDALUS,
  expectRefused,
  HEPH,
  showTask,
  taskIn,
  ZEUS,
  type CastProject,
  type Project,
  type SetupState,
} from "./fixture.js";

/** DESIGN §1.4: every allowed row of the state table works and lands in the right state. */

interface Allowed {
  name: string;
  state: SetupState;
  actor?: string[];
  env?: NodeJS.ProcessEnv;
  /** Extra set-up after the task reached its state; returns the id of a task it created ({dep}). */
  extra?: (p: Project, id: string) => Promise<string>;
  /** Personas the extra set-up needs besides those the case names. */
  needs?: string[];
  /** `{id}` stands for the task's id. */
  argv: string[];
  /** The `allowedActions` entry the actor sees before running it (none for --force: views assume no flags). */
  action?: string;
  to: string;
  /** Fields of `task show --json` after the command (`@Name` is that persona's mission, `{dep}` the extra task). */
  fields?: Record<string, unknown>;
  /** The last note's kind and author, when the command adds one. */
  note?: { kind: string; by: string; text: string };
}

const HEPH_CLAIM = { claimedBy: "Hephaestus", mission: "@Hephaestus" };
const NO_CLAIM = { claimedBy: null, mission: null };

const depOnArchitectTask = (after: (p: Project, dep: string) => Promise<void>) => async (p: Project, id: string) => {
  const dep = (await p.json<{ id: string }>(["task", "create", "--title", "Design", "--role", "architect"], "task")).id;
  await p.ok(["task", "depend", id, dep]);
  await after(p, dep);
  return dep;
};

const claims: Allowed[] = [
  {
    name: "TODO claim by a persona (--as)",
    state: "TODO",
    actor: HEPH,
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: HEPH_CLAIM,
  },
  {
    name: "TODO claim under --mission",
    state: "TODO",
    actor: ["--mission", "@Daedalus"],
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: { claimedBy: "Daedalus", mission: "@Daedalus" },
  },
  {
    name: "TODO claim under PANTHEON_MISSION",
    state: "TODO",
    env: { PANTHEON_MISSION: "@Hephaestus" },
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: HEPH_CLAIM,
  },
  {
    name: "TODO claim as PANTHEON_PERSONA",
    state: "TODO",
    env: { PANTHEON_PERSONA: "Daedalus" },
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: { claimedBy: "Daedalus", mission: "@Daedalus" },
  },
  {
    name: "READY claim by another persona of the role",
    state: "READY",
    actor: DAEDALUS,
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: { claimedBy: "Daedalus", mission: "@Daedalus" },
  },
  {
    name: "TODO claim --force by a persona of another role",
    state: "TODO",
    actor: ATHENA,
    argv: ["task", "claim", "{id}", "--force"],
    to: "UNDERWAY",
    fields: { claimedBy: "Athena", mission: "@Athena" },
  },
  {
    name: "TODO claim --force of a blocked task",
    state: "TODO",
    extra: depOnArchitectTask(async () => {}),
    actor: HEPH,
    argv: ["task", "claim", "{id}", "--force"],
    to: "UNDERWAY",
    fields: { ...HEPH_CLAIM, blockedBy: ["{dep}"] },
  },
  {
    name: "TODO claim while a dependency is in REVIEW (engineer → tester pattern)",
    state: "TODO",
    needs: ["Athena"],
    extra: depOnArchitectTask(async (p, dep) => {
      await p.ok([...ATHENA, "task", "claim", dep]);
      await p.ok([...ATHENA, "task", "update", dep, "--status", "REVIEW"]);
    }),
    actor: HEPH,
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: { ...HEPH_CLAIM, blockedBy: [], waitingOnReview: ["{dep}"] },
  },
  {
    name: "TODO claim once its dependency is COMPLETE",
    state: "TODO",
    needs: ["Athena"],
    extra: depOnArchitectTask(async (p, dep) => {
      await p.ok([...ATHENA, "task", "claim", dep]);
      await p.ok([...ATHENA, "task", "close", dep]);
    }),
    actor: HEPH,
    argv: ["task", "claim", "{id}"],
    action: "claim",
    to: "UNDERWAY",
    fields: { ...HEPH_CLAIM, blockedBy: [], waitingOnReview: [], dependencies: ["{dep}"] },
  },
];

const updates: Allowed[] = [
  {
    name: "TODO → UNDERWAY by a persona (claims it)",
    state: "TODO",
    actor: HEPH,
    argv: ["task", "update", "{id}", "--status", "UNDERWAY"],
    action: "update --status UNDERWAY",
    to: "UNDERWAY",
    fields: HEPH_CLAIM,
  },
  {
    name: "READY → UNDERWAY by a persona (claims it)",
    state: "READY",
    actor: DAEDALUS,
    argv: ["task", "update", "{id}", "--status", "underway"],
    action: "update --status UNDERWAY",
    to: "UNDERWAY",
    fields: { claimedBy: "Daedalus", mission: "@Daedalus" },
  },
  {
    name: "unclaimed BLOCKED → UNDERWAY by a persona (claims it)",
    state: "BLOCKED_UNCLAIMED",
    actor: HEPH,
    argv: ["task", "update", "{id}", "--status", "UNDERWAY"],
    action: "update --status UNDERWAY",
    to: "UNDERWAY",
    fields: HEPH_CLAIM,
  },
  {
    name: "claimed BLOCKED → UNDERWAY by its claimant",
    state: "BLOCKED",
    actor: HEPH,
    argv: ["task", "update", "{id}", "--status", "UNDERWAY"],
    action: "update --status UNDERWAY",
    to: "UNDERWAY",
    fields: HEPH_CLAIM,
  },
  {
    name: "REVIEW → UNDERWAY by its claimant",
    state: "REVIEW",
    actor: HEPH,
    argv: ["task", "update", "{id}", "--status", "UNDERWAY"],
    action: "update --status UNDERWAY",
    to: "UNDERWAY",
    fields: HEPH_CLAIM,
  },
  {
    name: "UNDERWAY → REVIEW by its claimant",
    state: "UNDERWAY",
    actor: HEPH,
    argv: ["task", "update", "{id}", "--status", "REVIEW"],
    action: "update --status REVIEW",
    to: "REVIEW",
    fields: HEPH_CLAIM,
  },
  {
    name: "UNDERWAY → REVIEW by an administrator",
    state: "UNDERWAY",
    actor: ZEUS,
    argv: ["task", "update", "{id}", "--status", "REVIEW"],
    action: "update --status REVIEW",
    to: "REVIEW",
    fields: HEPH_CLAIM,
  },
  {
    name: "UNDERWAY → REVIEW by the Director",
    state: "UNDERWAY",
    argv: ["task", "update", "{id}", "--status", "REVIEW"],
    action: "update --status REVIEW",
    to: "REVIEW",
    fields: HEPH_CLAIM,
  },
  {
    name: "TODO → BLOCKED by the Director",
    state: "TODO",
    argv: ["task", "update", "{id}", "--status", "BLOCKED", "--notes", "needs keys"],
    action: "update --status BLOCKED",
    to: "BLOCKED",
    fields: NO_CLAIM,
    note: { kind: "note", by: "Director", text: "needs keys" },
  },
  {
    name: "READY → BLOCKED by any persona (unclaimed)",
    state: "READY",
    actor: DAEDALUS,
    argv: ["task", "update", "{id}", "--status", "BLOCKED", "--notes", "needs keys"],
    action: "update --status BLOCKED",
    to: "BLOCKED",
    fields: NO_CLAIM,
  },
  {
    name: "UNDERWAY → BLOCKED by its claimant",
    state: "UNDERWAY",
    actor: HEPH,
    argv: ["task", "update", "{id}", "--status", "BLOCKED", "--notes", "needs keys"],
    action: "update --status BLOCKED",
    to: "BLOCKED",
    fields: HEPH_CLAIM,
    note: { kind: "note", by: "Hephaestus", text: "needs keys" },
  },
  {
    name: "REVIEW → BLOCKED by an administrator",
    state: "REVIEW",
    actor: ZEUS,
    argv: ["task", "update", "{id}", "--status", "BLOCKED", "--notes", "needs keys"],
    action: "update --status BLOCKED",
    to: "BLOCKED",
    fields: HEPH_CLAIM,
  },
  {
    name: "unclaimed BLOCKED → TODO by the Director",
    state: "BLOCKED_UNCLAIMED",
    argv: ["task", "update", "{id}", "--status", "TODO"],
    action: "update --status TODO",
    to: "TODO",
    fields: NO_CLAIM,
  },
  {
    name: "unclaimed BLOCKED → TODO by a persona",
    state: "BLOCKED_UNCLAIMED",
    actor: DAEDALUS,
    argv: ["task", "update", "{id}", "--status", "todo"],
    action: "update --status TODO",
    to: "TODO",
    fields: NO_CLAIM,
  },
];

const handoffs: Allowed[] = [
  {
    name: "TODO handoff by the Director",
    state: "TODO",
    argv: ["task", "handoff", "{id}", "--notes", "spec in docs/"],
    action: "handoff",
    to: "READY",
    fields: NO_CLAIM,
    note: { kind: "handoff", by: "Director", text: "spec in docs/" },
  },
  {
    name: "unclaimed BLOCKED handoff by a persona",
    state: "BLOCKED_UNCLAIMED",
    actor: DAEDALUS,
    argv: ["task", "handoff", "{id}", "--notes", "unblocked now"],
    action: "handoff",
    to: "READY",
    fields: NO_CLAIM,
    note: { kind: "handoff", by: "Daedalus", text: "unblocked now" },
  },
  {
    name: "claimed BLOCKED handoff by its claimant clears the claim",
    state: "BLOCKED",
    actor: HEPH,
    argv: ["task", "handoff", "{id}", "--notes", "over to you"],
    action: "handoff",
    to: "READY",
    fields: NO_CLAIM,
    note: { kind: "handoff", by: "Hephaestus", text: "over to you" },
  },
  {
    name: "UNDERWAY handoff by its claimant clears the claim",
    state: "UNDERWAY",
    actor: HEPH,
    argv: ["task", "handoff", "{id}", "--notes", "over to you"],
    action: "handoff",
    to: "READY",
    fields: NO_CLAIM,
    note: { kind: "handoff", by: "Hephaestus", text: "over to you" },
  },
  {
    name: "UNDERWAY handoff by an administrator",
    state: "UNDERWAY",
    actor: ZEUS,
    argv: ["task", "handoff", "{id}", "--notes", "reassigning"],
    action: "handoff",
    to: "READY",
    fields: NO_CLAIM,
    note: { kind: "handoff", by: "Zeus", text: "reassigning" },
  },
  {
    name: "UNDERWAY handoff by the Director",
    state: "UNDERWAY",
    argv: ["task", "handoff", "{id}", "--notes", "reassigning"],
    action: "handoff",
    to: "READY",
    fields: NO_CLAIM,
  },
];

const closes: Allowed[] = [
  {
    name: "UNDERWAY close by its claimant",
    state: "UNDERWAY",
    actor: HEPH,
    argv: ["task", "close", "{id}"],
    action: "close",
    to: "COMPLETE",
    fields: { completedBy: "Hephaestus", claimedBy: "Hephaestus" },
  },
  {
    name: "UNDERWAY close by an administrator: completedBy is the claimant",
    state: "UNDERWAY",
    actor: ZEUS,
    argv: ["task", "close", "{id}"],
    action: "close",
    to: "COMPLETE",
    fields: { completedBy: "Hephaestus" },
  },
  {
    name: "REVIEW close by the Director: completedBy is the claimant",
    state: "REVIEW",
    argv: ["task", "close", "{id}", "--status", "COMPLETE"],
    action: "close",
    to: "COMPLETE",
    fields: { completedBy: "Hephaestus" },
  },
  {
    name: "REVIEW close by its claimant (--status complete)",
    state: "REVIEW",
    actor: HEPH,
    argv: ["task", "close", "{id}", "--status", "complete", "--notes", "done"],
    action: "close",
    to: "COMPLETE",
    fields: { completedBy: "Hephaestus" },
    note: { kind: "note", by: "Hephaestus", text: "done" },
  },
  ...(
    [
      ["TODO", undefined],
      ["READY", DAEDALUS],
      ["UNDERWAY", HEPH],
      ["REVIEW", ZEUS],
      ["BLOCKED", undefined],
      ["BLOCKED_UNCLAIMED", DAEDALUS],
    ] as const
  ).map(
    ([state, actor]): Allowed => ({
      name: `${state} close --status ABORTED by ${actor?.[1] ?? "the Director"}`,
      state,
      ...(actor && { actor: [...actor] }),
      argv: ["task", "close", "{id}", "--status", "ABORTED", "--notes", "superseded"],
      action: "close --status ABORTED",
      to: "ABORTED",
      fields: { completedBy: null },
      note: { kind: "note", by: actor?.[1] ?? "Director", text: "superseded" },
    }),
  ),
];

const unassigns: Allowed[] = [
  {
    name: "UNDERWAY unassign by its claimant",
    state: "UNDERWAY",
    actor: HEPH,
    argv: ["task", "unassign", "{id}", "--notes", "stuck"],
    action: "unassign",
    to: "TODO",
    fields: NO_CLAIM,
    note: { kind: "reassign", by: "Hephaestus", text: "stuck" },
  },
  {
    name: "REVIEW unassign by an administrator",
    state: "REVIEW",
    actor: ZEUS,
    argv: ["task", "unassign", "{id}", "--notes", "stuck"],
    action: "unassign",
    to: "TODO",
    fields: NO_CLAIM,
    note: { kind: "reassign", by: "Zeus", text: "stuck" },
  },
  {
    name: "BLOCKED unassign by the Director",
    state: "BLOCKED",
    argv: ["task", "unassign", "{id}", "--notes", "stuck"],
    action: "unassign",
    to: "TODO",
    fields: NO_CLAIM,
    note: { kind: "reassign", by: "Director", text: "stuck" },
  },
  {
    name: "READY unassign by the Director",
    state: "READY",
    argv: ["task", "unassign", "{id}", "--notes", "back to the pool"],
    action: "unassign",
    to: "TODO",
    fields: NO_CLAIM,
  },
  {
    name: "READY unassign by an administrator",
    state: "READY",
    actor: ZEUS,
    argv: ["task", "unassign", "{id}", "--notes", "back to the pool"],
    action: "unassign",
    to: "TODO",
    fields: NO_CLAIM,
  },
];

const reopens: Allowed[] = [
  {
    name: "COMPLETE reopen by the Director clears claim and completedBy",
    state: "COMPLETE",
    argv: ["task", "reopen", "{id}", "--notes", "regression"],
    action: "reopen",
    to: "TODO",
    fields: { ...NO_CLAIM, completedBy: null },
    note: { kind: "note", by: "Director", text: "regression" },
  },
  {
    name: "ABORTED reopen by a persona",
    state: "ABORTED",
    actor: DAEDALUS,
    argv: ["task", "reopen", "{id}", "--notes", "needed after all"],
    action: "reopen",
    to: "TODO",
    fields: { ...NO_CLAIM, completedBy: null },
  },
];

function commitCount(dir: string): number {
  return Number(git(dir, "rev-list", "--count", "refs/coordination/main").trim());
}

/** One allowed case on a task of its own; soft, so a table reports every failing case. */
async function checkAllowed(p: CastProject, c: Allowed): Promise<void> {
  const id = await taskIn(p, c.state);
  const dep = (await c.extra?.(p, id)) ?? "";
  const fill = <T>(v: T): T =>
    JSON.parse(JSON.stringify(p.sub(v)).replaceAll("{id}", id).replaceAll("{dep}", dep)) as T;
  const opts = c.env ? { env: fill(c.env) } : {};
  const actor = fill(c.actor ?? []);
  const before = await p.json([...actor, "task", "show", id], "task", opts);
  if (c.action) expect.soft(before.allowedActions, `${c.name}: allowedActions in ${before.status}`).toContain(c.action);
  const commits = commitCount(p.dir);
  const r = await p.run([...actor, ...fill(c.argv)], opts);
  expect.soft(r.exitCode, `${c.name}\n${r.stderr}`).toBe(0);
  expect.soft(r.stdout.split("\n")[0], c.name).toMatch(new RegExp(`^✓ .*${id}`));
  expect.soft(commitCount(p.dir), `${c.name}: one command, one commit`).toBe(commits + 1);
  const after = await showTask(p, id);
  expect.soft(after.status, c.name).toBe(c.to);
  expect.soft(after.id, c.name).toBe(id);
  expect.soft(after, c.name).toMatchObject(fill(c.fields ?? {}));
  if (c.note) {
    expect.soft(after.notes.at(-1), c.name).toMatchObject(c.note);
    expect.soft(after.notes.length, c.name).toBe(before.notes.length + 1);
  }
}

/**
 * Each table runs in one fresh project with the personas its cases name; every case works on a
 * task of its own there (a mutation costs 10-30 ms in-process, so a project per case would be slow).
 */
async function checkTable(cases: Allowed[]): Promise<void> {
  const p = await castProject(castNamedIn(...cases.map((c) => [c.actor, c.env, c.fields, c.note, c.needs])));
  for (const c of cases) await checkAllowed(p, c);
}

describe("allowed transitions (DESIGN §1.4)", () => {
  const tables: [string, Allowed[]][] = [
    ["claim", claims],
    ["update --status", updates],
    ["handoff", handoffs],
    ["close", closes],
    ["unassign", unassigns],
    ["reopen", reopens],
  ];
  it.each(tables.map(([event, cases]) => [`${event}: ${cases.map((c) => c.name).join("; ")}`, cases] as const))(
    "%s",
    async (_title, cases) => checkTable(cases),
  );
});

describe("claims left on an ENDED mission", () => {
  it("the claimant resumes an UNDERWAY, BLOCKED or REVIEW claim under a new mission: same state, new mission", async () => {
    const p = await castProject(["Hephaestus"]);
    const states = ["UNDERWAY", "BLOCKED", "REVIEW"] as const;
    const ids: string[] = [];
    for (const state of states) ids.push(await taskIn(p, state));
    const end = await p.ok(["mission", "end", "MSN-0001"]);
    for (const id of ids) expect(end.stderr, "kept claims are listed as a warning").toContain(id);
    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    expect(m.id).toBe("MSN-0002");
    for (const [i, state] of states.entries()) {
      expect((await showTask(p, ids[i]!)).mission).toBe("MSN-0001");
      const r = await p.ok([...HEPH, "task", "claim", ids[i]!]);
      expect(r.stdout).toMatch(/^✓ /);
      expect(await showTask(p, ids[i]!)).toMatchObject({ status: state, claimedBy: "Hephaestus", mission: "MSN-0002" });
    }
  });

  it("another persona takes over an UNDERWAY, BLOCKED or REVIEW claim only with --force", async () => {
    const p = await castProject(["Hephaestus", "Daedalus"]);
    const states = ["UNDERWAY", "BLOCKED", "REVIEW"] as const;
    const ids: string[] = [];
    for (const state of states) ids.push(await taskIn(p, state));
    await p.ok(["mission", "end", "MSN-0001"]);
    for (const [i, state] of states.entries()) {
      const id = ids[i]!;
      await expectRefused(p, [...DAEDALUS, "task", "claim", id], 1, [new RegExp(id), /Daedalus/, /Hephaestus/]);
      await p.ok([...DAEDALUS, "task", "claim", id, "--force"]);
      expect(await showTask(p, id)).toMatchObject({ status: state, claimedBy: "Daedalus", mission: "MSN-0002" });
    }
  });

  it("a persona of another role needs --force to resume it too", async () => {
    const p = await castProject(["Hephaestus", "Athena"]);
    await taskIn(p, "UNDERWAY");
    await p.ok(["mission", "end", "MSN-0001"]);
    await expectRefused(p, [...ATHENA, "task", "claim", "1"], 1, [/ENG-H-0001/, /Athena/]);
    await p.ok([...ATHENA, "task", "claim", "1", "--force"]);
    expect(await showTask(p, 1)).toMatchObject({ status: "UNDERWAY", claimedBy: "Athena", mission: "MSN-0002" });
  });

  it("a persona without an ACTIVE mission cannot resume it", async () => {
    const p = await castProject(["Hephaestus"]);
    await taskIn(p, "UNDERWAY");
    await p.ok(["mission", "end", "MSN-0001"]);
    // --as Hephaestus names his last mission, which has ENDED: nothing is done under it (DESIGN §1.7).
    await expectRefused(p, [...HEPH, "task", "claim", "1", "--force"], 1, [
      /MSN-0001:[a-z]+-[a-z]+ of Hephaestus has ENDED/,
    ]);
  });
});

describe("mission end", () => {
  async function threeClaims(p: Project): Promise<void> {
    for (const t of ["One", "Two", "Three"]) await p.ok(["task", "create", "--title", t, "--role", "engineer"]);
    for (const n of ["1", "2", "3"]) await p.ok([...HEPH, "task", "claim", n]);
    await p.ok([...HEPH, "task", "update", "2", "--status", "BLOCKED", "--notes", "waiting"]);
    await p.ok([...HEPH, "task", "update", "3", "--status", "REVIEW"]);
  }

  it("--release returns UNDERWAY and BLOCKED claims to TODO in one commit; REVIEW keeps its claim", async () => {
    const p = await castProject(["Hephaestus", "Daedalus"]);
    await threeClaims(p);
    const commits = commitCount(p.dir);
    const r = await p.ok(["mission", "end", "MSN-0001", "--release", "--json"]);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ schemaVersion: 1, kind: "mission", data: { id: "MSN-0001", status: "ENDED" } });
    expect((doc.changed as { id: string }[]).map((c) => c.id).sort()).toEqual(["ENG-M-0001", "ENG-M-0002"]);
    expect(commitCount(p.dir)).toBe(commits + 1);
    expect(await showTask(p, 1)).toMatchObject({ status: "TODO", claimedBy: null, mission: null });
    expect(await showTask(p, 2)).toMatchObject({ status: "TODO", claimedBy: null, mission: null });
    expect(await showTask(p, 3)).toMatchObject({ status: "REVIEW", claimedBy: "Hephaestus", mission: "MSN-0001" });
    const human = await p.run(["mission", "end", "MSN-0002", "--release"]);
    expect(human.stdout).toMatch(/^✓ Ended MSN-0002/);
  });

  it("without --release the claims stay, listed as a warning on stderr", async () => {
    const p = await castProject(["Hephaestus"]);
    await threeClaims(p);
    const r = await p.ok(["mission", "end", "MSN-0001"]);
    expect(r.stdout).toMatch(/^✓ Ended MSN-0001/);
    for (const id of ["ENG-M-0001", "ENG-M-0002", "ENG-M-0003"]) expect(r.stderr).toContain(id);
    expect(await showTask(p, 1)).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus" });
    expect(await showTask(p, 2)).toMatchObject({ status: "BLOCKED", claimedBy: "Hephaestus" });
  });

  it("ending an ENDED mission is refused and leaves the ref alone", async () => {
    const p = await castProject(["Hephaestus", "Icarus"]);
    expect(p.missions.Icarus).toBe("MSN-0002");
    await expectRefused(p, ["mission", "end", "MSN-0002"], 1, [/MSN-0002/, /ENDED/]);
    await expectRefused(p, ["mission", "end", "MSN-0002", "--release"], 1, [/MSN-0002/]);
  });

  it("a persona ends its own mission with --mission; the Director must name one", async () => {
    const p = await castProject(["Hephaestus", "Daedalus"]);
    await p.ok(["--mission", "MSN-0002", "mission", "end", "--summary", "done"]);
    expect(await p.json(["mission", "show", "MSN-0002"], "mission")).toMatchObject({
      status: "ENDED",
      summary: "done",
    });
    await expectRefused(p, ["mission", "end"], 2);
  });
});

describe("a whole task lifecycle", () => {
  it("create → claim → review → close → reopen → claim again, with one commit per step", async () => {
    const p = await castProject(["Hephaestus", "Daedalus"]);
    const start = stateRef(p.dir);
    const steps: [string[], string][] = [
      [["task", "create", "--title", "Login", "--role", "eng", "--priority", "h"], "TODO"],
      [[...HEPH, "task", "claim", "ENG-H-0001"], "UNDERWAY"],
      [[...HEPH, "task", "update", "ENG-H-0001", "--status", "REVIEW", "--notes", "ready"], "REVIEW"],
      [[...HEPH, "task", "close", "ENG-H-0001"], "COMPLETE"],
      [["task", "reopen", "ENG-H-0001", "--notes", "regression"], "TODO"],
      [[...DAEDALUS, "task", "claim", "ENG-H-0001"], "UNDERWAY"],
    ];
    for (const [argv, status] of steps) {
      const t = await p.json(argv, "task");
      expect(t.status, argv.join(" ")).toBe(status);
    }
    expect(Number(git(p.dir, "rev-list", "--count", `${start}..refs/coordination/main`).trim())).toBe(steps.length);
    const t = await showTask(p, 1);
    expect(t).toMatchObject({ claimedBy: "Daedalus", mission: "MSN-0002", completedBy: null });
    expect(t.notes.map((n: { text: string }) => n.text)).toEqual(["ready", "regression"]);
  });
});
