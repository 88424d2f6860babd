/**
 * Publishing (DESIGN §3.5; issue 14): the commands others race for — task claim, mission start
 * and end, review decisions — fetch and merge first, run on the merged state and push their
 * commit before it lands here, when the clone's default remote has state. A claim the remote
 * already holds is refused at once (exit 1), the merge it fetched staying; an unreachable remote
 * never fails the command; --offline, pantheon.autoSync=false and a sandbox without network
 * turn it off; reads and other writes never touch the network.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishingTeam } from "../../helpers/publishing-team.js";
import { makeOriginAndClones, REF } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

const originFile = (origin: string, path: string) => JSON.parse(git(origin, "cat-file", "-p", `${REF}:${path}`));

/** Two clones in step, each with its persona's ACTIVE mission and task 1 published; publishing on. */
const team = publishingTeam;

describe("a claim made while the remote is reachable", () => {
  it("is on the remote when the command returns; a second clone claiming it afterwards is refused at once, keeping the merge it fetched", async () => {
    const { c0, c1, origin, originRef } = await team();
    // The mission starts were published too: both are on origin, with distinct numbers.
    expect(originFile(origin, "missions/01/1.json")).toMatchObject({ persona: "Hephaestus" });
    expect(originFile(origin, "missions/02/2.json")).toMatchObject({ persona: "Ptah" });

    const claim = await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(claim.stderr).toBe("");
    expect(originRef(), "published before the command returned").toBe(c0.ref());
    expect(originFile(origin, "tasks/01/1.json")).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus" });

    const before = c1.ref();
    const refused = await c1.run(["--as", "Ptah", "task", "claim", "1"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^✗ Cannot claim ENG-M-0001 as Ptah: it is already claimed by Hephaestus/);
    // The fetched state stays (a fast-forward here), and nothing of the refused claim was written.
    expect(c1.ref()).not.toBe(before);
    expect(c1.ref()).toBe(originRef());
    expect(await c1.json<any>(["task", "show", "1"], "task")).toMatchObject({
      status: "UNDERWAY",
      claimedBy: "Hephaestus",
    });
    c0.expectUntouched();
    c1.expectUntouched();
  });

  it("--json: the claim's data as ever, and a clone that was behind claims another task on top of the remote's state", async () => {
    const { c0, c1, originRef } = await team();
    await c0.ok(["task", "note", "2", "from clone 0"]); // not a racing command: stays local
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]); // publishes the note too
    const t = await c1.json<any>(["--as", "Ptah", "task", "claim", "2"], "task");
    expect(t).toMatchObject({ id: "ENG-M-0002", status: "UNDERWAY", claimedBy: "Ptah" });
    expect(originRef()).toBe(c1.ref());
    const shown = await c1.json<any>(["task", "show", "2"], "task");
    expect(shown.notes.map((n: any) => n.text)).toContain("from clone 0");
    expect(git(c1.dir, "merge-base", "--is-ancestor", c0.ref()!, c1.ref()!)).toBe("");
  });

  it("a review decision and a mission end are published; the released claim is free on the remote at once", async () => {
    const { c0, c1, origin, originRef } = await team();
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    await c0.ok(["--as", "Hephaestus", "task", "update", "1", "--status", "REVIEW"]); // not racing: local
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c1.ok(["--as", "Ptah", "review", "approve", "RVW-001"]);
    expect(originFile(origin, "reviews/01/1.json")).toMatchObject({ status: "APPROVED" });
    expect(originFile(origin, "tasks/01/1.json")).toMatchObject({ status: "COMPLETE" });
    await c1.ok(["--as", "Ptah", "task", "claim", "2"]);
    await c1.ok(["--as", "Ptah", "mission", "end", "--release"]);
    expect(originFile(origin, "tasks/02/2.json")).toMatchObject({ status: "TODO", claimedBy: null });
    expect(originRef()).toBe(c1.ref());
    const t = await c0.json<any>(["--as", "Hephaestus", "task", "claim", "2"], "task");
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus" });
  });

  it("a push the remote rejects (it moved meanwhile) repeats from the fetch: the claim is re-run on the remote's state and refused", async () => {
    const { c0, c1, origin, originRef } = await team();
    await c0.ok(["sync"]); // clone 0 has Ptah's mission too: its claim below is a fast-forward of origin
    // Clone 0 claims task 1 without publishing, and parks that commit on origin beside the state.
    await c0.ok(["--offline", "--as", "Hephaestus", "task", "claim", "1"]);
    c0.git("push", "-q", "origin", `${REF}:refs/test/race`);
    // The next push to origin finds the state moved to that claim first (a pre-receive hook that
    // fires once; git forbids ref updates in its quarantine, hence env -u), as if clone 0 had
    // pushed between clone 1's fetch and its push.
    const hook = join(origin, "hooks", "pre-receive");
    writeFileSync(
      hook,
      `#!/bin/sh\nif [ ! -e "$GIT_DIR/raced" ]; then touch "$GIT_DIR/raced"; env -u GIT_QUARANTINE_PATH git update-ref ${REF} "$(git rev-parse refs/test/race)"; fi\nexit 0\n`,
    );
    chmodSync(hook, 0o755);
    const r = await c1.run(["--as", "Ptah", "task", "claim", "1"]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/already claimed by Hephaestus/);
    expect(c1.ref()).toBe(originRef());
    expect(originFile(origin, "tasks/01/1.json")).toMatchObject({ claimedBy: "Hephaestus" });
    // No conflict note: the refused claim was never committed and merged away.
    const t = await c1.json<any>(["task", "show", "1"], "task");
    expect(t.notes.filter((n: any) => n.kind === "conflict")).toEqual([]);
  });
});

