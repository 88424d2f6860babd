/**
 * Numbers that a sync gave to another record (DESIGN §1.2, issue 12 point 7): clone 1 created
 * task 1, epic 1, review 1 and mission 1 offline, clone 0 published its own; clone 1's sync
 * renumbered its records to 2. In clone 1 (whose renumber log knows it), a READ through the old
 * number resolves to the published record with a notice naming the renumbered one; a MUTATION
 * through it is refused (exit 1) naming both, unless repeated with --force. `mission end MSN-0001
 * --release` used to end the other clone's mission. Clone 0 never used the number for anything
 * else: it acts without a word.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { expectFailure } from "../cli/fixture.js";

async function renumbered() {
  const { clones } = await makeOriginAndClones(2);
  const [c0, c1] = clones as [Clone, Clone];
  for (const [c, who] of [
    [c0, "Zero"],
    [c1, "One"],
  ] as const) {
    await c.ok(["task", "create", "--title", `${who}'s task`, "--role", "engineer"]);
    await c.ok(["epic", "create", "--title", `${who}'s epic`]);
    await c.ok(["review", "create", "--title", `${who}'s review`]);
    await c.ok(["mission", "start", "--role", "engineer", "--persona", who === "Zero" ? "Hephaestus" : "Ptah"]);
  }
  await c0.ok(["sync"]);
  const r = await c1.ok(["sync"]);
  for (const moved of [
    "ENG-M-0001 → ENG-M-0002",
    "EPC-M-0001 → EPC-M-0002",
    "RVW-001 → RVW-002",
    "MSN-0001 → MSN-0002",
  ])
    expect(r.stdout).toContain(moved);
  await c1.ok(["task", "create", "--title", "One's later", "--role", "engineer"]); // ENG-M-0003, not in clone 0
  // Published, so that reads here are in step with origin and print no freshness line (DESIGN §3.5).
  await c1.ok(["sync"]);
  return { c0, c1 };
}

interface Case {
  kind: string;
  argv: string[];
  /** The published record the number names now, and this clone's renumbered one. */
  current: string;
  mine: string;
  /** What --force changed, as `show --json` of the published record sees it. */
  after: [string[], string, Record<string, unknown>];
  /** The command names only records clone 0 has too (task 3 exists in clone 1 only). */
  inClone0?: false;
}

const CASES: Case[] = [
  {
    kind: "task",
    argv: ["task", "note", "1", "hello"],
    current: "ENG-M-0001",
    mine: "ENG-M-0002",
    after: [["task", "show", "1"], "task", { title: "Zero's task" }],
  },
  {
    kind: "task",
    argv: ["task", "close", "ENG-M-0001", "--status", "ABORTED", "--notes", "done"],
    current: "ENG-M-0001",
    mine: "ENG-M-0002",
    after: [["task", "show", "1"], "task", { status: "ABORTED" }],
  },
  {
    kind: "task",
    argv: ["task", "depend", "3", "1"],
    current: "ENG-M-0001",
    mine: "ENG-M-0002",
    after: [["task", "show", "3"], "task", { dependencies: ["ENG-M-0001"] }],
    inClone0: false,
  },
  {
    kind: "epic",
    argv: ["epic", "edit", "EPC-M-0001", "--title", "Renamed"],
    current: "EPC-M-0001",
    mine: "EPC-M-0002",
    after: [["epic", "show", "1"], "epic", { title: "Renamed" }],
  },
  {
    kind: "epic",
    argv: ["task", "link", "3", "1"],
    current: "EPC-M-0001",
    mine: "EPC-M-0002",
    after: [["task", "show", "3"], "task", { epic: "EPC-M-0001" }],
    inClone0: false,
  },
  {
    kind: "review",
    argv: ["review", "approve", "RVW-001"],
    current: "RVW-001",
    mine: "RVW-002",
    after: [["review", "show", "1"], "review", { status: "APPROVED" }],
  },
  {
    kind: "mission",
    argv: ["mission", "end", "MSN-0001", "--release"],
    current: "MSN-0001",
    mine: "MSN-0002",
    after: [["mission", "show", "1"], "mission", { status: "ENDED", persona: "Hephaestus" }],
  },
  {
    kind: "mission",
    argv: ["--mission", "1", "task", "note", "3", "as mission 1"],
    current: "MSN-0001",
    mine: "MSN-0002",
    after: [["task", "show", "3"], "task", { title: "One's later" }],
    inClone0: false,
  },
];

