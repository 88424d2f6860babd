/**
 * What a sync decided is kept until shown (DESIGN §3.2; issue 14): when the push that follows a
 * landed merge fails (a hook, the network, "gave up"), the renumberings and dropped claims are
 * not lost — the failing sync prints them (human mode), or the next sync's report carries them
 * under `earlier` (--json), or the next human command prints them; each is shown once. A sync
 * retries within a time budget, not a count.
 */
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";

/**
 * Clone 0 published a claim on task 1 by Hephaestus and its own task 2; clone 1, offline, claimed
 * task 1 for Ptah and created its own task 2: its next sync drops the claim and renumbers.
 */
async function collidingWork() {
  const setup = await makeOriginAndClones(2);
  const [c0, c1] = setup.clones as [Clone, Clone];
  await c0.ok(["task", "create", "--title", "Shared work", "--role", "engineer"]);
  await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Ptah"]);
  await c1.ok(["sync"]);
  await c0.ok(["sync"]);
  await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
  await c0.ok(["task", "create", "--title", "Zero's second", "--role", "engineer"]);
  await c0.ok(["sync"]);
  await c1.ok(["--as", "Ptah", "task", "claim", "1"]);
  await c1.ok(["task", "create", "--title", "One's second", "--role", "engineer"]);
  return { ...setup, c0, c1 };
}

function hook(origin: string, body: string): () => void {
  const path = join(origin, "hooks", "pre-receive");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return () => rmSync(path);
}

describe("the push after a landed merge fails", () => {
  it("human mode: the failing sync still prints what it decided, once", async () => {
    const { c1, origin } = await collidingWork();
    const remove = hook(origin, "echo 'frozen for the release' >&2\nexit 1");
    const r = await c1.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^✗ Cannot push to origin: the server refused it.*frozen for the release/);
    expect(r.stderr).toMatch(/! what a sync with origin decided \(.* UTC, not shown until now\):/);
    expect(r.stderr).toContain("renumbered ENG-M-0002 → ENG-M-0003 (the number was taken on origin)");
    expect(r.stderr).toContain("ENG-M-0001: your claim by Ptah was dropped; Hephaestus claimed it first on origin");
    // Shown: the next command says nothing of it, and the retry's report has no `earlier`.
    remove();
    const next = await c1.run(["task", "show", "1"]);
    expect(next.stderr).not.toContain("renumbered");
    const retry = await c1.json<any>(["sync"], "sync");
    expect(retry).toMatchObject({ action: "pushed", earlier: [] });
  });

  it("--json: nothing printed then; the next sync's report carries it under earlier, once", async () => {
    const { c1, origin } = await collidingWork();
    const remove = hook(origin, "exit 1");
    const failed = await c1.run(["sync", "--json"]);
    expect(failed.exitCode).toBe(3);
    expect(failed.stdout).toBe("");
    expect(JSON.parse(failed.stderr)).toMatchObject({ error: { code: "E_SYNC" } });
    remove();
    const retry = await c1.json<any>(["sync"], "sync");
    expect(retry.action).toBe("pushed");
    expect(retry.renumbered, "this sync renumbered nothing itself").toEqual([]);
    expect(retry.earlier).toHaveLength(1);
    expect(retry.earlier[0]).toMatchObject({
      remote: "origin",
      renumbered: [{ kind: "tasks", from: "ENG-M-0002", to: "ENG-M-0003" }],
      droppedClaims: [{ task: "ENG-M-0001", yours: "Ptah", winner: "Hephaestus" }],
    });
    expect((await c1.json<any>(["sync"], "sync")).earlier).toEqual([]);
  });

  it("--json, then a human command: that command prints it on stderr after its result", async () => {
    const { c1, origin } = await collidingWork();
    const remove = hook(origin, "exit 1");
    expect((await c1.run(["sync", "--json"])).exitCode).toBe(3);
    remove();
    const list = await c1.ok(["task", "list"]);
    expect(list.stdout).toContain("One's second");
    expect(list.stderr).toContain("renumbered ENG-M-0002 → ENG-M-0003");
    expect(list.stderr).toContain("your claim by Ptah was dropped");
    expect((await c1.ok(["task", "list"])).stderr).not.toContain("renumbered");
    expect((await c1.json<any>(["sync"], "sync")).earlier).toEqual([]);
  });
});

describe("retries within a time budget, not a count", () => {
  it("a remote that moves on every push: sync gives up when the budget is spent, naming attempts and time; the merges so far are kept", async () => {
    const { c1, origin } = await collidingWork();
    // Every push finds the state moved by someone else (a new commit on top, same tree).
    hook(
      origin,
      `new=$(git commit-tree -p ${REF} -m bump "$(git rev-parse ${REF}^{tree})")\nenv -u GIT_QUARANTINE_PATH git update-ref ${REF} "$new"\nexit 0`,
    );
    const r = await c1.run(["sync"], { env: { PANTHEON_SYNC_BUDGET_MS: "1500" } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(
      /^✗ origin kept changing; gave up after \d+ attempts in \d+ s \(the local state is valid and includes every merge so far\)/,
    );
    const attempts = Number(/after (\d+) attempts/.exec(r.stderr)![1]);
    expect(attempts).toBeGreaterThan(1);
    expect(r.stderr).toContain("renumbered ENG-M-0002 → ENG-M-0003");
    expect(await c1.json<any>(["task", "show", "3"], "task")).toMatchObject({ title: "One's second" });
  });
});
