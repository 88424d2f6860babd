/**
 * A remote that rewrote its history (DESIGN §3.2; issue 12 point 3): a secret put in a note was
 * purged from the origin's history with git plumbing. A stale clone is judged against the last
 * tip its own syncs merged from or pushed to the origin (a plain `git fetch` moving the
 * tracking ref does not hide the rewrite): it is refused (exit 3, nothing changed) until
 * `sync --accept-rewrite`, which replays only its unpublished work onto the purged state, so
 * the secret never comes back to the origin and the old history is no longer reachable here.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/store/state/canonical-json.js";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { testEnv } from "../../helpers/env.js";

const SECRET = "AWS_SECRET=hunter2-do-not-share";

function inOrigin(origin: string, args: string[], o: { input?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync("git", [`--git-dir=${origin}`, ...args], {
    env: testEnv(o.env),
    encoding: "utf8",
    input: o.input ?? "",
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/**
 * The purge, with plumbing only: the origin's tip commit (the one that added the secret note) is
 * replaced by a commit of the same tree minus that note, on the same parent; the ref is forced.
 */
function purgeSecretOnOrigin(origin: string, path: string): { old: string; purged: string } {
  const old = inOrigin(origin, ["rev-parse", REF]).trim();
  const parent = inOrigin(origin, ["rev-parse", `${REF}^`]).trim();
  const record = JSON.parse(inOrigin(origin, ["cat-file", "-p", `${old}:${path}`]));
  record.notes = record.notes.filter((n: { text: string }) => !n.text.includes(SECRET));
  const blob = inOrigin(origin, ["hash-object", "-w", "--stdin"], { input: canonicalJson(record) }).trim();
  const env = { GIT_INDEX_FILE: join(origin, "purge-index") };
  inOrigin(origin, ["read-tree", old], { env });
  inOrigin(origin, ["update-index", "--cacheinfo", `100644,${blob},${path}`], { env });
  const tree = inOrigin(origin, ["write-tree"], { env }).trim();
  const purged = inOrigin(origin, ["commit-tree", tree, "-p", parent, "-m", "purge a leaked secret"]).trim();
  inOrigin(origin, ["update-ref", REF, purged, old]);
  return { old, purged };
}

/** Every blob reachable from the origin's state ref, as text: where the secret must not be. */
const originHistoryText = (origin: string) => inOrigin(origin, ["log", "-p", "--format=%H %s", REF]);

