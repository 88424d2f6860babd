/**
 * A host that accepts only branches and tags (DESIGN §3.1): a pre-receive hook, an update hook
 * or receive.hideRefs refuses refs/coordination/main for its name. The first clone's sync finds
 * it, moves the state to the branch refs/heads/pantheon-state and says so; teammates take it
 * from there (by themselves, or by the git config they were told to set); everyone converges,
 * claims publish, and neither git pull nor summon --worktree ever takes the state for code.
 * A refusal for any other reason moves nothing.
 */
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF, syncUntilEqual, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";
import { standIns } from "../persona/stand-ins.js";

const BRANCH = "refs/heads/pantheon-state";
const KEY = "pantheon.origin.remoteRef";
const BRANCH_GLOB = "+refs/heads/pantheon-state*:refs/coordination/remotes/origin/main*";
const REF_GLOB = "+refs/coordination/main*:refs/coordination/remotes/origin/main*";

/** A hook that lets only branches and tags in, as a host's policy would. */
const HOOKS = {
  "pre-receive":
    '#!/bin/sh\nwhile read old new ref; do\n  case "$ref" in refs/heads/*|refs/tags/*) ;; *) echo "error: refusing $ref: only branches and tags may be pushed here" >&2; exit 1;; esac\ndone\n',
  // git itself adds "hook declined to update <ref>" after the hook's own words.
  update:
    '#!/bin/sh\ncase "$1" in refs/heads/*|refs/tags/*) exit 0;; esac\nprintf "not allowed \\033[31mhere\\n" >&2\nexit 1\n',
} as const;

function installHook(origin: string, name: keyof typeof HOOKS | "pre-receive-all", text?: string): void {
  const file = join(origin, "hooks", name === "pre-receive-all" ? "pre-receive" : name);
  writeFileSync(file, text ?? HOOKS[name as keyof typeof HOOKS]);
  chmodSync(file, 0o755);
}

const refOn = (repo: string, ref: string): string | null => {
  try {
    return git(repo, "rev-parse", "-q", "--verify", ref).trim();
  } catch {
    return null;
  }
};
const configOf = (c: Clone, key: string): string | null => {
  try {
    return c.git("config", key).trim();
  } catch {
    return null;
  }
};
const fetchSpecs = (c: Clone) => c.git("config", "--get-all", "remote.origin.fetch").split("\n").filter(Boolean);

/** Three clones of an origin that refuses refs/coordination/main; clone 0 has run init. */
async function branchOnlyTeam(hook: "pre-receive" | "update" | "hideRefs" = "pre-receive") {
  const setup = await makeOriginAndClones(3, { init: false });
  if (hook === "hideRefs") git(setup.origin, "config", "receive.hideRefs", "refs/coordination");
  else installHook(setup.origin, hook);
  const [c0, c1, c2] = setup.clones as [Clone, Clone, Clone];
  await c0.ok(["init", "--yes"]);
  for (const c of setup.clones) c.markBaseline();
  return { ...setup, c0, c1, c2 };
}

