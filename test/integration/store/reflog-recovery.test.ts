import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { makeOriginAndClones } from "../../helpers/clones.js";
import { git, stateRef } from "../../helpers/repo.js";
import { initProject, type Project } from "../cli/fixture.js";

/** Issue 12 point 8, DESIGN §2.3: every update of the state ref is in its reflog, and a lost ref is recovered from it. */

const REF = "refs/coordination/main";
const ZERO = "0".repeat(40);
const gitLog = (dir: string) => join(dir, ".git", "logs", "refs", "coordination", "main");
const copyLog = (dir: string) => join(dir, ".git", "pantheon", "reflog");

async function withTasks(titles = ["One", "Two", "Three"]): Promise<Project> {
  const p = await initProject();
  for (const t of titles) await p.ok(["task", "create", "--title", t, "--role", "engineer"]);
  return p;
}

const titles = async (p: Project) =>
  (await p.json<Array<{ title: string }>>(["task", "list"], "tasks")).map((t) => t.title);

/** Removes a loose object under both its names (main store and Pantheon's keep dir), as a prune an hour later does. */
function prune(dir: string, oid: string): void {
  for (const store of ["", "pantheon"])
    rmSync(join(dir, ".git", "objects", store, oid.slice(0, 2), oid.slice(2)), { force: true });
}

