import { describe, expect, it } from "vitest";
import { stateRef } from "../../helpers/repo.js";
import {
  ATHENA,
  castNamedIn,
  castProject,
  type CastProject,
  DAEDALUS,
  expectRefused,
  HEPH,
  lit,
  taskIn,
  ZEUS,
  type Project,
  type SetupState,
} from "./fixture.js";

/**
 * DESIGN §1.4: anything not in the state table is refused with exit 1, naming the task, its
 * current state or the reason, and the actor, with a hint; the ref does not move.
 */

interface Refusal {
  name: string;
  state: SetupState;
  /** Global flags choosing the actor (none: the Director). */
  actor?: string[];
  env?: NodeJS.ProcessEnv;
  /** Extra set-up after the task reached its state. */
  extra?: (p: Project) => Promise<void>;
  argv: string[];
  /** The actor's name as the message must give it. */
  who: string;
  /** What else the first line must say: the current state or the reason. */
  says: RegExp[];
  /** Refused for who acts, before the task is looked at (DESIGN §1.7): the line names the mission, not the task. */
  actorRefused?: true;
}

const ID = "ENG-H-0001";
const NOBODY = ["--as", "Nobody"];
const ICARUS_ENDED = ["--mission", "@Icarus"];
const CRONUS_ENDED = ["--mission", "@Cronus"];

const claimCases: Refusal[] = [
  { name: "claim by the Director", state: "TODO", argv: ["task", "claim", "1"], who: "Director", says: [/mission/i] },
  {
    name: "claim by a persona without a mission (--as)",
    state: "TODO",
    actor: NOBODY,
    argv: ["task", "claim", "1"],
    who: "Nobody",
    says: [/no ACTIVE mission/],
  },
  {
    name: "claim by a persona without a mission (PANTHEON_PERSONA)",
    state: "TODO",
    env: { PANTHEON_PERSONA: "Nobody" },
    argv: ["task", "claim", ID],
    who: "Nobody",
    says: [/no ACTIVE mission/],
  },
  {
    name: "claim under an ENDED mission (--mission)",
    state: "TODO",
    actor: ICARUS_ENDED,
    argv: ["task", "claim", "1"],
    who: "Icarus",
    says: [/^✗ Mission MSN-\d{4}:[a-z]+-[a-z]+ of Icarus has ENDED/],
    actorRefused: true,
  },
  {
    name: "claim under an ENDED mission (PANTHEON_MISSION)",
    state: "READY",
    env: { PANTHEON_MISSION: "@Icarus" },
    argv: ["task", "claim", "1"],
    who: "Icarus",
    says: [/^✗ Mission MSN-\d{4}:[a-z]+-[a-z]+ of Icarus has ENDED/],
    actorRefused: true,
  },
  {
    name: "claim of another role's task without --force",
    state: "TODO",
    actor: ATHENA,
    argv: ["task", "claim", "1"],
    who: "Athena",
    says: [/engineer/, /architect/],
  },
  {
    name: "claim of a blocked task",
    state: "TODO",
    extra: async (p) => {
      await p.ok(["task", "create", "--title", "Prerequisite", "--role", "architect"]);
      await p.ok(["task", "depend", "1", "2"]);
    },
    actor: HEPH,
    argv: ["task", "claim", "1"],
    who: "Hephaestus",
    says: [/blocked/i],
  },
  {
    name: "claim of a task whose dependency was ABORTED",
    state: "TODO",
    extra: async (p) => {
      await p.ok(["task", "create", "--title", "Prerequisite", "--role", "architect"]);
      await p.ok(["task", "depend", "1", "2"]);
      await p.ok(["task", "close", "2", "--status", "ABORTED", "--notes", "dropped"]);
    },
    actor: HEPH,
    argv: ["task", "claim", "1"],
    who: "Hephaestus",
    says: [/blocked/i],
  },
  {
    name: "claim of an UNDERWAY task claimed by another persona on an ACTIVE mission",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "claim", "1"],
    who: "Daedalus",
    says: [/claimed by Hephaestus/],
  },
  {
    name: "claim of a REVIEW task claimed by another persona on an ACTIVE mission",
    state: "REVIEW",
    actor: DAEDALUS,
    argv: ["task", "claim", "1"],
    who: "Daedalus",
    says: [/claimed by Hephaestus/],
  },
  {
    name: "claim of a BLOCKED task claimed by another persona on an ACTIVE mission",
    state: "BLOCKED",
    actor: DAEDALUS,
    argv: ["task", "claim", "1", "--force"],
    who: "Daedalus",
    says: [/claimed by Hephaestus/],
  },
  {
    name: "claim by the claimant who already holds it",
    state: "UNDERWAY",
    actor: HEPH,
    argv: ["task", "claim", "1"],
    who: "Hephaestus",
    says: [/claimed by Hephaestus/],
  },
];

