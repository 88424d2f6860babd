/**
 * Which remote `sync` talks to, and how it fails (DESIGN §3.1, §4.3; issue 5 item 1): an unknown
 * remote name or no remote at all is a usage error (exit 2) with a hint; a transport failure is
 * exit 3 with git's own reason in one line; a failed sync leaves the state ref and the working
 * tree as they were and adds no fetch refspec.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneAt, makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { git, makeRepo } from "../../helpers/repo.js";

/** The refusal contract of DESIGN §4.2: `✗ message`, then a hint line, nothing on stdout. */
function expectRefusal(r: { exitCode: number; stdout: string; stderr: string }, exitCode: number): string[] {
  expect(r.exitCode, r.stderr).toBe(exitCode);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^✗ \S/);
  expect(lines[1] ?? "").toMatch(/^ {2}hint: \S/);
  expect(lines, "the message is one line plus its hint").toHaveLength(2);
  return lines;
}

const fetchSpecs = (c: Clone, remote: string) => {
  try {
    return c.git("config", "--get-all", `remote.${remote}.fetch`).split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

describe("choosing the remote", () => {
  it("an unknown remote name is a usage error (exit 2) naming it; nothing changes", async () => {
    const { clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    const before = c.ref();
    const [line, hint] = expectRefusal(await c.run(["sync", "upstream"]), 2);
    expect(line).toContain('"upstream"');
    expect(line).toContain("origin");
    expect(hint).toContain("git remote");
    expect(c.ref()).toBe(before);
    c.expectUntouched();
  });

  it("no remotes at all: exit 2 with the hint git remote add", async () => {
    const dir = makeRepo();
    const c = cloneAt(dir, 0);
    await c.ok(["init", "--yes"]);
    c.markBaseline();
    const before = c.ref();
    const [, hint] = expectRefusal(await c.run(["sync"]), 2);
    expect(hint).toContain("git remote add");
    expect(c.ref()).toBe(before);
    const json = await c.run(["sync", "--json"]);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: "E_USAGE" });
    c.expectUntouched();
  });

  it("the branch's upstream remote is the default; --all syncs every remote", async () => {
    const { root, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    const backup = join(root, "backup.git");
    git(root, "init", "-q", "--bare", "-b", "main", backup);
    c.git("remote", "add", "backup", backup);
    await c.ok(["task", "create", "--title", "Kept in two places", "--role", "engineer"]);
    // main tracks origin: plain `sync` goes there, not to backup
    expect(await c.json<any>(["sync"], "sync")).toMatchObject({ remote: "origin", action: "pushed" });
    expect(() => git(backup, "rev-parse", "--verify", "-q", "refs/coordination/main")).toThrow();
    const all = await c.json<any[]>(["sync", "--all"], "syncs");
    expect(all.map((r) => [r.remote, r.action])).toEqual([
      ["backup", "pushed"],
      ["origin", "equal"],
    ]);
    expect(git(backup, "rev-parse", "refs/coordination/main").trim()).toBe(c.ref());
    expect(fetchSpecs(c, "backup")).toContain("+refs/coordination/main*:refs/coordination/remotes/backup/main*");
    c.expectUntouched();
  });
});

describe("transport failures", () => {
  it("a remote URL that does not exist: exit 3, one line with git's reason, state and config untouched", async () => {
    const { root, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    const missing = join(root, "no-such-repo.git");
    c.git("remote", "add", "gone", missing);
    await c.ok(["task", "create", "--title", "Not lost", "--role", "engineer"]);
    const before = c.ref();
    const [line] = expectRefusal(await c.run(["sync", "gone"]), 3);
    expect(line).toContain("gone");
    expect(line, "no raw git noise (fatal:/hint:) inside the message").not.toMatch(/fatal:|Please make sure/);
    expect(c.ref(), "the local state stays valid and unchanged").toBe(before);
    expect(fetchSpecs(c, "gone"), "a failed sync adds no refspec").not.toContain(
      "+refs/coordination/main*:refs/coordination/remotes/gone/main*",
    );
    const json = await c.run(["sync", "gone", "--json"]);
    expect(json.exitCode).toBe(3);
    expect(json.stdout).toBe("");
    expect(JSON.parse(json.stderr).error.message).toContain("gone");
    // the good remote still works afterwards
    expect((await c.json<any>(["sync", "origin"], "sync")).action).toBe("pushed");
    c.expectUntouched();
  });

  it("the one line carries git's specific reason (the path is not a git repository), not only its generic last line", async () => {
    const { root, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    c.git("remote", "add", "gone", join(root, "no-such-repo.git"));
    const r = await c.run(["sync", "gone"]);
    expect(r.exitCode).toBe(3);
    // git says: fatal: '<path>' does not appear to be a git repository / fatal: Could not read from remote repository.
    expect(r.stderr.split("\n")[0]).toMatch(/does not appear to be a git repository|no-such-repo\.git/);
  });
});

describe("the sync lock (one sync at a time per clone)", () => {
  it("a held lock makes sync wait, then fail (exit 3) naming it, with the state untouched; a stale one is taken over", async () => {
    const { clones, originRef } = await makeOriginAndClones(1);
    const c = clones[0]!;
    await c.ok(["task", "create", "--title", "Waits its turn", "--role", "engineer"]);
    const { mkdirSync, writeFileSync, utimesSync, existsSync } = await import("node:fs");
    const lock = join(c.dir, ".git", "pantheon", "sync.lock");
    mkdirSync(join(c.dir, ".git", "pantheon"), { recursive: true });
    writeFileSync(lock, "12345\n");
    const before = c.ref();
    const published = originRef();
    const [line, hint] = expectRefusal(await c.run(["sync"], { env: { PANTHEON_SYNC_WAIT_MS: "300" } }), 3);
    expect(line).toContain("Another pantheon sync is running in this clone");
    expect(line).toContain(lock);
    expect(hint).toContain(`remove ${lock}`);
    expect(c.ref()).toBe(before);
    expect(originRef()).toBe(published);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    expect((await c.json<any>(["sync"], "sync")).action).toBe("pushed");
    expect(existsSync(lock)).toBe(false);
  });
});

describe("sync --all", () => {
  it("a bad remote does not stop the others: each is reported, exit 3 at the end, the good ones synced", async () => {
    const { root, clones } = await makeOriginAndClones(1);
    const c = clones[0]!;
    const backup = join(root, "backup.git");
    git(root, "init", "-q", "--bare", "-b", "main", backup);
    c.git("remote", "add", "a-gone", join(root, "no-such-repo.git")); // sorted first: tried before the good ones
    c.git("remote", "add", "backup", backup);
    await c.ok(["task", "create", "--title", "Kept in two places", "--role", "engineer"]);
    const r = await c.run(["sync", "--all"]);
    expect(r.exitCode).toBe(3);
    const out = r.stdout.split("\n");
    expect(out[0]).toMatch(/^✗ a-gone: Cannot fetch from a-gone/);
    expect(r.stdout).toMatch(/^✓ Synced with backup: pushed/m);
    expect(r.stdout).toMatch(/^✓ Synced with origin: pushed/m);
    expect(r.stderr).toMatch(
      /^✗ Could not sync with 1 of 3 remotes: a-gone \(the others synced\)\n {2}hint: pantheon sync a-gone shows why\n$/,
    );
    expect(git(backup, "rev-parse", "refs/coordination/main").trim()).toBe(c.ref());
    const json = await c.run(["sync", "--all", "--json"]);
    expect(json.exitCode).toBe(3);
    const doc = JSON.parse(json.stdout);
    expect(doc.kind).toBe("syncs");
    expect(doc.data.map((x: any) => [x.remote, x.action])).toEqual([
      ["a-gone", "failed"],
      ["backup", "equal"],
      ["origin", "equal"],
    ]);
    expect(doc.data[0].error).toMatchObject({ code: "E_SYNC" });
    expect(JSON.parse(json.stderr).error.code).toBe("E_SYNC");
  });
});

describe("the server's rejection reason", () => {
  it("a pre-receive hook's message and git's [remote rejected] reason are in the error, escaped; nothing changes", async () => {
    const { origin, clones, originRef } = await makeOriginAndClones(1);
    const c = clones[0]!;
    const { chmodSync, writeFileSync } = await import("node:fs");
    const hook = join(origin, "hooks", "pre-receive");
    writeFileSync(
      hook,
      '#!/bin/sh\necho "Policy: the state needs a ticket \\033[31mnow"\necho "see the wiki" >&2\nexit 1\n',
    );
    chmodSync(hook, 0o755);
    await c.ok(["task", "create", "--title", "Refused upstream", "--role", "engineer"]);
    const before = c.ref();
    const published = originRef();
    const [line, hint] = expectRefusal(await c.run(["sync"]), 3);
    expect(line).toBe(
      "✗ Cannot push to origin: the server refused it (pre-receive hook declined): Policy: the state needs a ticket \\e[31mnow / see the wiki",
    );
    expect(hint).toContain("git push --dry-run origin");
    expect(c.ref()).toBe(before);
    expect(originRef()).toBe(published);
    const json = await c.run(["sync", "--json"]);
    expect(JSON.parse(json.stderr).error.message).toContain("Policy: the state needs a ticket \u001b[31mnow");
  });
});