describe("a host that refuses refs/coordination/main for its name", () => {
  it("the first sync moves the state to refs/heads/pantheon-state and says so; teammates find it or set it; all converge", async () => {
    const { origin, c0, c1, c2 } = await branchOnlyTeam();
    const first = await c0.run(["sync"]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^✓ Synced with origin: pushed/);
    expect(first.stdout).toContain(
      "origin refused refs/coordination/main for its name (the server refused it (pre-receive hook declined): error: refusing refs/coordination/main: only branches and tags may be pushed here): the state is published on refs/heads/pantheon-state instead, recorded in this clone (git config pantheon.origin.remoteRef refs/heads/pantheon-state)",
    );
    expect(first.stdout).toContain(
      "teammates' clones find it by themselves at their next pantheon sync (or set it: git config pantheon.origin.remoteRef refs/heads/pantheon-state)",
    );
    expect(first.stdout).toContain(`remote.origin.fetch has ${BRANCH_GLOB}`);
    expect(refOn(origin, BRANCH)).toBe(c0.ref());
    expect(refOn(origin, REF)).toBeNull();
    expect(configOf(c0, KEY)).toBe(BRANCH);
    // The glob of refs/coordination/main is gone: git refuses a fetch that maps two refs to one.
    expect(fetchSpecs(c0)).toEqual(["+refs/heads/*:refs/remotes/origin/*", BRANCH_GLOB]);
    expect(refOn(c0.dir, "refs/coordination/remotes/origin/main")).toBe(c0.ref());

    // Clone 1 finds it by itself (origin has no refs/coordination/main, and a state on the branch).
    const found = await c1.json<any>(["sync"], "sync");
    expect(found).toMatchObject({ action: "adopted", remoteRef: BRANCH, refspec: BRANCH_GLOB });
    expect(found.remoteRefChange).toMatchObject({ how: "found", ref: BRANCH, from: REF, key: KEY });
    expect(configOf(c1, KEY)).toBe(BRANCH);
    // Clone 2 sets what clone 0 said to set: nothing to find, nothing to say.
    c2.git("config", KEY, BRANCH);
    const told = await c2.json<any>(["sync"], "sync");
    expect(told).toMatchObject({ action: "adopted", remoteRef: BRANCH, remoteRefChange: null });

    for (const [i, c] of [c0, c1, c2].entries())
      await c.ok(["task", "create", "--title", `Made in clone ${i}`, "--role", "engineer"]);
    await syncUntilEqual([c0, c1, c2]);
    expect(refOn(origin, BRANCH)).toBe(c0.ref());
    expect(refOn(origin, REF), "never created").toBeNull();
    const titles = (await c2.json<any[]>(["task", "list"], "tasks")).map((t) => t.title).sort();
    expect(titles).toEqual(["Made in clone 0", "Made in clone 1", "Made in clone 2"]);
    for (const c of [c0, c1, c2]) c.expectUntouched();
  });

  it("claims publish through the branch: a second clone claiming the same task is refused at once", async () => {
    const { origin, c0, c1 } = await branchOnlyTeam();
    await c0.ok(["task", "create", "--title", "Shared work", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    for (const c of [c0, c1]) c.git("config", "pantheon.autoSync", "true");
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Ptah"]);
    const claim = await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(claim.stderr).toBe("");
    expect(refOn(origin, BRANCH), "published before the command returned").toBe(c0.ref());
    expect(JSON.parse(git(origin, "cat-file", "-p", `${BRANCH}:tasks/01/1.json`))).toMatchObject({
      status: "UNDERWAY",
      claimedBy: "Hephaestus",
    });
    const refused = await c1.run(["--as", "Ptah", "task", "claim", "1"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^✗ Cannot claim ENG-M-0001 as Ptah: it is already claimed by Hephaestus/);
    expect(c1.ref()).toBe(refOn(origin, BRANCH));
  });

  it("git pull and git fetch in a clone bring the state beside the code, never into it", async () => {
    const { c0, c1 } = await branchOnlyTeam();
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["task", "create", "--title", "Later", "--role", "engineer"]);
    await c0.ok(["sync"]);
    c0.git("commit", "-q", "--allow-empty", "-m", "code moves on");
    c0.git("push", "-q", "origin", "main");
    const head = c1.ref();
    c1.git("pull", "-q");
    // The code's branch moved; the state's tracking ref too (the glob); HEAD holds no state file.
    expect(c1.git("log", "-1", "--format=%s", "HEAD").trim()).toBe("code moves on");
    expect(c1.git("ls-tree", "--name-only", "HEAD")).toBe("");
    expect(refOn(c1.dir, "refs/coordination/remotes/origin/main")).toBe(c0.ref());
    expect(c1.ref(), "a plain pull never moves the state itself").toBe(head);
    // git's own default refspec (refs/heads/*) brings the branch as origin/pantheon-state too; no
    // local branch, upstream or fetch line for it is made by init, sync or the pull.
    expect(refOn(c1.dir, "refs/remotes/origin/pantheon-state")).toBe(c0.ref());
    expect(c1.git("for-each-ref", "--format=%(refname)", "refs/heads").trim()).toBe("refs/heads/main");
    expect(c1.git("config", "--get-regexp", "^branch\\.").trim().split("\n")).toEqual([
      "branch.main.remote origin",
      "branch.main.merge refs/heads/main",
    ]);
    expect(fetchSpecs(c1)).toEqual(["+refs/heads/*:refs/remotes/origin/*", BRANCH_GLOB]);
    // A branch without upstream: `git pull origin` names no branch and merges nothing.
    c1.git("switch", "-q", "-c", "topic");
    let pulled = "";
    try {
      c1.git("pull", "-q", "origin");
    } catch (e) {
      pulled = String((e as { stderr?: string }).stderr);
    }
    expect(pulled).toMatch(/did not specify\s+a branch/);
    expect(c1.git("ls-tree", "--name-only", "HEAD")).toBe("");
    // and reads say what the fetch brought (freshness against the tracking ref)
    const read = await c1.ok(["task", "list"]);
    expect(read.stderr).toContain("origin has 1 change this clone lacks (as last fetched): pantheon sync");
  });
});

describe("each way a host refuses by name, and each way a teammate takes the state", () => {
  it("an update hook: the state moves to the branch; a teammate's init adopts it from there", async () => {
    const { origin, c0, c1 } = await branchOnlyTeam("update");
    const first = await c0.ok(["sync"]);
    // The server's words are remote text: escaped on the terminal.
    expect(first.stdout).toContain("not allowed \\e[31mhere / error: hook declined to update refs/coordination/main");
    expect(first.stdout).not.toContain("\u001b");
    expect(configOf(c0, KEY)).toBe(BRANCH);
    expect(refOn(origin, BRANCH)).toBe(c0.ref());
    const init = await c1.ok(["init", "--yes"]);
    expect(init.stdout).toMatch(/^✓ Adopted the Pantheon state of ".*" from origin \(refs\/heads\/pantheon-state\)/);
    expect(init.stderr).toContain(
      "origin keeps its Pantheon state on refs/heads/pantheon-state (it has no refs/coordination/main): recorded in this clone",
    );
    expect(c1.ref()).toBe(c0.ref());
    expect(fetchSpecs(c1)).toEqual(["+refs/heads/*:refs/remotes/origin/*", BRANCH_GLOB]);
  });

  it("receive.hideRefs: the state moves to the branch; a teammate's first command takes it from there", async () => {
    const { origin, c0, c1 } = await branchOnlyTeam("hideRefs");
    const first = await c0.json<any>(["sync"], "sync");
    expect(first.remoteRefChange.serverSaid).toContain("deny updating a hidden ref");
    expect(refOn(origin, BRANCH)).toBe(c0.ref());
    const list = await c1.ok(["task", "list"]);
    expect(list.stderr).toContain("origin keeps its Pantheon state on refs/heads/pantheon-state");
    expect(c1.ref()).toBe(c0.ref());
    expect(configOf(c1, KEY)).toBe(BRANCH);
  });

  it("a host that starts refusing a team already in step: a claim moves the state (saying so on stderr), the others follow", async () => {
    const { origin, clones } = await makeOriginAndClones(2, { autoSync: true });
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Shared work", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    await c1.ok(["task", "create", "--title", "Made offline", "--role", "engineer", "--offline"]);
    const frozen = refOn(origin, REF);
    installHook(origin, "pre-receive"); // refs/coordination/main stays on origin, frozen
    const claim = await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(claim.stderr).toContain("origin refused refs/coordination/main for its name");
    expect(claim.stderr).not.toContain("not published yet");
    expect(refOn(origin, BRANCH)).toBe(c0.ref());
    expect(refOn(origin, REF)).toBe(frozen);
    // Clone 1 still fetches the frozen ref; its push is refused by name, and the branch holds the
    // state already: it takes it from there, merges and pushes.
    const r = await c1.json<any>(["sync"], "sync");
    expect(r.remoteRefChange).toMatchObject({ how: "refused", ref: BRANCH });
    expect(r.action).toBe("merged");
    expect(refOn(origin, BRANCH)).toBe(c1.ref());
    await c0.ok(["sync"]);
    expect(c0.ref()).toBe(c1.ref());
    expect((await c0.json<any>(["task", "show", "1"], "task")).claimedBy).toBe("Hephaestus");
  });
});

describe("what never moves the state", () => {
  it("a refusal that does not name the ref: exit 3 with the server's words, no branch, no config", async () => {
    const { origin, clones } = await makeOriginAndClones(1, { init: false });
    const c = clones[0]!;
    installHook(origin, "pre-receive-all", '#!/bin/sh\necho "Policy: the state needs a ticket"\nexit 1\n');
    await c.ok(["init", "--yes"]);
    const r = await c.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("Policy: the state needs a ticket");
    expect(refOn(origin, BRANCH)).toBeNull();
    expect(configOf(c, KEY)).toBeNull();
    expect(fetchSpecs(c)).toContain(REF_GLOB);
  });

  it("a host that refuses the branch too: exit 3 naming both refusals; nothing recorded", async () => {
    const { origin, clones } = await makeOriginAndClones(1, { init: false });
    const c = clones[0]!;
    installHook(
      origin,
      "pre-receive-all",
      '#!/bin/sh\nwhile read old new ref; do echo "error: refusing $ref: pushes are closed" >&2; done\nexit 1\n',
    );
    await c.ok(["init", "--yes"]);
    const before = c.ref();
    const r = await c.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split("\n")[0]).toBe(
      "✗ Cannot push to origin: it refused refs/coordination/main (the server refused it (pre-receive hook declined): error: refusing refs/coordination/main: pushes are closed) and the branch pantheon-state as well (the server refused it (pre-receive hook declined): error: refusing refs/heads/pantheon-state: pushes are closed); the team has no ref there to share the state through, and nothing was published",
    );
    expect(configOf(c, KEY)).toBeNull();
    expect(refOn(origin, BRANCH)).toBeNull();
    expect(c.ref()).toBe(before);
  });

  it("a branch pantheon-state that holds code: the state is not moved onto it", async () => {
    const { origin, clones } = await makeOriginAndClones(1, { init: false });
    const c = clones[0]!;
    c.git("push", "-q", "origin", `main:${BRANCH}`);
    installHook(origin, "pre-receive");
    await c.ok(["init", "--yes"]);
    const code = refOn(origin, BRANCH);
    const r = await c.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("its branch pantheon-state holds something other than a Pantheon state");
    expect(refOn(origin, BRANCH)).toBe(code);
    expect(configOf(c, KEY)).toBeNull();
  });

  it("a remote with no branch yet: the state's branch would become its default branch; exit 3, nothing created", async () => {
    const { origin, clones } = await makeOriginAndClones(1, { init: false });
    const c = clones[0]!;
    git(origin, "update-ref", "-d", "refs/heads/main"); // an empty repository on a host
    installHook(origin, "pre-receive");
    await c.ok(["init", "--yes"]);
    const r = await c.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split("\n")[0]).toBe(
      "✗ origin has no branch yet: most hosts make the first branch pushed to an empty repository its default branch, the one every clone checks out, and refs/heads/pantheon-state would hold the Pantheon state, not code; nothing was published",
    );
    expect(git(origin, "for-each-ref").trim()).toBe("");
    expect(configOf(c, KEY)).toBeNull();
    c.git("push", "-q", "origin", "main");
    expect((await c.json<any>(["sync"], "sync")).remoteRef).toBe(BRANCH);
    expect(refOn(origin, BRANCH)).toBe(c.ref());
  });

  it("a clone told to use the branch while the remote keeps its state on refs/coordination/main: exit 3, no second copy", async () => {
    const { origin, clones } = await makeOriginAndClones(2);
    const c1 = clones[1]!;
    c1.git("config", KEY, BRANCH);
    const before = c1.ref();
    const r = await c1.run(["sync"]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split("\n")[0]).toBe(
      "✗ origin has no refs/heads/pantheon-state (git config pantheon.origin.remoteRef) but keeps its Pantheon state on refs/coordination/main; nothing was fetched or pushed",
    );
    expect(refOn(origin, BRANCH)).toBeNull();
    expect(c1.ref()).toBe(before);
  });
});

describe("summon --worktree with the state's branch checked out", () => {
  it("is refused before any mission starts", async () => {
    const { c0, c1 } = await branchOnlyTeam();
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    c1.git("checkout", "-q", "pantheon-state"); // git's DWIM: a local branch from origin/pantheon-state
    expect(existsSync(join(c1.dir, "project.json")), "the state's files, not code").toBe(true);
    const before = c1.ref();
    const s = standIns(["claude"]);
    const r = await c1.run(["summon", "engineer", "--worktree", "--assistant", "claude"], { env: s.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      "✗ --worktree branches from HEAD, and HEAD is a Pantheon state commit (the state's own branch checked out), not code; nothing was started",
    );
    expect(c1.ref()).toBe(before);
    expect(s.all(), "no assistant started").toEqual([]);
    expect((await c1.json<any>(["doctor"], "doctor")).findings).toContainEqual(
      expect.objectContaining({ code: "W_STATE_BRANCH", subject: BRANCH }),
    );
  });
});
