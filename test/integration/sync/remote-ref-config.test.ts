/**
 * git config pantheon.<remote>.remoteRef, and pantheon.remoteRef for every remote without its
 * own (DESIGN §3.1): both forms and which wins; and either as bad input: a value that cannot hold
 * the state is refused by every command that would use it (exit 2, the key named, nothing
 * fetched, merged or pushed) and reported by doctor; a branch that holds code is found by its
 * content after a fetch and refused the same way. And the fetch refspec follows the ref.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

const KEY = "pantheon.origin.remoteRef";
const BRANCH = "refs/heads/pantheon-state";
const TRACKING = "refs/coordination/remotes/origin/main";
const REF_GLOB = "+refs/coordination/main*:refs/coordination/remotes/origin/main*";
const BRANCH_GLOB = "+refs/heads/pantheon-state*:refs/coordination/remotes/origin/main*";

const refOn = (repo: string, ref: string): string | null => {
  try {
    return git(repo, "rev-parse", "-q", "--verify", ref).trim();
  } catch {
    return null;
  }
};
const fetchSpecs = (c: Clone) => c.git("config", "--get-all", "remote.origin.fetch").split("\n").filter(Boolean);
const firstLine = (s: string) => s.split("\n")[0];
const configOf = (c: Clone, key: string): string | null => {
  try {
    return c.git("config", key).trim();
  } catch {
    return null;
  }
};

describe("pantheon.remoteRef for every remote, pantheon.<remote>.remoteRef for one", () => {
  it("the plain key, from a file an include pulls in, serves a remote without its own; a remote's own key wins", async () => {
    const { root, origin, clones } = await makeOriginAndClones(2, { init: false });
    const [c0, c1] = clones as [Clone, Clone];
    // A team's shared config, included by every clone.
    const shared = join(root, "team.gitconfig");
    writeFileSync(shared, `[pantheon]\n\tremoteRef = ${BRANCH}\n`);
    for (const c of clones) c.git("config", "include.path", shared);
    const init = await c0.ok(["init", "--yes"]);
    expect(init.stdout).toContain(`added to remote.origin.fetch: ${BRANCH_GLOB}`);
    const first = await c0.json<any>(["sync"], "sync");
    expect(first).toMatchObject({ action: "pushed", remoteRef: BRANCH, refspec: BRANCH_GLOB, remoteRefChange: null });
    expect(refOn(origin, BRANCH)).toBe(c0.ref());
    expect(refOn(origin, REF), "never created").toBeNull();
    expect(configOf(c0, KEY), "nothing recorded: the plain key said it").toBeNull();
    const adopted = await c1.ok(["init", "--yes"]);
    expect(adopted.stdout).toMatch(/^✓ Adopted the Pantheon state of ".*" from origin \(refs\/heads\/pantheon-state\)/);
    expect(c1.ref()).toBe(c0.ref());

    // Two more remotes under the same plain key: one without a key of its own takes the branch,
    // one whose own key names refs/coordination/main keeps the default.
    const [plain, own] = [join(root, "plain.git"), join(root, "own.git")];
    for (const dir of [plain, own]) git(root, "init", "-q", "--bare", dir);
    c0.git("remote", "add", "plain", plain);
    c0.git("remote", "add", "own", own);
    c0.git("config", "pantheon.own.remoteRef", REF);
    // An empty remote would make the state's branch its default branch: refused until code is there.
    const empty = await c0.run(["sync", "plain"]);
    expect(empty.exitCode).toBe(3);
    expect(firstLine(empty.stderr)).toBe(
      "✗ plain has no branch yet: most hosts make the first branch pushed to an empty repository its default branch, the one every clone checks out, and refs/heads/pantheon-state would hold the Pantheon state, not code; nothing was published",
    );
    expect(empty.stderr).toContain("hint: push the code first (git push -u plain main), then pantheon sync plain");
    expect(git(plain, "for-each-ref").trim()).toBe("");
    c0.git("push", "-q", "plain", "main");
    expect(await c0.json<any>(["sync", "plain"], "sync")).toMatchObject({ action: "pushed", remoteRef: BRANCH });
    expect(await c0.json<any>(["sync", "own"], "sync")).toMatchObject({ action: "pushed", remoteRef: REF });
    expect([refOn(plain, BRANCH), refOn(plain, REF)]).toEqual([c0.ref(), null]);
    expect([refOn(own, REF), refOn(own, BRANCH)]).toEqual([c0.ref(), null]);
    expect(c0.git("config", "--get-all", "remote.own.fetch")).toContain(
      "+refs/coordination/main*:refs/coordination/remotes/own/main*",
    );
  });

  it("an option-looking value in an included file is refused by name (exit 2), never passed to git; doctor names the key", async () => {
    const { root, clones, originRef } = await makeOriginAndClones(1);
    const c = clones[0]!;
    await c.ok(["task", "create", "--title", "Not yet published", "--role", "engineer"]);
    const marker = join(root, "ran");
    const value = `--upload-pack=touch ${marker}`;
    const shared = join(root, "shared.gitconfig");
    writeFileSync(shared, `[pantheon]\n\tremoteRef = ${value}\n`);
    c.git("config", "include.path", shared);
    const before = [c.ref(), originRef(), refOn(c.dir, TRACKING), fetchSpecs(c)];
    const r = await c.run(["sync"]);
    expect(r.exitCode).toBe(2);
    expect(firstLine(r.stderr)).toBe(
      `✗ git config pantheon.remoteRef is ${JSON.stringify(value)}, which cannot hold the Pantheon state of origin: it starts with '-', as an option of git would; nothing was fetched or pushed`,
    );
    expect(r.stderr).toContain(
      `hint: git config ${KEY} ${BRANCH} (a branch of its own, never checked out), or git config --unset pantheon.remoteRef (git config --show-origin pantheon.remoteRef says which file sets it), or git config ${KEY} ${REF} for origin alone`,
    );
    expect([c.ref(), originRef(), refOn(c.dir, TRACKING), fetchSpecs(c)]).toEqual(before);
    expect(existsSync(marker), "git never ran it").toBe(false);
    const doctor = await c.run(["doctor", "--json"]);
    expect(doctor.exitCode).toBe(1);
    expect(JSON.parse(doctor.stdout).data.findings).toContainEqual(
      expect.objectContaining({ code: "E_REMOTE_REF", severity: "error", subject: "pantheon.remoteRef" }),
    );
    // The remote's own key wins over the plain one, here too: a valid one lets the sync through.
    c.git("config", KEY, REF);
    expect((await c.json<any>(["sync"], "sync")).action).toBe("pushed");
    expect(originRef()).toBe(c.ref());
    expect(existsSync(marker)).toBe(false);
  });
});

describe("an unusable git config pantheon.origin.remoteRef", () => {
  // Every rule is in test/unit/store/remote-ref.test.ts; here, that commands refuse what it refuses.
  const cases: Array<[string, string]> = [
    ["refs/tags/state", "it is a tag: git refuses to move an existing tag without force"],
    ["pantheon-state", "it must be a full ref name (refs/heads/pantheon-state, say)"],
    ["refs/heads/bad..name", "it is not a valid ref name"],
    ["refs/heads/../../config", "it is not a valid ref name"],
    ["-oops", "it starts with '-', as an option of git would"],
  ];
  it("sync refuses each (exit 2, the key and why), nothing fetched, merged or pushed; doctor reports it", async () => {
    const { origin, clones, originRef } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Not yet here", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Not yet there", "--role", "engineer"]);
    const [before, published, tracking, specs] = [c1.ref(), originRef(), refOn(c1.dir, TRACKING), fetchSpecs(c1)];
    for (const [value, why] of cases) {
      c1.git("config", KEY, value);
      const r = await c1.run(["sync"]);
      expect(r.exitCode, value).toBe(2);
      expect(firstLine(r.stderr), value).toContain(
        `✗ git config pantheon.origin.remoteRef is ${JSON.stringify(value)}, which cannot hold the Pantheon state of origin: ${why}`,
      );
      expect(r.stderr).toContain(`git config ${KEY} ${BRANCH}`);
      expect([c1.ref(), originRef(), refOn(c1.dir, TRACKING), fetchSpecs(c1)], value).toEqual([
        before,
        published,
        tracking,
        specs,
      ]);
      const doctor = await c1.run(["doctor", "--json"]);
      expect(doctor.exitCode, value).toBe(1);
      expect(JSON.parse(doctor.stdout).data.findings).toContainEqual(
        expect.objectContaining({ code: "E_REMOTE_REF", severity: "error", subject: KEY }),
      );
    }
    expect(refOn(origin, BRANCH)).toBeNull();
  });

  it("a publishing command lands locally and says why it did not publish, naming the key", async () => {
    const { clones, originRef } = await makeOriginAndClones(1, { autoSync: true });
    const c = clones[0]!;
    await c.ok(["task", "create", "--title", "Claimable", "--role", "engineer"]);
    await c.ok(["sync"]);
    c.git("config", KEY, "refs/tags/state");
    const published = originRef();
    const r = await c.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    expect(r.stderr).toContain(`not published yet (git config ${KEY} is "refs/tags/state"`);
    expect(originRef()).toBe(published);
  });

  it("init in a fresh clone refuses it before adopting or starting a state", async () => {
    const { clones } = await makeOriginAndClones(2, { init: false });
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["init", "--yes"]);
    await c0.ok(["sync"]);
    c1.git("config", KEY, "refs/tags/x");
    const r = await c1.run(["init", "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(firstLine(r.stderr)).toContain(`✗ git config ${KEY} is "refs/tags/x"`);
    expect(c1.ref()).toBeNull();
  });

  it("origin's default branch is refused from config alone; another branch of code once a fetch shows its content", async () => {
    const { origin, clones, originRef } = await makeOriginAndClones(1);
    const c = clones[0]!;
    c.git("remote", "set-head", "origin", "main");
    c.git("config", KEY, "refs/heads/main");
    const before = c.ref();
    const main = await c.run(["sync"]);
    expect(main.exitCode).toBe(2);
    expect(firstLine(main.stderr)).toContain("it is origin's default branch, which holds code");
    expect(refOn(origin, "refs/heads/main")).not.toBe(before);

    c.git("push", "-q", "origin", "main:refs/heads/feature");
    c.git("config", KEY, "refs/heads/feature");
    const feature = await c.run(["sync"]);
    expect(feature.exitCode).toBe(2);
    expect(firstLine(feature.stderr)).toBe(
      `✗ git config ${KEY} names refs/heads/feature, which holds no Pantheon state on origin (its commit has no project.json and counters.json): code, not the state; nothing was merged or pushed`,
    );
    expect(c.ref()).toBe(before);
    expect(originRef()).toBe(before);
    expect(refOn(c.dir, TRACKING), "no read compares with code").toBeNull();
    // A plain git fetch brings it back (the glob follows the ref): doctor says what it holds.
    c.git("fetch", "-q");
    expect(fetchSpecs(c)).toContain("+refs/heads/feature*:refs/coordination/remotes/origin/main*");
    const doctor = JSON.parse((await c.run(["doctor", "--json"])).stdout).data;
    expect(doctor.findings).toContainEqual(
      expect.objectContaining({
        code: "E_REMOTE_REF",
        message: expect.stringContaining("is not a Pantheon state: it holds code"),
      }),
    );
  });
});

describe("the fetch refspec follows the remote's state ref", () => {
  it("a glob of the old ref left in the config is reported and replaced (git would refuse every fetch once the remote has both)", async () => {
    const { origin, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    // The remote keeps its state on the branch too (a team moved), and this clone was set up by
    // hand: the key and the branch's glob, the old glob left beside it.
    git(origin, "update-ref", BRANCH, git(origin, "rev-parse", REF).trim());
    c.git("config", KEY, BRANCH);
    c.git("config", "--add", "remote.origin.fetch", BRANCH_GLOB);
    expect(fetchSpecs(c)).toContain(REF_GLOB);
    expect(() => c.git("fetch", "-q"), "git refuses two refs of the remote into one").toThrow(/Cannot fetch both/);
    const doctor = await c.json<any>(["doctor"], "doctor");
    expect(doctor.findings).toContainEqual(expect.objectContaining({ code: "W_REFSPEC_OTHER", fixable: true }));
    const fixed = await c.json<any>(["doctor", "--fix"], "doctor");
    expect(fixed.fixed).toContain(`replaced the state refspec of origin with the glob of ${BRANCH}`);
    expect(fetchSpecs(c)).toEqual(["+refs/heads/*:refs/remotes/origin/*", BRANCH_GLOB]);
    c.git("fetch", "-q");
    expect((await c.json<any>(["sync"], "sync")).action).toBe("equal");
  });
});