const updateCases: Refusal[] = [
  {
    name: "update --status REVIEW by a non-owner",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "update", "1", "--status", "REVIEW"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  {
    name: "update --status REVIEW by a persona of another role",
    state: "UNDERWAY",
    actor: ATHENA,
    argv: ["task", "update", "1", "--status", "review"],
    who: "Athena",
    says: [/Hephaestus/],
  },
  {
    name: "update --status REVIEW of a TODO task",
    state: "TODO",
    argv: ["task", "update", "1", "--status", "REVIEW"],
    who: "Director",
    says: [/TODO/],
  },
  {
    name: "update --status UNDERWAY by the Director (no mission)",
    state: "TODO",
    argv: ["task", "update", "1", "--status", "UNDERWAY"],
    who: "Director",
    says: [/mission/i],
  },
  {
    name: "update --status UNDERWAY of a task another persona holds",
    state: "REVIEW",
    actor: DAEDALUS,
    argv: ["task", "update", "1", "--status", "UNDERWAY"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  {
    name: "update --status UNDERWAY of an UNDERWAY task another persona holds",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "update", "1", "--status", "UNDERWAY"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  {
    name: "update --status BLOCKED by a non-owner",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "update", "1", "--status", "BLOCKED", "--notes", "x"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  {
    name: "update --status TODO of a claimed BLOCKED task (Director)",
    state: "BLOCKED",
    argv: ["task", "update", "1", "--status", "TODO"],
    who: "Director",
    says: [/claimed by Hephaestus/],
  },
  {
    name: "update --status TODO of a claimed BLOCKED task (its claimant)",
    state: "BLOCKED",
    actor: HEPH,
    argv: ["task", "update", "1", "--status", "TODO"],
    who: "Hephaestus",
    says: [/claimed by Hephaestus/],
  },
  {
    name: "update --status TODO of an UNDERWAY task",
    state: "UNDERWAY",
    argv: ["task", "update", "1", "--status", "TODO"],
    who: "Director",
    says: [/UNDERWAY/],
  },
  {
    name: "update --status READY (not a transition)",
    state: "TODO",
    argv: ["task", "update", "1", "--status", "READY"],
    who: "Director",
    says: [/TODO/],
  },
  {
    name: "update --status COMPLETE (not a transition)",
    state: "UNDERWAY",
    argv: ["task", "update", "1", "--status", "COMPLETE"],
    who: "Director",
    says: [/UNDERWAY/],
  },
];

const otherCases: Refusal[] = [
  {
    name: "close by a non-owner persona",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "close", "1"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  {
    name: "close of a REVIEW task by a non-owner persona",
    state: "REVIEW",
    actor: ATHENA,
    argv: ["task", "close", "1"],
    who: "Athena",
    says: [/Hephaestus/],
  },
  {
    name: "close --status ABORTED by a non-owner persona",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "close", "1", "--status", "ABORTED", "--notes", "mine now"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  { name: "close of a TODO task", state: "TODO", argv: ["task", "close", "1"], who: "Director", says: [/TODO/] },
  { name: "close of a READY task", state: "READY", argv: ["task", "close", "1"], who: "Director", says: [/READY/] },
  {
    name: "close of a BLOCKED task",
    state: "BLOCKED",
    argv: ["task", "close", "1"],
    who: "Director",
    says: [/BLOCKED/],
  },
  {
    name: "close by an administrator whose mission ENDED",
    state: "UNDERWAY",
    actor: CRONUS_ENDED,
    argv: ["task", "close", "1"],
    who: "Cronus",
    says: [/has ENDED/],
    actorRefused: true,
  },
  {
    name: "handoff by a non-owner",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "handoff", "1", "--notes", "take it"],
    who: "Daedalus",
    says: [/claimed by Hephaestus/],
  },
  {
    name: "handoff of a REVIEW task",
    state: "REVIEW",
    argv: ["task", "handoff", "1", "--notes", "take it"],
    who: "Director",
    says: [/REVIEW/],
  },
  {
    name: "handoff of a READY task",
    state: "READY",
    argv: ["task", "handoff", "1", "--notes", "take it"],
    who: "Director",
    says: [/READY/],
  },
  {
    name: "unassign by a plain persona who is not the claimant",
    state: "UNDERWAY",
    actor: DAEDALUS,
    argv: ["task", "unassign", "1", "--notes", "freeing it"],
    who: "Daedalus",
    says: [/Hephaestus/],
  },
  {
    name: "unassign of an unclaimed READY task by a plain persona",
    state: "READY",
    actor: DAEDALUS,
    argv: ["task", "unassign", "1", "--notes", "freeing it"],
    who: "Daedalus",
    says: [/administrator|Director/],
  },
  {
    name: "unassign of a TODO task",
    state: "TODO",
    argv: ["task", "unassign", "1", "--notes", "freeing it"],
    who: "Director",
    says: [/TODO/],
  },
  ...(["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"] as const).map(
    (state): Refusal => ({
      name: `reopen of an open (${state}) task`,
      state,
      argv: ["task", "reopen", "1", "--notes", "again"],
      who: "Director",
      says: [lit(state)],
    }),
  ),
];

/** Every event from COMPLETE and ABORTED except reopen, each by an actor who could otherwise do it. */
const closedCases: Refusal[] = (["COMPLETE", "ABORTED"] as const).flatMap((state) => [
  {
    name: `claim of a ${state} task`,
    state,
    actor: HEPH,
    argv: ["task", "claim", "1"],
    who: "Hephaestus",
    says: [lit(state)],
  },
  {
    name: `claim --force of a ${state} task`,
    state,
    actor: DAEDALUS,
    argv: ["task", "claim", "1", "--force"],
    who: "Daedalus",
    says: [lit(state)],
  },
  {
    name: `update --status UNDERWAY of a ${state} task`,
    state,
    actor: HEPH,
    argv: ["task", "update", "1", "--status", "UNDERWAY"],
    who: "Hephaestus",
    says: [lit(state)],
  },
  {
    name: `update --status REVIEW of a ${state} task`,
    state,
    argv: ["task", "update", "1", "--status", "REVIEW"],
    who: "Director",
    says: [lit(state)],
  },
  {
    name: `update --status BLOCKED of a ${state} task`,
    state,
    argv: ["task", "update", "1", "--status", "BLOCKED", "--notes", "x"],
    who: "Director",
    says: [lit(state)],
  },
  {
    name: `update --status TODO of a ${state} task`,
    state,
    argv: ["task", "update", "1", "--status", "TODO"],
    who: "Director",
    says: [lit(state)],
  },
  {
    name: `handoff of a ${state} task`,
    state,
    argv: ["task", "handoff", "1", "--notes", "x"],
    who: "Director",
    says: [lit(state)],
  },
  { name: `close of a ${state} task`, state, argv: ["task", "close", "1"], who: "Director", says: [lit(state)] },
  {
    name: `close --status ABORTED of a ${state} task`,
    state,
    argv: ["task", "close", "1", "--status", "ABORTED", "--notes", "x"],
    who: "Director",
    says: [lit(state)],
  },
  {
    name: `unassign of a ${state} task`,
    state,
    actor: ZEUS,
    argv: ["task", "unassign", "1", "--notes", "x"],
    who: "Zeus",
    says: [lit(state)],
  },
]);

/** One refused case against a repository already in the case's state; soft, so a table reports every failure. */
async function checkRefusal(p: CastProject, c: Refusal, ref: string | null): Promise<void> {
  const argv = p.sub([...(c.actor ?? []), ...c.argv]);
  const env = c.env ? { env: p.sub(c.env) } : {};
  const r = await expectRefused(p, argv, 1, [...(c.actorRefused ? [] : [lit(ID)]), lit(c.who), ...c.says], {
    ...env,
    label: c.name,
    soft: true,
    refBefore: ref,
  });
  // With --json the same refusal is one error document on stderr and nothing on stdout.
  const j = await p.run([...argv, "--json"], env);
  expect.soft(j.exitCode, c.name).toBe(1);
  expect.soft(j.stdout, c.name).toBe("");
  let err: { error?: { code?: string; message?: string; hint?: unknown } } = {};
  try {
    err = JSON.parse(j.stderr);
  } catch {
    expect.soft(j.stderr, `${c.name}: --json puts one JSON document on stderr`).toMatch(/^\{.*\}\n$/);
  }
  expect.soft(err.error?.code, c.name).toMatch(/^E_/);
  expect.soft(err.error?.message, c.name).toBe(r.stderr.split("\n")[0]!.slice(2));
  expect.soft(typeof err.error?.hint, c.name).toBe("string");
}

/**
 * Refusals never change the state, so the cases that share a starting state share one fresh
 * repository (a mutation costs 10-30 ms in-process): one test per starting state, every case checked.
 */
function byStartingState(cases: Refusal[]): [string, Refusal[]][] {
  const groups = new Map<string, Refusal[]>();
  for (const c of cases) {
    const key = c.extra ? `${c.state}, ${c.name}` : c.state;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups].map(([key, group]) => [`from ${key}: ${group.map((c) => c.name).join("; ")}`, group]);
}

async function checkGroup(group: Refusal[]): Promise<void> {
  const first = group[0]!;
  const p = await castProject(castNamedIn(...group.map((c) => [c.actor, c.env, c.who])));
  await taskIn(p, first.state);
  await first.extra?.(p);
  const ref = stateRef(p.dir);
  for (const c of group) await checkRefusal(p, c, ref);
  expect(stateRef(p.dir), "no refusal (nor its --json twin) moved the ref").toBe(ref);
}

describe("state table refusals (DESIGN §1.4)", () => {
  it.each(byStartingState([...claimCases, ...updateCases, ...otherCases, ...closedCases]))(
    "%s",
    async (_title, group) => checkGroup(group),
  );
});

describe("refusal hints", () => {
  it("the claim of a task held on an ENDED mission by another persona suggests --force", async () => {
    const p = await castProject(["Hephaestus", "Daedalus"]);
    await taskIn(p, "UNDERWAY");
    await p.ok(["mission", "end", "MSN-0001"]);
    const r = await expectRefused(p, [...DAEDALUS, "task", "claim", "1"], 1, [lit(ID), /Daedalus/, /ENDED/]);
    expect(r.stderr.split("\n")[1]).toContain("--force");
  });

  it("a refused claim of another role's task suggests --force", async () => {
    const p = await castProject(["Hephaestus", "Athena"]);
    await taskIn(p, "TODO");
    const r = await expectRefused(p, [...ATHENA, "task", "claim", "1"], 1, [lit(ID)]);
    expect(r.stderr.split("\n")[1]).toContain("--force");
  });

  it("a refusal by state names a command the actor may run", async () => {
    const p = await castProject(["Hephaestus"]);
    await taskIn(p, "COMPLETE");
    const r = await expectRefused(p, ["task", "close", "1"], 1, [lit(ID), /COMPLETE/]);
    expect(r.stderr.split("\n")[1]).toMatch(/pantheon task reopen ENG-H-0001/);
  });
});
