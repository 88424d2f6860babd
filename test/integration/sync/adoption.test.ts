/**
 * `pantheon sync` against a bare origin (DESIGN §3.1, §3.2; issue 5 items 1, 2, 5): adoption by a
 * fresh clone (through sync and through init), "local ahead" when the remote lacks the ref, the
 * fetch refspec added only once the remote has the ref, fast-forward, equal, and the `--json`
 * report.
 */
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF } from "../../helpers/clones.js";

const FETCH_SPEC = "+refs/coordination/main*:refs/coordination/remotes/origin/main*";
const fetchSpecs = (c: { git(...a: string[]): string }) =>
  c.git("config", "--get-all", "remote.origin.fetch").split("\n").filter(Boolean);

describe("adoption: a fresh clone takes the remote's state instead of starting its own", () => {
  it("clone 1's `pantheon sync` adopts clone 0's state; clone 2's `pantheon init --yes` says it adopted it", async () => {
    const { clones, originRef } = await makeOriginAndClones(3, { init: false });
    const [c0, c1, c2] = clones as [(typeof clones)[0], (typeof clones)[0], (typeof clones)[0]];
    await c0.ok(["init", "--yes"]);
    await c0.ok(["task", "create", "--title", "Set up CI", "--role", "operator"]);
    await c0.ok(["sync"]);
    expect(originRef()).toBe(c0.ref());

    const adopted = await c1.json(["sync"], "sync");
    expect(adopted).toMatchObject({
      remote: "origin",
      action: "adopted",
      merges: 0,
      renumbered: [],
      droppedClaims: [],
      conflicts: [],
    });
    expect(c1.ref(), "same ref value: adopted, not an unrelated history").toBe(c0.ref());
    expect(adopted.local).toBe(c0.ref());
    expect(c1.git("rev-list", "--count", REF).trim()).toBe(c0.git("rev-list", "--count", REF).trim());
    expect((await c1.json<any[]>(["task", "list"], "tasks")).map((t) => t.title)).toEqual(["Set up CI"]);

    const init = await c2.ok(["init", "--yes"]);
    expect(init.stdout.split("\n")[0]).toMatch(/^✓ Adopted the Pantheon state of "clone0" from origin/);
    expect(c2.ref()).toBe(c0.ref());
    // init --json in yet another state: the adoption is in the data too
    const again = await c2.json(["init", "--yes"], "init");
    expect(again).toMatchObject({ stateCreated: false });
    expect((await c2.json<any>(["task", "show", "1"], "task")).title).toBe("Set up CI");
    for (const c of [c1]) c.expectUntouched(); // sync writes no file
  });

  it("`init --json` in a clone whose remote has state reports adopted: origin and creates no new root", async () => {
    const { clones } = await makeOriginAndClones(2, { init: false });
    const [c0, c1] = clones as [(typeof clones)[0], (typeof clones)[0]];
    await c0.ok(["init", "--yes"]);
    await c0.ok(["sync"]);
    const data = await c1.json<any>(["init", "--yes"], "init");
    expect(data).toMatchObject({ adopted: "origin", stateCreated: false, commit: null });
    expect(c1.ref()).toBe(c0.ref());
    expect(c1.git("rev-list", "--max-parents=0", REF).trim(), "one root commit, clone 0's").toBe(
      c0.git("rev-list", "--max-parents=0", REF).trim(),
    );
  });

  it("sync in a clone with no state while the remote has none either fails with the hint pantheon init", async () => {
    const { clones } = await makeOriginAndClones(1, { init: false });
    const r = await clones[0]!.run(["sync"]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/^✗ /);
    expect(r.stderr).toContain("pantheon init");
    expect(clones[0]!.ref()).toBeNull();
    expect(fetchSpecs(clones[0]!)).not.toContain(FETCH_SPEC);
  });
});