describe("a mutation through a number this clone's sync gave to another record", () => {
  it.each(CASES.map((c) => [c.argv.join(" "), c] as const))(
    "%s: refused naming both; --force acts on the published record",
    async (_name, c) => {
      const { c0, c1 } = await renumbered();
      const before = c1.ref();
      const r = await c1.run(c.argv);
      expectFailure(r, {
        exitCode: 1,
        refBefore: before,
        dir: c1.dir,
        firstLine: [
          new RegExp(`names ${c.current} now`),
          new RegExp(`renumbered this clone's ${c.kind} `),
          new RegExp(c.mine),
        ],
      });
      // The hint is the command typed, once with this clone's record and once reaching the
      // published one (by its handle for a mission, else with --force: both records were
      // ENG-M-0001, so even the full id is ambiguous here). Exact hints: renumbered-forms.test.ts.
      const hint = r.stderr.split("\n")[1]!;
      expect(hint).toMatch(
        new RegExp(`^  hint: for this clone's ${c.kind}: pantheon .*${c.mine}.*; for ${c.current}: pantheon `),
      );
      expect(hint).toMatch(c.kind === "mission" ? /MSN-0001:[a-z]+-[a-z]+/ : / --force$/);

      const forced = await c1.run([...c.argv, "--force"]);
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect(forced.stderr, "the notice still names the renumbered record").toContain(c.mine);
      expect(await c1.json<any>(c.after[0], c.after[1])).toMatchObject(c.after[2]);

      // Clone 0 never had another record with this number: no refusal, no notice.
      if (c.inClone0 !== false) {
        const plain = await c0.run(c.argv);
        expect(plain.exitCode, plain.stderr).toBe(0);
        expect(plain.stderr).toBe("");
      }
    },
  );
});

describe("a read through the old number", () => {
  it.each([
    [["task", "show", "1"], "Zero's task", "ENG-M-0002"],
    [["epic", "show", "EPC-M-0001"], "Zero's epic", "EPC-M-0002"],
    [["review", "show", "1"], "Zero's review", "RVW-002"],
    [["mission", "show", "MSN-0001"], "Hephaestus", "MSN-0002"],
  ] as const)(
    "%s resolves to the published record with a one-line notice naming the renumbered one",
    async (argv, shows, mine) => {
      const { c1 } = await renumbered();
      const r = await c1.ok([...argv]);
      expect(r.stdout).toContain(shows);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`${mine} had it here before a sync renumbered it`);
    },
  );

  it("the renumbered records answer to their new ids and the mission to its handle, with no notice", async () => {
    const { c1 } = await renumbered();
    for (const argv of [
      ["task", "show", "ENG-M-0002"],
      ["epic", "show", "2"],
      ["review", "show", "RVW-002"],
      ["mission", "show", "2"],
    ]) {
      const r = await c1.ok(argv);
      expect(r.stderr, argv.join(" ")).toBe("");
      expect(r.stdout, argv.join(" ")).toMatch(/One|Ptah/);
    }
    const mine = await c1.json<any>(["mission", "show", "2"], "mission");
    const viaHandle = await c1.ok([
      "--mission",
      `MSN-0001:${mine.codename}`,
      "task",
      "note",
      "ENG-M-0002",
      "by handle",
    ]);
    expect(viaHandle.stderr).toBe("");
    expect((await c1.json<any>(["task", "show", "2"], "task")).notes.at(-1)).toMatchObject({
      by: "Ptah",
      text: "by handle",
    });
  });
});

describe("formerRoles through a sync", () => {
  it("a role changed on both clones: the published one wins and both old prefixes keep naming the task", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Shared", "--role", "engineer", "--priority", "high"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["task", "edit", "1", "--role", "tester"]);
    await c1.ok(["task", "edit", "1", "--role", "documentarian"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["sync"]);
    for (const c of [c0, c1]) {
      const t = await c.json<any>(["task", "show", "1"], "task");
      expect(t.id).toBe("TST-H-0001");
      expect(t.formerIds).toEqual(["ENG-H-0001", "DOC-H-0001"]);
      const r = await c.ok(["task", "show", "DOC-H-0001"]);
      expect(r.stderr.trim()).toBe("! note: DOC-H-0001 is now TST-H-0001");
    }
    expect(c0.ref()).toBe(c1.ref());
  });
});
