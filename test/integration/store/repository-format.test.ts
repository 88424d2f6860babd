import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData, runCli } from "../../helpers/cli.js";
import { git, makeRepo, stateRef, tempDir } from "../../helpers/repo.js";

/** Issue 12 point 2, DESIGN §2.2: a repository format Pantheon does not implement is refused before anything is written. */

/** Every path under `dir` with its size and mtime: what "nothing was written" is checked against. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    for (const name of readdirSync(p)) {
      const full = join(p, name);
      const st = statSync(full);
      out.push(`${relative(dir, full)} ${st.isDirectory() ? "dir" : `${st.size} ${st.mtimeMs}`}`);
      if (st.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out.sort();
}

function sha256Repo(): string {
  const dir = tempDir();
  git(dir, "init", "-q", "--object-format=sha256", "-b", "main");
  git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
  // A SHA-256 origin, so that sync gets as far as its fetch.
  const origin = join(tempDir(), "origin.git");
  git(dir, "init", "-q", "--bare", "--object-format=sha256", origin);
  git(dir, "remote", "add", "origin", origin);
  return dir;
}

/** git 2.39 cannot create a reftable repository: the format is declared by hand, as a newer git writes it. */
function reftableRepo(): string {
  const dir = makeRepo();
  git(dir, "config", "core.repositoryformatversion", "1");
  git(dir, "config", "extensions.refStorage", "reftable");
  return dir;
}

async function expectRefused(dir: string, argv: string[], key: RegExp, hintSays = /^ {2}hint: pantheon doctor/) {
  const before = listing(dir);
  const r = await runCli(argv, { cwd: dir });
  expect(r.exitCode, `${argv.join(" ")}: ${r.stderr}`).toBe(1);
  expect(r.stdout).toBe("");
  const [first, hint] = r.stderr.split("\n");
  expect(first).toMatch(/^✗ This repository sets /);
  expect(first).toMatch(key);
  expect(first).toMatch(/nothing was written/);
  expect(hint).toMatch(hintSays);
  expect(listing(dir), "nothing in the work tree or the git dir changed").toEqual(before);
  return r;
}

describe("a SHA-256 repository", () => {
  it("refuses init, task create, sync and reads before anything is written; git fsck stays clean", async () => {
    const dir = sha256Repo();
    for (const argv of [
      ["init", "--yes"],
      ["task", "create", "--title", "T", "--role", "engineer"],
      ["sync"],
      ["task", "list"],
      ["mission", "start", "--role", "engineer"],
    ]) {
      await expectRefused(dir, argv, /extensions\.objectFormat = sha256/);
    }
    expect(stateRef(dir)).toBeNull();
    git(dir, "fsck", "--strict"); // throws on any complaint
    git(dir, "log", "--all", "--oneline");
    git(dir, "gc", "-q");
  });

  it("is named by doctor, with the key, as an error nothing can fix", async () => {
    const dir = sha256Repo();
    const r = await runCli(["doctor", "--json"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    const findings = jsonData(r, "doctor").findings as Array<{ code: string; subject: string; fixable: boolean }>;
    expect(findings).toEqual([
      expect.objectContaining({ code: "E_UNSUPPORTED_REPOSITORY", subject: "extensions.objectFormat", fixable: false }),
    ]);
    const human = await runCli(["doctor"], { cwd: dir });
    expect(human.stdout).toMatch(/✗ this repository sets extensions\.objectFormat = sha256/);
  });

  it("reports the error with its code under --json", async () => {
    const dir = sha256Repo();
    const r = await runCli(["init", "--yes", "--json"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr.trim()).error).toMatchObject({ code: "E_UNSUPPORTED_REPOSITORY" });
  });
});

describe("a reftable repository (declared by hand)", () => {
  it("refuses init and task create, writing nothing", async () => {
    const dir = reftableRepo();
    await expectRefused(dir, ["init", "--yes"], /extensions\.refStorage = reftable/);
    await expectRefused(
      dir,
      ["task", "create", "--title", "T", "--role", "engineer"],
      /extensions\.refStorage = reftable/,
    );
  });

  it("refuses a repository that was initialised before the extension was set, leaving its ref alone", async () => {
    const dir = makeRepo();
    expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
    const ref = stateRef(dir);
    git(dir, "config", "core.repositoryformatversion", "1");
    git(dir, "config", "extensions.refStorage", "reftable");
    await expectRefused(dir, ["task", "create", "--title", "T", "--role", "engineer"], /extensions\.refStorage/);
    // git 2.39 itself refuses a version-1 repository with an extension it does not know: edit the file.
    git(dir, "config", "-f", join(dir, ".git", "config"), "--unset", "extensions.refStorage");
    expect(stateRef(dir)).toBe(ref);
  });
});

describe("other extensions", () => {
  it("refuses an extension git 2.39 does not know, in a version-1 repository", async () => {
    const dir = makeRepo();
    git(dir, "config", "core.repositoryformatversion", "1");
    git(dir, "config", "extensions.frobnicate", "true");
    await expectRefused(dir, ["init", "--yes"], /extensions\.frobnicate = true/);
  });

  it("works beside the harmless ones: worktreeConfig, preciousObjects, partialClone, noop", async () => {
    const dir = makeRepo();
    git(dir, "config", "core.repositoryformatversion", "1");
    for (const [k, v] of [
      ["worktreeConfig", "true"],
      ["preciousObjects", "true"],
      ["partialClone", "origin"],
      ["noop", "true"],
    ])
      git(dir, "config", `extensions.${k}`, v!);
    expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
    expect((await runCli(["task", "create", "--title", "T", "--role", "engineer"], { cwd: dir })).exitCode).toBe(0);
    expect((await runCli(["doctor"], { cwd: dir })).exitCode).toBe(0);
    expect(readFileSync(join(dir, ".git", "config"), "utf8")).toMatch(/preciousobjects = true/i);
  });

  it("refuses a core.sharedRepository value git itself refuses, before writing", async () => {
    const dir = makeRepo();
    git(dir, "config", "core.sharedRepository", "0440");
    await expectRefused(
      dir,
      ["init", "--yes"],
      /core\.sharedRepository = 0440/,
      /^ {2}hint: git config core\.sharedRepository group/,
    );
    const doctor = await runCli(["doctor", "--json"], { cwd: dir });
    expect(doctor.exitCode).toBe(1);
  });
});