describe("publishing never fails the command", () => {
  it("an unreachable remote: the claim lands locally and says it is not published yet", async () => {
    const { c0, origin, originRef } = await team();
    const published = originRef();
    c0.git("remote", "set-url", "origin", join(origin, "..", "gone.git"));
    const r = await c0.run(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ Claimed ENG-M-0001/);
    expect(r.stderr).toMatch(
      /^! not published yet \(origin is unreachable: '.*gone\.git' does not appear to be a git repository\): pantheon sync\n$/,
    );
    expect(await c0.json<any>(["task", "show", "1"], "task")).toMatchObject({ claimedBy: "Hephaestus" });
    expect(originRef()).toBe(published);
  });

  it("a server that refuses the push (a hook): lands locally, says so with the server's words", async () => {
    const { c0, origin, originRef } = await team();
    const published = originRef();
    const hook = join(origin, "hooks", "pre-receive");
    writeFileSync(hook, "#!/bin/sh\necho 'state is frozen' >&2\nexit 1\n");
    chmodSync(hook, 0o755);
    const r = await c0.run(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^! not published yet \(origin refused the push \(pre-receive hook declined\): state is frozen\): pantheon sync/,
    );
    expect(originRef()).toBe(published);
    expect(c0.ref()).not.toBe(published);
  });

  it("network calls never prompt: ssh runs in BatchMode, git with GIT_TERMINAL_PROMPT=0", async () => {
    const { c0, root } = await team();
    // A stand-in ssh on PATH that records how it was called, then fails as an unreachable host would.
    const bin = join(root, "bin");
    mkdirSync(bin);
    const log = join(root, "ssh.log");
    writeFileSync(
      join(bin, "ssh"),
      `#!/bin/sh\necho "args: $*" >> "${log}"\necho "prompt: $GIT_TERMINAL_PROMPT" >> "${log}"\nexit 255\n`,
    );
    chmodSync(join(bin, "ssh"), 0o755);
    c0.git("remote", "set-url", "origin", "ssh://someone@git.example.invalid/project.git");
    const r = await c0.run(["--as", "Hephaestus", "task", "claim", "1"], {
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^! not published yet \(origin is unreachable: /);
    const calls = readFileSync(log, "utf8");
    expect(calls).toContain("-o BatchMode=yes");
    expect(calls).toContain("prompt: 0");
  });

  it("a remote that does not answer: the reason names the remote, the time limit and the git operation (git fetch), not git's first argument", async () => {
    const { clones, root } = await makeOriginAndClones(1, { autoSync: true });
    const c0 = clones[0]!;
    await c0.ok(["task", "create", "--title", "Shared work", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    // A stand-in ssh that never answers: it reads until git, killed at the time limit, closes the pipe.
    const bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "ssh"), "#!/bin/sh\nexec cat >/dev/null\n");
    chmodSync(join(bin, "ssh"), 0o755);
    c0.git("remote", "set-url", "origin", "ssh://someone@git.example.invalid/project.git");
    const r = await c0.run(["--as", "Hephaestus", "task", "claim", "1"], {
      env: { PATH: `${bin}:${process.env.PATH}`, PANTHEON_PUBLISH_BUDGET_MS: "1500" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    // The call's limit is what was left of the budget when it began (at least 1 s): 1.5 s on an
    // idle machine, less when starting the process took part of it on a loaded one.
    expect(r.stderr).toMatch(
      /^! not published yet \(origin did not answer within 1(\.[0-5])? s \(git fetch\)\): pantheon sync\n$/,
    );
  });

  it.each([
    ["--offline", ["--offline"], {}, /^! not published yet \(--offline\): pantheon sync\n$/],
    [
      "a sandbox without network",
      [],
      { CODEX_SANDBOX_NETWORK_DISABLED: "1" },
      /^! not published yet \(no network in this sandbox\): pantheon sync\n$/,
    ],
    ["pantheon.autoSync=false", [], {}, /^$/],
  ] as const)("%s: no network call at all", async (name, flags, env, stderr) => {
    const { c0, origin, originRef } = await team();
    if (name === "pantheon.autoSync=false") c0.git("config", "pantheon.autoSync", "false");
    const published = originRef();
    // Any fetch or push would fail loudly here: the remote is gone.
    c0.git("remote", "set-url", "origin", join(origin, "..", "gone.git"));
    const r = await c0.run([...flags, "--as", "Hephaestus", "task", "claim", "1"], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(stderr);
    expect(originRef()).toBe(published);
  });

  it("reads and other writes never contact the remote", async () => {
    const { c0, c1, origin } = await team();
    await c1.ok(["--as", "Ptah", "task", "claim", "2"]); // origin moves
    const tracking = c0.git("rev-parse", "refs/coordination/remotes/origin/main").trim();
    c0.git("remote", "set-url", "origin", join(origin, "..", "gone.git"));
    for (const argv of [
      ["task", "create", "--title", "Local", "--role", "engineer"],
      ["task", "note", "1", "hi"],
      ["task", "list"],
      ["dashboard"],
      ["task", "show", "1"],
    ]) {
      const r = await c0.run(argv);
      expect(r.exitCode, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stderr, argv.join(" ")).not.toMatch(/not published|fetch/i);
    }
    expect(c0.git("rev-parse", "refs/coordination/remotes/origin/main").trim(), "nothing was fetched").toBe(tracking);
  });

  it("a clone whose remote has no state yet: the claim is local and silent (nothing to publish to)", async () => {
    const { clones, originRef } = await makeOriginAndClones(1, { init: false, autoSync: true });
    const c0 = clones[0]!;
    await c0.ok(["init", "--yes"]);
    await c0.ok(["task", "create", "--title", "Solo", "--role", "engineer"]);
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    const r = await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(r.stderr).toBe("");
    expect(originRef()).toBeNull();
  });

  it("right after the sync that first published the state (no fetch since, the remote added after init): the claim is published", async () => {
    const { clones, originRef } = await makeOriginAndClones(1, { init: false, autoSync: true });
    const c0 = clones[0]!;
    await c0.ok(["init", "--yes"]);
    await c0.ok(["task", "create", "--title", "Shared", "--role", "engineer"]);
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    // The remote was added after init (as in the demo): no refspec yet, so git's push updates no
    // tracking ref; sync adds the refspec after its push.
    c0.git("config", "--unset", "remote.origin.fetch", "coordination");
    await c0.ok(["sync"]); // the remote had no state: pushed, nothing fetched
    expect(
      c0.git("rev-parse", "refs/coordination/remotes/origin/main").trim(),
      "the tracking ref follows the push",
    ).toBe(originRef());
    const r = await c0.ok(["--as", "Hephaestus", "task", "claim", "1"]);
    expect(r.stderr).toBe("");
    expect(originRef(), "the claim is on the remote").toBe(c0.ref());
  });
});

/**
 * A pre-receive hook that moves origin's state before every push lands (another clone's push, as
 * it were), so the push is rejected; with `slowMs` it first waits that long (a slow round trip).
 * With `times`, only the first that many pushes are moved. Objects are written outside the push's
 * quarantine (git forbids ref updates there and drops its objects with a rejected push).
 */
function keepMoving(origin: string, o: { slowMs?: number; times?: number } = {}): void {
  const hook = join(origin, "hooks", "pre-receive");
  const count = join(origin, "moved-count");
  writeFileSync(count, "0\n");
  const unq = "env -u GIT_QUARANTINE_PATH -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES";
  writeFileSync(
    hook,
    [
      "#!/bin/sh",
      "cat >/dev/null",
      `n=$(cat "${count}")`,
      `if [ ${o.times ?? -1} -ge 0 ] && [ "$n" -ge ${o.times ?? -1} ]; then exit 0; fi`,
      `echo $((n + 1)) > "${count}"`,
      o.slowMs ? `sleep ${o.slowMs / 1000}` : "",
      `tip=$(${unq} git rev-parse ${REF})`,
      `new=$(${unq} git -c user.name=Other -c user.email=other@example.com commit-tree "$tip^{tree}" -p "$tip" -m "another clone")`,
      `${unq} git update-ref ${REF} "$new" "$tip"`,
      "exit 0",
      "",
    ].join("\n"),
  );
  chmodSync(hook, 0o755);
}

const movedCount = (origin: string) => Number(readFileSync(join(origin, "moved-count"), "utf8").trim());

describe("a reachable remote that keeps moving is contention, not absence", () => {
  it("the claim keeps trying past the 5 s it used to give up at, and is published once the remote holds still", async () => {
    const { c0, origin, originRef } = await team();
    // Three pushes rejected, each after a 1.8 s round trip: over 5 s of contention in all.
    keepMoving(origin, { slowMs: 1_800, times: 3 });
    const started = Date.now();
    const r = await c0.run(["--as", "Hephaestus", "task", "claim", "1", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(5_000);
    expect(movedCount(origin)).toBe(3);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: "task", published: true, data: { claimedBy: "Hephaestus" } });
    expect(JSON.parse(r.stdout)).not.toHaveProperty("publishedReason");
    expect(originFile(origin, "tasks/01/1.json")).toMatchObject({ claimedBy: "Hephaestus", status: "UNDERWAY" });
    expect(originRef()).toBe(c0.ref());
  }, 60_000);

  it("when the budget runs out, the result says so: published false, how many attempts, how often the remote moved", async () => {
    const { c0, origin, originRef } = await team();
    keepMoving(origin);
    const r = await c0.run(["--as", "Hephaestus", "task", "claim", "1", "--json"], {
      env: { PANTHEON_PUBLISH_BUDGET_MS: "2500" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ kind: "task", published: false, data: { claimedBy: "Hephaestus" } });
    const m = /^the 2\.5 s publishing budget ran out after (\d+) attempts; origin moved (\d+) times? meanwhile$/.exec(
      doc.publishedReason,
    );
    expect(m, doc.publishedReason).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(2);
    expect(Number(m![2])).toBe(Number(m![1]) - 1);
    expect(r.stderr).toBe(`! not published yet (${doc.publishedReason}): pantheon sync\n`);
    // Landed here only: origin has the other clone's commits and not the claim.
    expect(originFile(origin, "tasks/01/1.json")).toMatchObject({ claimedBy: null });
    expect(originRef()).not.toBe(c0.ref());
  }, 60_000);
});

describe("--json says whether it was published", () => {
  it("published true for a claim, a review decision and a mission end that reached the remote", async () => {
    const { c0, c1 } = await team();
    const doc = (r: { stdout: string }) => JSON.parse(r.stdout);
    expect(doc(await c0.ok(["--as", "Hephaestus", "task", "claim", "1", "--json"]))).toMatchObject({ published: true });
    await c0.ok(["--as", "Hephaestus", "task", "update", "1", "--status", "REVIEW"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    expect(doc(await c1.ok(["--as", "Ptah", "review", "approve", "RVW-001", "--json"]))).toMatchObject({
      kind: "review",
      published: true,
    });
    expect(doc(await c1.ok(["--as", "Ptah", "mission", "end", "--json"]))).toMatchObject({ published: true });
    // A command that does not publish by itself says nothing of it.
    expect(doc(await c1.ok(["task", "note", "2", "hi", "--json"]))).not.toHaveProperty("published");
  });

  it("published false with the reason: an unreachable remote, and a clone that publishes nothing by itself", async () => {
    const { c0, c1, origin } = await team();
    c0.git("remote", "set-url", "origin", join(origin, "..", "gone.git"));
    const gone = JSON.parse((await c0.ok(["--as", "Hephaestus", "task", "claim", "1", "--json"])).stdout);
    expect(gone).toMatchObject({ published: false, data: { claimedBy: "Hephaestus" } });
    expect(gone.publishedReason).toMatch(
      /^origin is unreachable: '.*gone\.git' does not appear to be a git repository$/,
    );
    c1.git("config", "pantheon.autoSync", "false");
    const off = await c1.ok(["--as", "Ptah", "task", "claim", "2", "--json"]);
    expect(JSON.parse(off.stdout)).toMatchObject({
      published: false,
      publishedReason: "publishing is off in this clone (pantheon.autoSync false)",
    });
    expect(off.stderr).toBe("");
  });
});

describe("an id the persona just got, renumbered by the claim's own fetch", () => {
  /** Clone 0 publishes task 3 (`theirs`); clone 1 made its own task 3 offline (`mine`), which the claim's fetch will renumber. */
  async function collided(theirs: string, mine: string) {
    const { c0, c1 } = await team();
    await c0.ok(["task", "create", "--title", "Theirs", "--role", theirs]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine", "--role", mine]);
    return { c0, c1 };
  }

  it("an id that is both this clone's task's and the published one's names what it named before the fetch: this clone's task", async () => {
    const { c1 } = await collided("engineer", "engineer");
    const r = await c1.run(["--as", "Ptah", "task", "claim", "ENG-M-0003", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ published: true, data: { id: "ENG-M-0004", title: "Mine" } });
    expect(r.stderr).toBe(
      "! note: this command's sync renumbered ENG-M-0003 to ENG-M-0004 (number 3 went to ENG-M-0003 from another clone): acting on ENG-M-0004\n",
    );
    // A later command is not the one whose fetch renumbered it: the same id is ambiguous there.
    const later = await c1.run(["--as", "Ptah", "task", "note", "ENG-M-0003", "which one?"]);
    expect(later.exitCode).toBe(1);
    expect(later.stderr).toMatch(/^✗ ENG-M-0003 names ENG-M-0003 now: a sync renumbered/);
  });

  it("a former id that names no other task acts on the renumbered task, saying so; a bare number is still refused", async () => {
    const { c1 } = await collided("tester", "engineer");
    const bare = await c1.run(["--as", "Ptah", "task", "claim", "3"]);
    expect(bare.exitCode, bare.stderr).toBe(1);
    expect(bare.stderr).toMatch(
      /^✗ 3 names TST-M-0003 now: a sync renumbered this clone's task ENG-M-0003 to ENG-M-0004/,
    );
    // A later command is not the one whose fetch renumbered it: the former id is refused as ever.
    const later = await c1.run(["--as", "Ptah", "task", "claim", "ENG-M-0003"]);
    expect(later.exitCode).toBe(1);
    expect(later.stderr).toMatch(/E_RENUMBERED|ENG-M-0003 was this clone's task/);
  });

  it("the id task next just offered, renumbered by the claim's own fetch, claims that task", async () => {
    const { c1 } = await collided("tester", "engineer");
    const r = await c1.run(["--as", "Ptah", "task", "claim", "ENG-M-0003", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ published: true, data: { id: "ENG-M-0004", title: "Mine" } });
    expect(r.stderr).toContain(
      "note: this command's sync renumbered ENG-M-0003 to ENG-M-0004 (number 3 went to TST-M-0003 from another clone): acting on ENG-M-0004",
    );
  });
});

describe("a claim whose own fetches renumber the offered task twice", () => {
  it("the id task next offered still claims that task when a retried push's merge renumbers it again", async () => {
    const { c0, c1, origin } = await team();
    await c0.ok(["task", "create", "--title", "Theirs", "--role", "tester"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Mine", "--role", "engineer"]); // ENG-M-0003 here, unpublished
    // Clone 0's next task, parked on origin: the first push of clone 1's claim finds the state
    // moved to it (a pre-receive hook that fires once), so the retried merge takes number 4 too.
    await c0.ok(["task", "create", "--title", "Later", "--role", "tester"]);
    c0.git("push", "-q", "origin", `${REF}:refs/test/race`);
    const hook = join(origin, "hooks", "pre-receive");
    writeFileSync(
      hook,
      `#!/bin/sh\nif [ ! -e "$GIT_DIR/raced" ]; then touch "$GIT_DIR/raced"; env -u GIT_QUARANTINE_PATH git update-ref ${REF} "$(git rev-parse refs/test/race)"; fi\nexit 0\n`,
    );
    chmodSync(hook, 0o755);
    const r = await c1.run(["--as", "Ptah", "task", "claim", "ENG-M-0003", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      published: true,
      data: { id: "ENG-M-0005", title: "Mine", claimedBy: "Ptah" },
    });
    // Said once, for the attempt that was published: not the first attempt's ENG-M-0004.
    expect(r.stderr).toBe(
      "! note: this command's sync renumbered ENG-M-0003 to ENG-M-0005 (number 3 went to TST-M-0003 from another clone): acting on ENG-M-0005\n",
    );
    expect(originFile(origin, "tasks/05/5.json")).toMatchObject({ title: "Mine", claimedBy: "Ptah" });
  });
});
