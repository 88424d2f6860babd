import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonData, runBin } from "../../helpers/cli.js";
import { git, makeRepo } from "../../helpers/repo.js";
import { gitEnv, repo } from "./fixture.js";
import { requireBundle } from "./stand-ins.js";

/**
 * Issue 4, item 6 (provenance): `init --hooks` installs the commit-msg hook (and only with
 * --hooks), chaining a user's own hook; a commit made with PANTHEON_MISSION set carries
 * `Pantheon-Mission:` and `Pantheon-Task:` trailers and is listed by `mission show`.
 *
 * `init --hooks` runs as a real process (the built bundle): the hook it installs calls back the
 * very pantheon that installed it, which in-process would be the test runner.
 */

/** The commit message exactly as stored. */
function message(dir: string, rev = "HEAD"): string {
  const raw = git(dir, "cat-file", "commit", rev);
  return raw.slice(raw.indexOf("\n\n") + 2);
}

describe("init --hooks", () => {
  beforeAll(requireBundle);

  it("is never installed without --hooks; with it, a commit on a mission gets the trailers and mission show lists it", async () => {
    const dir = makeRepo();
    const p = repo(dir);
    await p.ok(["init", "--yes"]);
    expect(existsSync(join(dir, ".git", "hooks", "commit-msg")), "plain init installs no hook").toBe(false);

    // (--yes: without a terminal, init asks for answers even when the project exists)
    const r = runBin(["init", "--yes", "--hooks"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const hook = join(dir, ".git", "hooks", "commit-msg");
    expect(existsSync(hook)).toBe(true);
    expect(readFileSync(hook, "utf8").startsWith("#!")).toBe(true);

    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
    const t = await p.json(["task", "create", "--title", "Login", "--role", "engineer"], "task");
    await p.ok(["--mission", m.handle, "task", "claim", t.id]);

    // without PANTHEON_MISSION the message is untouched
    const plain = gitEnv(dir, {}, "commit", "-q", "--allow-empty", "-m", "plain commit");
    expect(plain.status, plain.stderr).toBe(0);
    expect(message(dir)).toBe("plain commit\n");

    const c = gitEnv(
      dir,
      { PANTHEON_MISSION: m.handle },
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "Add login form",
      "-m",
      "With validation.",
    );
    expect(c.status, c.stderr).toBe(0);
    const msg = message(dir);
    expect(msg.startsWith("Add login form\n\nWith validation.\n")).toBe(true);
    const trailers = git(dir, "log", "-1", "--format=%(trailers:only,unfold)").trim().split("\n");
    expect(trailers).toEqual([`Pantheon-Mission: ${m.handle}`, `Pantheon-Task: ${t.id}`]);
    const oid = git(dir, "rev-parse", "HEAD").trim();

    const shown = await p.json(["mission", "show", m.id], "mission");
    expect(shown.commits.map((x: { oid: string }) => x.oid)).toEqual([oid]);
    expect(shown.commits[0].summary).toBe("Add login form");
    // the human view lists it too
    expect((await p.ok(["mission", "show", m.id])).stdout).toContain(oid.slice(0, 9));

    // a message that already carries the trailers does not get them twice
    const again = gitEnv(dir, { PANTHEON_MISSION: m.handle }, "commit", "-q", "--amend", "--no-edit", "--allow-empty");
    expect(again.status, again.stderr).toBe(0);
    expect(message(dir).match(/Pantheon-Mission:/g)).toHaveLength(1);
  });

  it("chains an existing user hook: it still runs, and its failure still blocks the commit", async () => {
    const dir = makeRepo();
    const hook = join(dir, ".git", "hooks", "commit-msg");
    const ran = join(dir, ".git", "user-hook-ran");
    writeFileSync(
      hook,
      `#!/bin/sh\necho ran >> '${ran}'\nif grep -q FORBIDDEN "$1"; then echo "user hook: forbidden word" >&2; exit 1; fi\nexit 0\n`,
    );
    chmodSync(hook, 0o755);

    const r = runBin(["init", "--yes", "--hooks", "--json"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonData(r, "init").hook).toBe("chained");
    expect(readFileSync(hook, "utf8")).not.toContain("user hook: forbidden word");

    const p = repo(dir);
    const m = await p.json(["mission", "start", "--role", "tester", "--persona", "Artemis"], "mission");

    const good = gitEnv(dir, { PANTHEON_MISSION: m.handle }, "commit", "-q", "--allow-empty", "-m", "fine");
    expect(good.status, good.stderr).toBe(0);
    expect(readFileSync(ran, "utf8")).toBe("ran\n");
    expect(message(dir)).toBe(`fine\n\nPantheon-Mission: ${m.handle}\n`);

    const head = git(dir, "rev-parse", "HEAD").trim();
    const bad = gitEnv(dir, { PANTHEON_MISSION: m.handle }, "commit", "-q", "--allow-empty", "-m", "FORBIDDEN change");
    expect(bad.status, "the user's hook still blocks the commit").not.toBe(0);
    expect(bad.stderr).toContain("user hook: forbidden word");
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
    expect(readFileSync(ran, "utf8")).toBe("ran\nran\n");

    // without a mission the user's hook still runs, and the message is untouched
    const plain = gitEnv(dir, {}, "commit", "-q", "--allow-empty", "-m", "no mission");
    expect(plain.status, plain.stderr).toBe(0);
    expect(message(dir)).toBe("no mission\n");
    expect(readFileSync(ran, "utf8")).toBe("ran\nran\nran\n");

    // re-running init --hooks keeps the chain (the user's hook is not chained to itself or lost)
    const again = runBin(["init", "--yes", "--hooks", "--json"], { cwd: dir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(jsonData(again, "init").hook).toBe("updated");
    const blocked = gitEnv(dir, {}, "commit", "-q", "--allow-empty", "-m", "FORBIDDEN again");
    expect(blocked.status).not.toBe(0);
  });

  it("a commit with a PANTHEON_MISSION that names no mission is not blocked", async () => {
    const dir = makeRepo();
    const r = runBin(["init", "--yes", "--hooks"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const c = gitEnv(
      dir,
      { PANTHEON_MISSION: "MSN-0042:no-such" },
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "still commits",
    );
    expect(c.status, c.stderr).toBe(0);
    expect(message(dir)).toBe("still commits\n");
  });
});