describe("local ahead, behind, equal (DESIGN §3.2)", () => {
  it("a remote without the ref is 'local ahead': sync pushes; init already added the glob refspec (saying so), harmless before the remote has the ref", async () => {
    const { clones, originRef } = await makeOriginAndClones(2, { init: false });
    const [c0, c1] = clones as [(typeof clones)[0], (typeof clones)[0]];
    const init = await c0.ok(["init", "--yes"]);
    c0.markBaseline(); // init's own files; from here on nothing may touch the working tree
    expect(init.stdout).toContain(`added to remote.origin.fetch: ${FETCH_SPEC}`);
    expect(fetchSpecs(c0)).toEqual(["+refs/heads/*:refs/remotes/origin/*", FETCH_SPEC]);
    // a plain git fetch works while the remote lacks the ref: a glob matching nothing is no error
    c0.git("fetch", "-q");
    expect(originRef()).toBeNull();

    const r = await c0.ok(["sync"]);
    expect(r.stdout).toMatch(/^✓ Synced with origin: pushed/);
    expect(originRef()).toBe(c0.ref());
    expect(fetchSpecs(c0)).toEqual(["+refs/heads/*:refs/remotes/origin/*", FETCH_SPEC]);

    // added once: a second sync neither repeats it nor says so again
    const again = await c0.json(["sync"], "sync");
    expect(again).toMatchObject({ action: "equal", refspecAdded: false });
    expect(fetchSpecs(c0).filter((s) => s === FETCH_SPEC)).toHaveLength(1);

    // now a plain `git fetch` brings the state: in clone 1 (after adoption) it follows clone 0
    await c1.ok(["sync"]);
    expect(fetchSpecs(c1)).toContain(FETCH_SPEC);
    await c0.ok(["task", "create", "--title", "Travel by git fetch", "--role", "engineer"]);
    await c0.ok(["sync"]);
    c1.git("fetch", "-q");
    expect(c1.git("rev-parse", "refs/coordination/remotes/origin/main").trim()).toBe(c0.ref());
    expect(c1.ref(), "git fetch moves only the tracking ref; sync moves the state").not.toBe(c0.ref());
    c0.expectUntouched();
    c1.expectUntouched();
  });

  it("behind → fast-forward (no merge commit); then equal → nothing", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [(typeof clones)[0], (typeof clones)[0]];
    await c0.ok(["task", "create", "--title", "One", "--role", "engineer"]);
    await c0.ok(["task", "create", "--title", "Two", "--role", "engineer"]);
    await c0.ok(["sync"]);
    const before = c1.ref();
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toMatch(/^✓ Synced with origin: fast-forwarded \(2 records received, 0 sent\)/);
    expect(c1.ref()).toBe(c0.ref());
    expect(c1.git("merge-base", "--is-ancestor", before!, c1.ref()!)).toBe("");
    expect(c1.git("rev-list", "--merges", REF).trim(), "a fast-forward makes no merge").toBe("");
    const equal = await c1.json(["sync"], "sync");
    expect(equal).toMatchObject({ action: "equal", received: 0, sent: 0, merges: 0 });
    expect(c1.ref()).toBe(c0.ref());
    c1.expectUntouched();
  });

  it("sync --json: kind sync and every report field", async () => {
    const { clones, originRef } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [(typeof clones)[0], (typeof clones)[0]];
    await c0.ok(["task", "create", "--title", "Zero's", "--role", "engineer"]);
    await c1.ok(["task", "create", "--title", "One's", "--role", "engineer"]);
    await c0.ok(["sync"]);
    const r = await c1.run(["sync", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ schemaVersion: 1, kind: "sync" });
    expect(Object.keys(doc.data).sort()).toEqual(
      [
        "action",
        "attempts",
        "before",
        "conflicts",
        "cycles",
        "dropped",
        "droppedClaims",
        "earlier",
        "joined",
        "keptRemote",
        "local",
        "merges",
        "planning",
        "problems",
        "projectChanges",
        "received",
        "refspec",
        "refspecAdded",
        "refspecMigrated",
        "remote",
        "remoteRef",
        "remoteRefChange",
        "remoteTip",
        "renumbered",
        "replayed",
        "restored",
        "sent",
        "unreadable",
      ].sort(),
    );
    expect(doc.data).toMatchObject({
      remote: "origin",
      remoteRef: "refs/coordination/main",
      refspec: "+refs/coordination/main*:refs/coordination/remotes/origin/main*",
      remoteRefChange: null,
      action: "merged",
      merges: 1,
      received: 1,
      renumbered: [{ kind: "tasks", from: "ENG-M-0001", to: "ENG-M-0002" }],
      droppedClaims: [],
      conflicts: [],
      refspecAdded: false,
    });
    expect(doc.data.sent).toBeGreaterThanOrEqual(1);
    expect(doc.data.local).toBe(c1.ref());
    expect(doc.data.remoteTip).toBe(originRef());
    expect(r.stdout.trim().split("\n"), "exactly one JSON document").toHaveLength(1);
    expect(r.stdout).not.toContain("\u001b");
  });

  it("two clones that each ran init before either pushed: unrelated histories, so sync refuses (exit 3) and changes nothing", async () => {
    const { clones, originRef } = await makeOriginAndClones(2, { init: false });
    const [c0, c1] = clones as [(typeof clones)[0], (typeof clones)[0]];
    await c0.ok(["init", "--yes"]);
    await c0.ok(["task", "create", "--title", "Zero's", "--role", "engineer"]);
    await c1.ok(["init", "--yes"]);
    await c1.ok(["task", "create", "--title", "One's", "--role", "engineer"]);
    await c0.ok(["sync"]);
    const published = originRef();
    const mine = c1.ref();
    const r = await c1.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^✗ origin's state and this clone's share no history \(unrelated histories/);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(2);
    expect(c1.ref(), "the local state is untouched").toBe(mine);
    expect(originRef(), "nothing was pushed").toBe(published);
    const json = await c1.run(["sync", "--json"]);
    expect(JSON.parse(json.stderr).error.code).toBe("E_NO_MERGE_BASE");
    expect((await c1.json<any[]>(["task", "list"], "tasks")).map((t) => t.title)).toEqual(["One's"]);
  });
});
