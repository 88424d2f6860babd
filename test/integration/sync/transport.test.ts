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
    expect(fetchSpecs(c, "gone"), "a failed sync adds no refspec").not.toContain("+refs/coordination/main*:refs/coordination/remotes/gone/main*");
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