async function secretSyncedEverywhere() {
  const setup = await makeOriginAndClones(2);
  const [c0, c1] = setup.clones as [Clone, Clone];
  await c0.ok(["task", "create", "--title", "Deploy", "--role", "operator"]);
  await c0.ok(["task", "create", "--title", "Rotate keys", "--role", "engineer"]);
  await c0.ok(["task", "note", "1", `oops: ${SECRET}`]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  expect(originHistoryText(setup.origin)).toContain(SECRET);
  return { ...setup, c0, c1 };
}

/** Unpublished work in clone 1 after it synced the secret: a claim, a new task, a note on the very task that held the secret. */
async function unpublishedWork(c1: Clone): Promise<void> {
  await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Hermes"]);
  await c1.ok(["--mission", "MSN-0001", "task", "claim", "ENG-M-0002"]);
  await c1.ok(["task", "create", "--title", "Made offline", "--role", "tester"]);
  await c1.ok(["task", "note", "1", "my own note"]);
}

describe("a remote whose history was rewritten (a secret purged)", () => {
  it("a stale clone is refused (exit 3, nothing changed), even after a plain git fetch moved the tracking ref", async () => {
    const { origin, c1 } = await secretSyncedEverywhere();
    await unpublishedWork(c1);
    const { purged } = purgeSecretOnOrigin(origin, "tasks/01/1.json");
    c1.git("fetch", "-q");
    expect(c1.git("rev-parse", "refs/coordination/remotes/origin/main").trim()).toBe(purged);
    const mine = c1.ref();

    const r = await c1.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    const [line, hint] = r.stderr.trimEnd().split("\n");
    expect(line).toMatch(
      /^✗ origin rewrote the state's history: its tip [0-9a-f]{12} no longer contains [0-9a-f]{12}, the last tip this clone synced with it/,
    );
    expect(hint).toMatch(/pantheon sync origin --accept-rewrite .* replays only this clone's 4 unpublished commits/);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(2);
    const json = await c1.run(["sync", "--json"]);
    expect(JSON.parse(json.stderr).error.code).toBe("E_REMOTE_REWRITTEN");
    expect(c1.ref(), "the local state is untouched").toBe(mine);
    expect(inOrigin(origin, ["rev-parse", REF]).trim(), "nothing was pushed").toBe(purged);
    expect(originHistoryText(origin)).not.toContain(SECRET);
    c1.expectUntouched();
  });

  it("sync --accept-rewrite replays only this clone's unpublished work: the secret stays purged on the origin and here, the old history is unreachable", async () => {
    const { origin, c1 } = await secretSyncedEverywhere();
    await unpublishedWork(c1);
    const before = c1.ref()!;
    const { old, purged } = purgeSecretOnOrigin(origin, "tasks/01/1.json");

    const report = await c1.json<any>(["sync", "--accept-rewrite"], "sync");
    expect(report).toMatchObject({ action: "rewrite-accepted", replayed: 4, droppedClaims: [], conflicts: [] });
    expect(inOrigin(origin, ["rev-parse", REF]).trim(), "published").toBe(c1.ref());
    expect(originHistoryText(origin), "the purge is not undone").not.toContain(SECRET);
    expect(c1.git("log", "-p", REF), "nor is the secret on this clone's state").not.toContain(SECRET);
    // one commit on the purged tip; neither the old tip nor this clone's old commits are reachable
    expect(c1.git("rev-list", "--parents", "-n", "1", REF).trim().split(" ").slice(1)).toEqual([purged]);
    const reachable = (oid: string) => c1.git("rev-list", REF).split("\n").includes(oid);
    expect(reachable(old)).toBe(false);
    expect(reachable(before)).toBe(false);
    expect(c1.git("log", "-1", "--format=%B", REF)).toContain("Pantheon-Op: sync.accept-rewrite");
    // the unpublished work is all there
    expect(await c1.json<any>(["task", "show", "ENG-M-0002"], "task")).toMatchObject({
      status: "UNDERWAY",
      claimedBy: "Hermes",
    });
    expect((await c1.json<any>(["task", "show", "3"], "task")).title).toBe("Made offline");
    const notes = (await c1.json<any>(["task", "show", "1"], "task")).notes.map((n: any) => n.text);
    expect(notes).toContain("my own note");
    expect(notes.join("\n")).not.toContain(SECRET);
    // and the next sync is an ordinary one
    expect((await c1.json<any>(["sync"], "sync")).action).toBe("equal");
    c1.expectUntouched();
  });

  it("every stale clone is refused; one with nothing unpublished takes the remote's state as it is", async () => {
    const { origin, c0, c1 } = await secretSyncedEverywhere();
    const { purged } = purgeSecretOnOrigin(origin, "tasks/01/1.json");
    for (const c of [c0, c1]) expect((await c.run(["sync"])).exitCode).toBe(3);
    const report = await c0.json<any>(["sync", "--accept-rewrite"], "sync");
    expect(report).toMatchObject({ action: "rewrite-accepted", replayed: 0 });
    expect(c0.ref()).toBe(purged);
    expect(inOrigin(origin, ["rev-parse", REF]).trim()).toBe(purged);
    expect(originHistoryText(origin)).not.toContain(SECRET);
  });

  it("a remote reset back to an older tip (local ahead) is a rewrite too: refused, not pushed over", async () => {
    const { origin, c1 } = await secretSyncedEverywhere();
    await c1.ok(["task", "create", "--title", "Made offline", "--role", "tester"]);
    const older = inOrigin(origin, ["rev-parse", `${REF}^`]).trim();
    inOrigin(origin, ["update-ref", REF, older]);
    const r = await c1.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(inOrigin(origin, ["rev-parse", REF]).trim()).toBe(older);
    expect(originHistoryText(origin)).not.toContain(SECRET);
    expect((await c1.json<any>(["sync", "--accept-rewrite"], "sync")).replayed).toBe(1);
    expect(originHistoryText(origin)).not.toContain(SECRET);
    expect((await c1.json<any>(["task", "show", "3"], "task")).title).toBe("Made offline");
  });

  it("a clone set up by an earlier version takes its old tracking ref as the last synced tip, so the rewrite is still caught", async () => {
    const { origin, c1 } = await secretSyncedEverywhere();
    // what an earlier version left: the exact refspec, its tracking ref, no last synced tip
    const tip = c1.git("rev-parse", "refs/coordination/remotes/origin/main").trim();
    c1.git("config", "--unset-all", "remote.origin.fetch", "coordination");
    c1.git("config", "--add", "remote.origin.fetch", "+refs/coordination/main:refs/coordination/remotes/origin");
    c1.git("update-ref", "-d", "refs/coordination/remotes/origin/main");
    c1.git("update-ref", "refs/coordination/remotes/origin", tip);
    rmSync(join(c1.dir, ".git", "pantheon", "synced-tips.json"), { force: true });
    await c1.ok(["task", "note", "1", "my own note"]);
    purgeSecretOnOrigin(origin, "tasks/01/1.json");
    const r = await c1.run(["sync", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stderr).error.code).toBe("E_REMOTE_REWRITTEN");
    expect(originHistoryText(origin)).not.toContain(SECRET);
  });
});