describe("the reflog of refs/coordination/main", () => {
  it("has one line per update in git's format, and git reflog shows them", async () => {
    const p = await withTasks(["One", "Two"]);
    const lines = readFileSync(gitLog(p.dir), "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    const commits = git(p.dir, "rev-list", "--reverse", REF).trim().split("\n");
    const parsed = lines.map((l) => /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+) <(.+)> (\d+) ([+-]\d{4})\t(.*)$/.exec(l));
    expect(parsed.every(Boolean)).toBe(true);
    expect(parsed.map((m) => [m![1], m![2]])).toEqual([
      [ZERO, commits[0]],
      [commits[0], commits[1]],
      [commits[1], commits[2]],
    ]);
    expect(parsed.map((m) => `${m![3]} <${m![4]}>`)).toEqual(Array(3).fill("Test Director <director@example.com>"));
    expect(git(p.dir, "reflog", "show", "--format=%gs", REF).trim().split("\n")).toEqual([
      "task ENG-M-0002 create by Director",
      "task ENG-M-0001 create by Director",
      `project ${p.dir.split("/").pop()} init by Director`,
    ]);
    // Pantheon's own copy, which git update-ref -d does not delete, has the same lines.
    expect(readFileSync(copyLog(p.dir), "utf8")).toBe(readFileSync(gitLog(p.dir), "utf8"));
  });

  it("keeps control characters of a title out of the reflog line", async () => {
    const p = await initProject();
    await p.ok(["task", "create", "--title", "Evil\u001b[31m title\ttab", "--role", "engineer"]);
    const last = readFileSync(gitLog(p.dir), "utf8").trim().split("\n").at(-1)!;
    expect(last).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
  });

  it("records a sync's adoption and its fast-forward", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [a, b] = clones as [NonNullable<(typeof clones)[0]>, NonNullable<(typeof clones)[1]>];
    const adopted = readFileSync(gitLog(b.dir), "utf8").trim().split("\n");
    expect(adopted).toHaveLength(1);
    expect(adopted[0]).toMatch(new RegExp(`^${ZERO} ${b.ref()} `));
    await a.ok(["task", "create", "--title", "Remote", "--role", "engineer"]);
    await a.ok(["sync"]);
    const before = b.ref();
    await b.ok(["sync"]);
    const last = readFileSync(gitLog(b.dir), "utf8").trim().split("\n").at(-1)!;
    expect(last.startsWith(`${before} ${b.ref()} `)).toBe(true);
  });

  it("records doctor --fix's commit, and an update git itself made between two of Pantheon's", async () => {
    const p = await withTasks(["One"]);
    // A stray entry added with git plumbing (git update-ref -m logs to the same reflog).
    const tip = stateRef(p.dir)!;
    const blob = git(p.dir, "hash-object", "-w", "--stdin").trim();
    const entries = `${git(p.dir, "ls-tree", tip)}100644 blob ${blob}\tstray.txt\n`;
    const withStray = execFileSync("git", ["mktree"], {
      cwd: p.dir,
      input: entries,
      encoding: "utf8",
      env: testEnv(),
    }).trim();
    const commit = git(p.dir, "commit-tree", withStray, "-p", tip, "-m", "a stray file").trim();
    git(p.dir, "update-ref", "-m", "by hand", REF, commit, tip);
    await p.ok(["doctor", "--fix"]);
    const messages = git(p.dir, "reflog", "show", "--format=%gs", REF).trim().split("\n");
    expect(messages.slice(0, 2)).toEqual([
      expect.stringMatching(/^doctor fix of \d+ problem\(s\) by Director$/),
      "by hand",
    ]);
    expect(git(p.dir, "ls-tree", "--name-only", REF)).not.toMatch(/stray/);
  });

  it("is reported missing by doctor, and --fix starts it", async () => {
    const p = await withTasks(["One"]);
    unlinkSync(gitLog(p.dir));
    const r = await p.run(["doctor", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(jsonData(r, "doctor").findings).toEqual([
      expect.objectContaining({ code: "W_NO_REFLOG", severity: "warning", fixable: true }),
    ]);
    const before = stateRef(p.dir);
    const fixed = await p.ok(["doctor", "--fix"]);
    expect(fixed.stdout).toMatch(/started the reflog of refs\/coordination\/main/);
    expect(stateRef(p.dir)).toBe(before);
    expect(git(p.dir, "reflog", "show", "--format=%H", REF).trim()).toBe(before);
    expect(jsonData(await p.run(["doctor", "--json"]), "doctor").findings).toEqual([]);
  });
});

describe("doctor --recover", () => {
  it("after git update-ref -d: doctor says recoverable, --recover lists newest first and exits 1 without a terminal", async () => {
    const p = await withTasks();
    const tip = stateRef(p.dir)!;
    git(p.dir, "update-ref", "-d", REF);
    expect(existsSync(gitLog(p.dir))).toBe(false); // git deleted its reflog with the ref
    const doctor = await p.run(["doctor", "--json"]);
    expect(doctor.exitCode).toBe(1);
    expect(jsonData(doctor, "doctor").findings).toEqual([
      expect.objectContaining({ code: "E_REF_MISSING", severity: "error", fix: "pantheon doctor --recover" }),
    ]);
    const human = await p.run(["doctor", "--recover"]);
    expect(human.exitCode).toBe(1);
    const listed = human.stdout.trim().split("\n");
    expect(listed[0]).toMatch(/^✗ refs\/coordination\/main is missing; states it can be restored to, newest first:$/);
    expect(listed.slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(
      git(p.dir, "rev-list", tip)
        .trim()
        .split("\n")
        .map((c) => c.slice(0, 12)),
    );
    expect(human.stderr).toMatch(
      new RegExp(`^✗ .*choose the state to restore\\n  hint: pantheon doctor --recover ${tip.slice(0, 12)} `),
    );
    expect(stateRef(p.dir)).toBeNull(); // listing changes nothing
    const json = await p.run(["doctor", "--recover", "--json"]);
    expect(json.exitCode).toBe(1);
    const plan = jsonData(json, "recovery");
    expect(plan.ref.state).toBe("missing");
    expect(plan.candidates[0]).toMatchObject({
      commit: tip,
      summary: "task ENG-M-0003 create by Director",
      source: "pantheon-reflog",
    });
    expect(JSON.parse(json.stderr.trim()).error.code).toBe("E_RECOVERY_CHOICE");
  });

  it("--recover <commit> restores that state as a new commit and CAS; everything reads again", async () => {
    const p = await withTasks();
    const tip = stateRef(p.dir)!;
    const older = git(p.dir, "rev-parse", `${tip}~1`).trim();
    git(p.dir, "update-ref", "-d", REF);
    const r = await p.ok(["doctor", "--recover", older.slice(0, 9)]);
    expect(r.stdout).toMatch(
      // No remote: every record it holds is brought back, by id.
      new RegExp(
        `^✓ Restored refs/coordination/main to the state of ${older.slice(0, 12)} as commit [0-9a-f]{12}: it brings back 2 records: ENG-M-0001, ENG-M-0002\\n$`,
      ),
    );
    const restored = stateRef(p.dir)!;
    expect(git(p.dir, "rev-parse", `${restored}^{tree}`).trim()).toBe(
      git(p.dir, "rev-parse", `${older}^{tree}`).trim(),
    );
    expect(git(p.dir, "rev-list", "--parents", "-n1", restored).trim()).toBe(`${restored} ${older}`);
    expect(git(p.dir, "log", "-1", "--format=%s%n%(trailers:key=Pantheon-Op,valueonly)", restored).trim()).toBe(
      `doctor recover of state ${older.slice(0, 12)} by Director\ndoctor.recover`,
    );
    expect(await titles(p)).toEqual(["One", "Two"]);
    expect(git(p.dir, "reflog", "show", "--format=%H %gs", REF).trim()).toBe(
      `${restored} doctor recover of state ${older.slice(0, 12)} by Director`,
    );
    await p.ok(["task", "create", "--title", "After", "--role", "engineer"]);
    expect(await titles(p)).toEqual(["One", "Two", "After"]);
    expect(jsonData(await p.run(["doctor", "--json"]), "doctor").ok).toBe(true);
    git(p.dir, "fsck", "--strict");
  });

  it("restores a ref that points at a missing object or at a blob, comparing with that value", async () => {
    for (const damage of ["missing", "blob"] as const) {
      const p = await withTasks(["One", "Two"]);
      const tip = stateRef(p.dir)!;
      const bad =
        damage === "missing"
          ? "0123456789abcdef0123456789abcdef01234567"
          : git(p.dir, "rev-parse", `${tip}:project.json`).trim();
      writeFileSync(join(p.dir, ".git", "refs", "coordination", "main"), `${bad}\n`);
      const doctor = await p.run(["doctor", "--json"]);
      expect(doctor.exitCode).toBe(1);
      const finding = jsonData(doctor, "doctor").findings[0];
      expect(finding).toMatchObject({ code: "E_REF_DAMAGED", fix: "pantheon doctor --recover" });
      expect(finding.message).toMatch(damage === "missing" ? /Missing git object/ : /points at a blob/);
      const mutation = await p.run(["task", "create", "--title", "Lost", "--role", "engineer"]);
      expect(mutation.exitCode).toBe(1);
      expect(stateRef(p.dir)).toBe(bad);
      await p.ok(["doctor", "--recover", tip]);
      expect(await titles(p)).toEqual(["One", "Two"]);
      expect(git(p.dir, "reflog", "show", "--format=%gs", REF).split("\n")[0]).toMatch(/^doctor recover of state/);
    }
  });

  it("never offers a commit whose objects are gone (pruned), wherever it is named", async () => {
    const p = await withTasks();
    const [newest, middle] = git(p.dir, "rev-list", REF).trim().split("\n") as [string, string];
    // What a prune leaves: the newest commit object is gone (the journal and both reflogs still name it).
    prune(p.dir, newest);
    git(p.dir, "update-ref", "-d", REF);
    const plan = jsonData(await p.run(["doctor", "--recover", "--json"]), "recovery");
    expect(plan.candidates.map((c: { commit: string }) => c.commit)).not.toContain(newest);
    expect(plan.candidates[0].commit).toBe(middle);
    expect(plan.incomplete).toBe(1);
    // A tree's blob gone is as incomplete as the commit gone.
    const blob = git(p.dir, "rev-parse", `${middle}:tasks/02/2.json`).trim();
    prune(p.dir, blob);
    const again = jsonData(await p.run(["doctor", "--recover", "--json"]), "recovery");
    expect(again.candidates.map((c: { commit: string }) => c.commit)).not.toContain(middle);
    const refused = await p.run(["doctor", "--recover", middle]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/is not a complete Pantheon state/);
    expect(stateRef(p.dir)).toBeNull();
  });

  it("says so when the ref is healthy, and refuses to rewind a healthy ref", async () => {
    const p = await withTasks(["One", "Two"]);
    const tip = stateRef(p.dir)!;
    const r = await p.ok(["doctor", "--recover"]);
    expect(r.stdout).toBe(`✓ refs/coordination/main is healthy (at ${tip.slice(0, 12)}): nothing to recover\n`);
    const rewind = await p.run(["doctor", "--recover", `${tip}`.slice(0, 10)]);
    expect(rewind.exitCode).toBe(1);
    expect(rewind.stderr).toMatch(
      /^✗ refs\/coordination\/main is healthy .*--recover only restores a missing or damaged ref\n  hint: /,
    );
    expect(stateRef(p.dir)).toBe(tip);
  });

  it("refuses a commit that is not a Pantheon state, and an unknown one, changing nothing", async () => {
    const p = await withTasks(["One"]);
    git(p.dir, "update-ref", "-d", REF);
    for (const commit of [git(p.dir, "rev-parse", "HEAD").trim(), "deadbeef", "not-a-commit"]) {
      const r = await p.run(["doctor", "--recover", commit]);
      expect(r.exitCode, commit).toBe(1);
      expect(r.stderr).toMatch(
        /is not a complete Pantheon state in this repository\n  hint: pantheon doctor --recover lists/,
      );
      expect(stateRef(p.dir)).toBeNull();
    }
  });

  it("in a repository that never had state, doctor still says pantheon init", async () => {
    const p = await initProject();
    git(p.dir, "update-ref", "-d", REF);
    rmSync(join(p.dir, ".git", "pantheon"), { recursive: true, force: true });
    const r = await p.run(["doctor"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/No Pantheon state in this repository[^\n]*\n {2}hint: pantheon init/);
  });
});
