/**
 * The state's fetch refspec (DESIGN §3.1; issue 12 point 5): a glob, so plain `git fetch` and
 * `git pull` keep working when the remote loses refs/coordination/main (deleted, or the remote
 * moved), in clones set up by this version and in clones set up by an earlier one (exact
 * refspec, tracking ref refs/coordination/remotes/<remote>) after one `sync` or one
 * `doctor --fix`; `doctor` reports the exact form and a missing refspec.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

const GLOB = "+refs/coordination/main*:refs/coordination/remotes/origin/main*";
const EXACT = "+refs/coordination/main:refs/coordination/remotes/origin";
const TRACKING = "refs/coordination/remotes/origin/main";
const OLD_TRACKING = "refs/coordination/remotes/origin";

const fetchSpecs = (c: Clone) => c.git("config", "--get-all", "remote.origin.fetch").split("\n").filter(Boolean);
const refIn = (c: Clone, ref: string) => {
  try {
    return c.git("rev-parse", "-q", "--verify", ref).trim();
  } catch {
    return null;
  }
};
const gitStatus = (c: Clone, ...args: string[]) => {
  try {
    c.git(...args);
    return 0;
  } catch (e) {
    return (e as { status: number }).status;
  }
};

/** What an earlier version left in a clone: the exact refspec, its tracking ref, no last synced tip. */
function makeItLegacy(c: Clone): void {
  const tip = c.git("rev-parse", TRACKING).trim();
  c.git("config", "--unset-all", "remote.origin.fetch", "coordination");
  c.git("config", "--add", "remote.origin.fetch", EXACT);
  c.git("update-ref", "-d", TRACKING);
  c.git("update-ref", OLD_TRACKING, tip);
  rmSync(join(c.dir, ".git", "pantheon", "synced-tips.json"), { force: true });
}

/** The remote loses the ref: deleted on the origin. */
const deleteOnOrigin = (origin: string) => git(origin, "update-ref", "-d", REF);

/** git fetch and git pull in the clone exit 0 (pull with a branch that has an upstream). */
function expectFetchAndPullWork(c: Clone): void {
  expect(gitStatus(c, "fetch", "-q"), "git fetch").toBe(0);
  expect(gitStatus(c, "pull", "-q"), "git pull").toBe(0);
}

