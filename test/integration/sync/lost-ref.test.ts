/**
 * A clone that lost its own ref (DESIGN §3.2; security round, point 4): `git update-ref -d
 * refs/coordination/main` by mistake, in a clone with unpublished work and a remote with state.
 * The clone is not a fresh clone: no command adopts the remote's state (or starts a new one) over
 * it; each refuses (exit 1) with the hint `pantheon doctor --recover`, which brings the work
 * back, and a sync then merges it with the remote's. A clone whose ref was already replaced by
 * the remote's (as an earlier version did) has `doctor` name the lost tip and `doctor --recover`
 * merge it back. A genuinely fresh clone (no reflog) still adopts as before.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData } from "../../helpers/cli.js";
import { cloneAt, makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

/** Origin with state, clone 1 with two tasks it never published, origin one task further: then the ref is deleted in clone 1. */
async function lostWithUnpublishedWork() {
  const setup = await makeOriginAndClones(2);
  const [c0, c1] = setup.clones as [Clone, Clone];
  await c0.ok(["task", "create", "--title", "Published first", "--role", "engineer"]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  await c1.ok(["task", "create", "--title", "Offline one", "--role", "tester"]);
  await c1.ok(["task", "create", "--title", "Offline two", "--role", "tester"]);
  await c0.ok(["task", "create", "--title", "Published later", "--role", "engineer"]);
  await c0.ok(["sync"]);
  const lost = c1.ref()!;
  c1.git("update-ref", "-d", REF);
  return { ...setup, c0, c1, lost };
}

const titles = async (c: Clone) =>
  (await c.json<Array<{ title: string }>>(["task", "list"], "tasks")).map((t) => t.title).sort();

const ALL = ["Offline one", "Offline two", "Published first", "Published later"];

describe("a clone that lost its ref (git update-ref -d by mistake)", () => {
  it("no command adopts the remote or starts a new state: each refuses (exit 1) with the hint pantheon doctor --recover", async () => {
    const { c1, lost, originRef } = await lostWithUnpublishedWork();
    const published = originRef();
    c1.git("config", "pantheon.autoSync", "true"); // mission start would publish: it must not adopt either
    for (const argv of [
      ["task", "list"],
      ["sync"],
      ["task", "create", "--title", "New", "--role", "engineer"],
      ["mission", "start", "--role", "engineer", "--persona", "Hermes"],
      ["init", "--yes"],
      ["log"],
    ]) {
      const r = await c1.run(argv);
      const what = `pantheon ${argv.join(" ")}: ${r.stderr}`;
      expect(r.exitCode, what).toBe(1);
      expect(r.stderr, what).not.toMatch(/took origin's|had no Pantheon state/);
      const [line, hint] = r.stderr.trimEnd().split("\n");
      expect(line, what).toMatch(
        new RegExp(
          `^✗ refs/coordination/main is missing, but its reflog names the state it held \\(${lost.slice(0, 12)}, .*task TST-M-0003 create by .*\\): this clone lost its ref`,
        ),
      );
      expect(hint, what).toMatch(/^ {2}hint: pantheon doctor --recover/);
      expect(c1.ref(), what).toBeNull();
      expect(originRef(), what).toBe(published);
    }
    const json = await c1.run(["task", "list", "--json"]);
    expect(JSON.parse(json.stderr).error.code).toBe("E_STATE_LOST");
    c1.expectUntouched();
  });

  it("doctor --recover brings the unpublished work back, and a sync merges it with the remote's everywhere", async () => {
    const { c0, c1, lost, originRef } = await lostWithUnpublishedWork();
    const plan = await c1.run(["doctor", "--recover", "--json"]);
    expect(plan.exitCode).toBe(1);
    expect(jsonData(plan, "recovery").candidates[0].commit).toBe(lost);
    const restored = await c1.ok(["doctor", "--recover", lost]);
    // What it brings back is named: the two records origin never had, not the one it published.
    expect(restored.stdout).toMatch(
      /^✓ Restored refs\/coordination\/main to the state of [0-9a-f]{12} as commit [0-9a-f]{12}: it brings back 2 records origin has not had: TST-M-0002, TST-M-0003\n {2}pantheon sync publishes them\n$/,
    );
    expect(await titles(c1)).toEqual(["Offline one", "Offline two", "Published first"]);
    expect((await c1.json<any>(["sync"], "sync")).action).toBe("merged");
    await c0.ok(["sync"]);
    for (const c of [c0, c1]) expect(await titles(c)).toEqual(ALL);
    expect(c0.ref()).toBe(originRef());
    expect(c1.ref()).toBe(originRef());
  });

  it("a ref already replaced by the remote's (as an earlier version adopted it): doctor names the lost tip, --recover merges it back", async () => {
    const { c0, c1, lost, originRef } = await lostWithUnpublishedWork();
    // What "this clone had no Pantheon state: took origin's" did: the ref now names origin's tip.
    c1.git("fetch", "-q", "origin");
    c1.git("update-ref", REF, c1.git("rev-parse", "refs/coordination/remotes/origin/main").trim());
    expect(await titles(c1)).toEqual(["Published first", "Published later"]);

    const doctor = jsonData(await c1.run(["doctor", "--json"]), "doctor");
    expect(doctor.findings).toContainEqual(
      expect.objectContaining({
        code: "W_LOST_TIP",
        subject: lost,
        fix: `pantheon doctor --recover ${lost.slice(0, 12)}`,
      }),
    );
    const finding = doctor.findings.find((f: { code: string }) => f.code === "W_LOST_TIP");
    expect(finding.message).toMatch(/2 commits refs\/coordination\/main lacks: TST-M-0002, TST-M-0003/);

    const listed = await c1.run(["doctor", "--recover"]);
    expect(listed.exitCode).toBe(1);
    expect(listed.stdout).not.toMatch(/healthy/);
    expect(listed.stdout).toMatch(
      /^✗ refs\/coordination\/main lacks commits a reflog names; states it can merge back, newest first:\n/,
    );
    expect(listed.stdout).toMatch(
      new RegExp(`^ {2}${lost.slice(0, 12)} .*\\n {4}brings back 2 commits: TST-M-0002, TST-M-0003`, "m"),
    );
    expect(listed.stderr).toMatch(new RegExp(`hint: pantheon doctor --recover ${lost.slice(0, 12)}`));

    const merged = await c1.ok(["doctor", "--recover", lost.slice(0, 12)]);
    expect(merged.stdout).toMatch(
      new RegExp(
        `^✓ Merged the state of ${lost.slice(0, 12)} back into refs/coordination/main as commit [0-9a-f]{12}: it brings back TST-M-0002, TST-M-0003`,
      ),
    );
    expect(await titles(c1)).toEqual(ALL);
    expect(c1.git("rev-list", "--parents", "-n", "1", REF).trim().split(" ")).toHaveLength(3);
    // Nothing left to recover; the finding is gone.
    expect((await c1.ok(["doctor", "--recover"])).stdout).toMatch(/is healthy .*nothing to recover/);
    expect(jsonData(await c1.run(["doctor", "--json"]), "doctor").findings.map((f: any) => f.code)).not.toContain(
      "W_LOST_TIP",
    );
    await c1.ok(["sync"]);
    await c0.ok(["sync"]);
    expect(await titles(c0)).toEqual(ALL);
    expect(c0.ref()).toBe(originRef());
  });

  it("a genuinely fresh clone (no reflog) still takes the remote's state on its first command", async () => {
    const { root, origin, originRef } = await makeOriginAndClones(1);
    const dir = join(root, "fresh");
    git(root, "clone", "-q", origin, dir);
    const fresh = cloneAt(dir, 9);
    const r = await fresh.run(["task", "list"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/this clone had no Pantheon state .*took origin's/);
    expect(fresh.ref()).toBe(originRef());
  });
});
