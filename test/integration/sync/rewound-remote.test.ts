/**
 * A remote rewound by a stale `git push --mirror` (DESIGN §3.2; security round, point 3): a
 * clone that last synced long ago mirrors its refs to the origin, putting refs/coordination/main
 * back to its old commit. Every clone's sync says it was a rewind, naming what the origin lost
 * by id, with `--restore` first; `sync --restore` publishes it again and every clone converges
 * with every record; `--accept-rewrite` (the other way out) lists what it drops by id, and no
 * message says "0" of anything while records are dropped.
 */
import { describe, expect, it } from "vitest";
import { jsonData } from "../../helpers/cli.js";
import { makeOriginAndClones, REF, syncUntilEqual, type Clone } from "../../helpers/clones.js";

/**
 * Clone 2 syncs once and goes quiet; clones 0 and 1 publish three tasks and a claim; clone 1
 * makes one task it does not publish; then clone 2 mirrors its stale refs to the origin.
 */
async function staleMirrorPush() {
  const setup = await makeOriginAndClones(3);
  const [c0, c1, c2] = setup.clones as [Clone, Clone, Clone];
  await c0.ok(["task", "create", "--title", "Before the gap", "--role", "engineer"]);
  await c0.ok(["sync"]);
  for (const c of [c1, c2]) await c.ok(["sync"]);
  const stale = c2.ref()!;
  await c0.ok(["task", "create", "--title", "Published by 0", "--role", "engineer"]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  await c1.ok(["task", "create", "--title", "Published by 1", "--role", "tester"]);
  await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Hermes"]);
  await c1.ok(["--mission", "MSN-0001", "task", "claim", "ENG-M-0001"]);
  await c1.ok(["sync"]);
  await c0.ok(["sync"]);
  await c1.ok(["task", "create", "--title", "Unpublished in 1", "--role", "doc"]);
  const published = setup.originRef()!;
  c2.git("push", "-q", "--mirror", "origin");
  expect(setup.originRef(), "the mirror push put the origin's state back").toBe(stale);
  return { ...setup, c0, c1, c2, stale, published };
}

const titles = async (c: Clone) =>
  (await c.json<Array<{ title: string }>>(["task", "list"], "tasks")).map((t) => t.title).sort();

/** Every record the origin lost: three tasks created since (whole) and the claim on ENG-M-0001 (changes), and a mission. */
const LOST = /ENG-M-0001 \(changes\), ENG-M-0002, TST-M-0003, MSN-0001/;

describe("a remote rewound by a stale git push --mirror", () => {
  it("every clone's sync says it was a rewind, names what origin lost by id, and offers --restore first; nothing changes", async () => {
    const { c0, c1, originRef, stale } = await staleMirrorPush();
    for (const c of [c0, c1]) {
      const mine = c.ref();
      const r = await c.run(["sync"]);
      expect(r.exitCode, r.stderr).toBe(3);
      expect(r.stdout).toBe("");
      const [line, hint, ...rest] = r.stderr.trimEnd().split("\n");
      expect(rest).toEqual([]);
      expect(line).toMatch(
        new RegExp(
          `^✗ origin's state was rewound: its tip ${stale.slice(0, 12)} is an older commit of the history this clone last synced with it \\([0-9a-f]{12}\\), as a stale push such as git push --mirror leaves it; origin lost 4 records published since: `,
        ),
      );
      expect(line).toMatch(LOST);
      expect(hint).toMatch(
        /^ {2}hint: pantheon sync origin --restore publishes them again .*; pantheon sync origin --accept-rewrite takes origin's state instead, drops those 4 records here too/,
      );
      expect(r.stderr, "no count of nothing while records would be dropped").not.toMatch(/\b0 /);
      expect(c.ref()).toBe(mine);
      expect(originRef()).toBe(stale);
    }
    const json = await c0.run(["sync", "--json"]);
    expect(JSON.parse(json.stderr).error.code).toBe("E_REMOTE_REWRITTEN");
    // The two ways out together are a usage error, before anything is fetched.
    const both = await c0.run(["sync", "--restore", "--accept-rewrite"]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^✗ --restore and --accept-rewrite are the two opposite answers/);
    expect(originRef()).toBe(stale);
  });

  it("sync --restore publishes again everything origin lost, says so by id and counts no zero; every clone converges with every record", async () => {
    const { c0, c1, c2, originRef, published } = await staleMirrorPush();
    // Clone 1 restores: what origin lost, and its own unpublished task on top.
    const r = await c1.ok(["sync", "--restore"]);
    expect(r.stdout.split("\n")[0]).toBe(
      "✓ Synced with origin: published again what it had lost (4 records published again, 1 more record sent)",
    );
    expect(r.stdout).toMatch(new RegExp(`^ {2}published again what origin had lost: ${LOST.source}$`, "m"));
    expect(r.stdout).not.toMatch(/\b0 /);
    expect(c1.git("merge-base", "--is-ancestor", published, REF)).toBe("");
    expect(originRef()).toBe(c1.ref());
    // Clone 0 and the stale clone 2 now sync as usual.
    for (const c of [c0, c2]) expect((await c.run(["sync"])).exitCode).toBe(0);
    await syncUntilEqual([c0, c1, c2]);
    const all = ["Before the gap", "Published by 0", "Published by 1", "Unpublished in 1"];
    for (const c of [c0, c1, c2]) expect(await titles(c)).toEqual(all);
    expect(await c2.json<any>(["task", "show", "ENG-M-0001"], "task")).toMatchObject({ claimedBy: "Hermes" });
    expect(originRef()).toBe(c2.ref());
  });

  it("sync --accept-rewrite lists what it drops by id (human and --json), never says 0 while dropping, and replays unpublished work", async () => {
    const { c0, c1, originRef, stale } = await staleMirrorPush();
    const human = await c0.ok(["sync", "--accept-rewrite"]);
    expect(human.stdout.split("\n")[0]).toBe("✓ Synced with origin: took its rewritten history (4 records dropped)");
    expect(human.stdout).toMatch(/^ {2}took origin's rewritten state as it is \(nothing here was unpublished\)/m);
    expect(human.stdout).toMatch(new RegExp(`^ {2}dropped what origin no longer has: ${LOST.source}$`, "m"));
    expect(`${human.stdout}${human.stderr}`).not.toMatch(/\b0 /);
    expect(c0.ref()).toBe(stale);
    expect(originRef()).toBe(stale);
    expect(await titles(c0)).toEqual(["Before the gap"]);

    // Clone 1 has an unpublished task: it is replayed as one commit on origin's tip.
    const report = await c1.json<any>(["sync", "--accept-rewrite"], "sync");
    expect(report).toMatchObject({ action: "rewrite-accepted", replayed: 1 });
    expect(report.dropped.map((d: any) => [d.record, d.whole])).toEqual([
      ["ENG-M-0001", false],
      ["ENG-M-0002", true],
      ["TST-M-0003", true],
      ["MSN-0001", true],
    ]);
    expect(await titles(c1)).toEqual(["Before the gap", "Unpublished in 1"]);
    expect(c1.git("rev-list", "--parents", "-n", "1", REF).trim().split(" ").slice(1)).toEqual([stale]);
    expect(originRef()).toBe(c1.ref());
    // The state it left on purpose (its unpublished commit, now replayed) is named by both
    // reflogs and is in no state the ref holds, yet it is no lost tip: Pantheon's own move left
    // it. Also once git's gc expired the reflog lines of the history that became unreachable.
    c1.git("reflog", "expire", "--expire-unreachable=now", REF);
    const doctor = jsonData(await c1.run(["doctor", "--json"]), "doctor");
    expect(doctor.findings.map((f: any) => f.code)).not.toContain("W_LOST_TIP");
  });
});