describe("a clone set up by this version", () => {
  it("init adds the glob (saying so); git fetch and git pull keep working when the remote deletes the ref or moves", async () => {
    const { root, origin, clones } = await makeOriginAndClones(2, { init: false });
    const [c0, c1] = clones as [Clone, Clone];
    const init = await c0.ok(["init", "--yes"]);
    expect(init.stdout).toContain(`added to remote.origin.fetch: ${GLOB}`);
    expect(fetchSpecs(c0)).toEqual(["+refs/heads/*:refs/remotes/origin/*", GLOB]);
    // harmless while the remote has no state
    expectFetchAndPullWork(c0);
    await c0.ok(["sync"]);
    expect(
      fetchSpecs(c0).filter((s) => s === GLOB),
      "added once",
    ).toHaveLength(1);
    const adopted = await c1.json<any>(["sync"], "sync");
    expect(adopted.refspecAdded).toBe(true);
    expect(fetchSpecs(c1)).toContain(GLOB);
    expect(refIn(c1, TRACKING)).toBe(c0.ref());

    deleteOnOrigin(origin);
    expectFetchAndPullWork(c1);
    expect(c1.ref(), "the state itself is untouched").toBe(c0.ref());
    expect((await c1.json<any>(["doctor"], "doctor")).findings).toEqual([]);
    // sync sees the ref gone (not the stale tracking ref) and publishes the state again
    expect((await c1.json<any>(["sync"], "sync")).action).toBe("pushed");
    expect(git(origin, "rev-parse", REF).trim()).toBe(c1.ref());

    // the remote moved: a new empty repository at another URL
    const moved = join(root, "moved.git");
    git(root, "init", "-q", "--bare", "-b", "main", moved);
    c0.git("push", "-q", moved, "main");
    c0.git("remote", "set-url", "origin", moved);
    expectFetchAndPullWork(c0);
    // and sync publishes the state there ("local ahead")
    expect((await c0.json<any>(["sync"], "sync")).action).toBe("pushed");
    expect(git(moved, "rev-parse", REF).trim()).toBe(c0.ref());
  });

  it("the glob matches only main: a peer's tracking refs on the remote are never fetched", async () => {
    const { origin, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    const tip = c.ref()!;
    git(origin, "update-ref", "refs/coordination/remotes/laptop/main", tip);
    c.git("fetch", "-q");
    const refs = c.git("for-each-ref", "--format=%(refname)", "refs/coordination/").split("\n").filter(Boolean);
    expect(refs.sort()).toEqual([REF, TRACKING].sort());
  });
});

describe("a clone set up by an earlier version (exact refspec, tracking ref refs/coordination/remotes/origin)", () => {
  it("before any migration, git fetch fails once the remote loses the ref, and doctor says so", async () => {
    const { origin, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    makeItLegacy(c);
    const doctor = await c.json<any>(["doctor"], "doctor");
    expect(doctor.findings).toEqual([
      expect.objectContaining({
        code: "W_REFSPEC_EXACT",
        severity: "warning",
        fixable: true,
        subject: "remote.origin",
      }),
    ]);
    deleteOnOrigin(origin);
    expect(gitStatus(c, "fetch", "-q"), "the exact refspec fails the whole fetch").not.toBe(0);
  });

  it("one sync replaces the exact form (saying so) and deletes the old tracking ref; then git fetch and pull survive the remote losing the ref", async () => {
    const { origin, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    makeItLegacy(c);
    await c.ok(["task", "create", "--title", "Made before the upgrade", "--role", "engineer"]);
    const r = await c.ok(["sync"]);
    expect(r.stdout).toMatch(/^✓ Synced with origin: pushed/);
    expect(r.stdout).toContain("replaced the exact fetch refspec of an earlier version");
    expect(fetchSpecs(c)).toEqual(["+refs/heads/*:refs/remotes/origin/*", GLOB]);
    expect(refIn(c, TRACKING)).toBe(c.ref());
    expect((await c.json<any>(["sync"], "sync")).refspecMigrated, "once").toBe(false);
    expect((await c.json<any>(["doctor"], "doctor")).findings).toEqual([]);

    deleteOnOrigin(origin);
    expectFetchAndPullWork(c);
    c.expectUntouched();
  });

  it("one doctor --fix does the same", async () => {
    const { origin, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    makeItLegacy(c);
    const before = c.ref();
    const fixed = await c.json<any>(["doctor", "--fix"], "doctor");
    expect(fixed.fixed).toContain(
      "replaced the exact fetch refspec of origin with the glob and deleted its old tracking ref",
    );
    expect(fixed.findings).toEqual([]);
    expect(fetchSpecs(c)).toEqual(["+refs/heads/*:refs/remotes/origin/*", GLOB]);
    expect(refIn(c, OLD_TRACKING)).toBeNull();
    expect(c.ref(), "the state ref is not touched by a config repair").toBe(before);
    deleteOnOrigin(origin);
    expectFetchAndPullWork(c);
  });

  it("the old tracking ref alone (its refspec already gone) would block the new one: sync deletes it", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    makeItLegacy(c1);
    c1.git("config", "--unset-all", "remote.origin.fetch", "coordination");
    await c0.ok(["task", "create", "--title", "Zero's", "--role", "engineer"]);
    await c0.ok(["sync"]);
    expect((await c1.json<any>(["sync"], "sync")).action).toBe("fast-forward");
    expect(refIn(c1, OLD_TRACKING)).toBeNull();
    expect(fetchSpecs(c1)).toContain(GLOB);
  });
});

describe("doctor and a missing refspec", () => {
  it("a remote with state but no fetch refspec is reported; doctor --fix adds the glob", async () => {
    const { clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    c.git("config", "--unset-all", "remote.origin.fetch", "coordination");
    const doctor = await c.json<any>(["doctor"], "doctor");
    expect(doctor.findings).toEqual([
      expect.objectContaining({ code: "W_REFSPEC", subject: "remote.origin", fixable: true }),
    ]);
    const fixed = await c.json<any>(["doctor", "--fix"], "doctor");
    expect(fixed.fixed).toContain("added the fetch refspec of origin");
    expect(fetchSpecs(c)).toContain(GLOB);
  });
});
