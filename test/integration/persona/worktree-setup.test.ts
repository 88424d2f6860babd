import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { makeOriginAndClones, REF } from "../../helpers/clones.js";
import { testEnv } from "../../helpers/env.js";
import { fakePrompter, type FakePrompter } from "../../helpers/prompter.js";
import { git } from "../../helpers/repo.js";
import { repo, repoInParent, type Repo } from "./fixture.js";
import { requireBundle, standIns, type StandIns } from "./stand-ins.js";

/**
 * Issue 12 point 1 (DESIGN §1.3): no command Pantheon runs comes from the shared state. The
 * worktree set-up command lives in `.pantheon/worktree-setup` (committed like code) or in this
 * clone's git config `pantheon.worktreeSetup` (which wins), and runs only once the Director
 * confirmed that exact command on a terminal; again after it changes. The real terminal prompt:
 * test/e2e/worktree-setup-terminal.serial.test.ts.
 */

const SETUP = ".pantheon/worktree-setup";

async function summonWorktree(
  dir: string,
  s: StandIns,
  o: { prompter?: FakePrompter; tty?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ r: CliResult; wt: string }> {
  const before = new Set(s.all().map((x) => x.pid));
  const r = await runCli(["summon", "engineer", "--assistant", "claude", "--worktree"], {
    cwd: dir,
    env: s.env(o.env),
    ...(o.tty !== undefined && { tty: o.tty }),
    ...(o.prompter && { prompter: o.prompter }),
  });
  expect(r.exitCode, `summon --worktree\n${r.stdout}\n${r.stderr}`).toBe(0);
  const rec = s.all().find((x) => !before.has(x.pid));
  expect(rec, "the assistant ran").toBeDefined();
  return { r, wt: rec!.cwd };
}

function commitSetup(dir: string, command: string): void {
  mkdirSync(join(dir, ".pantheon"), { recursive: true });
  writeFileSync(join(dir, SETUP), command);
  git(dir, "add", SETUP);
  git(dir, "commit", "-q", "-m", "worktree set-up");
}

async function project(): Promise<Repo> {
  const { dir } = repoInParent();
  const p = repo(dir);
  await p.ok(["init", "--yes"]);
  return p;
}

/** Rewrites project.json on the origin's state ref with plumbing only, as a collaborator with push access could. */
function craftProject(origin: string, edit: (project: any) => void): void {
  const gitO = (args: string[], input = "") =>
    execFileSync("git", [`--git-dir=${origin}`, ...args], {
      env: testEnv({ GIT_AUTHOR_NAME: "Mallory", GIT_COMMITTER_NAME: "Mallory" }),
      encoding: "utf8",
      input,
    }).trim();
  const parent = gitO(["rev-parse", REF]);
  const project = JSON.parse(gitO(["cat-file", "-p", `${REF}:project.json`]));
  edit(project);
  const blob = gitO(["hash-object", "-w", "--stdin"], JSON.stringify(project));
  const entries = gitO(["ls-tree", parent])
    .split("\n")
    .map((l) => (l.endsWith("\tproject.json") ? `100644 blob ${blob}\tproject.json` : l));
  const tree = gitO(["mktree"], `${entries.join("\n")}\n`);
  const commit = gitO(["commit-tree", tree, "-p", parent, "-m", "project tweak"]);
  gitO(["update-ref", REF, commit, parent]);
}

describe("worktree set-up", () => {
  beforeAll(requireBundle);

  it("a crafted remote cannot make a clone run anything: a set-up command and escaping copy paths in project.json are ignored after sync + summon --worktree", async () => {
    const { root, origin, clones } = await makeOriginAndClones(2);
    const marker = join(root, "PWNED");
    craftProject(origin, (p) => {
      p.worktree = {
        ...p.worktree,
        setup: `touch '${marker}'`,
        copy: ["../outside.txt", "/etc/hostname", ".git/config", "ok/../../up.txt"],
      };
    });
    const b = clones[1]!;
    await b.ok(["sync"]);
    expect(
      JSON.parse(b.git("cat-file", "-p", `${REF}:project.json`)).worktree.setup,
      "the crafted field arrived",
    ).toContain("touch");
    writeFileSync(join(root, "outside.txt"), "outside\n");
    const s = standIns();
    const rootBefore = readdirSync(root).sort();
    // A Director at a terminal who would say yes to anything: nothing may even be asked.
    const prompter = fakePrompter([], { interactive: true });
    const { r, wt } = await summonWorktree(b.dir, s, { prompter, tty: true });
    expect(existsSync(marker), "the crafted command did not run").toBe(false);
    expect(prompter.asked).toEqual([]);
    for (const bad of ["../outside.txt", "/etc/hostname", ".git/config", "ok/../../up.txt"])
      expect(r.stderr).toContain(`worktree.copy entry "${bad}" skipped`);
    expect(readdirSync(root).sort(), "nothing written beside the clones but the worktree").toEqual(
      [...rootBefore, basename(wt)].sort(),
    );
    expect(
      readdirSync(wt).filter((f) => !f.startsWith(".")),
      "nothing copied into the worktree from outside the repository",
    ).toEqual([]);
    expect(statSync(join(wt, ".git")).isFile(), "the worktree's .git file is intact").toBe(true);
  });

  it("a committed .pantheon/worktree-setup runs once the Director confirms it on a terminal; the same command is not asked again", async () => {
    const p = await project();
    commitSetup(p.dir, "echo ran >> .setup-log\n");
    const s = standIns();
    const first = fakePrompter([true]);
    const { wt } = await summonWorktree(p.dir, s, { prompter: first, tty: true });
    expect(first.asked).toHaveLength(1);
    expect(first.asked[0]!.message).toBe(`Run this set-up command in the new worktree ${wt}?`);
    expect(first.asked[0]!.detail).toEqual([
      "A worktree set-up command (from .pantheon/worktree-setup) will run with sh -c:",
      "    echo ran >> .setup-log",
    ]);
    expect(readFileSync(join(wt, ".setup-log"), "utf8")).toBe("ran\n");
    expect(existsSync(join(p.dir, ".setup-log")), "it ran in the worktree").toBe(false);

    const again = fakePrompter([]);
    const { wt: wt2 } = await summonWorktree(p.dir, s, { prompter: again, tty: true });
    expect(again.asked, "confirmed already: not asked").toEqual([]);
    expect(readFileSync(join(wt2, ".setup-log"), "utf8")).toBe("ran\n");
    // Without a terminal too: the hash matches the one confirmed in this clone.
    const { wt: wt3 } = await summonWorktree(p.dir, s);
    expect(readFileSync(join(wt3, ".setup-log"), "utf8")).toBe("ran\n");
  });

  it("with core.sharedRepository=group, the confirmed command's record is the group's (another member summons too)", async () => {
    const p = await project();
    git(p.dir, "config", "core.sharedRepository", "group");
    commitSetup(p.dir, "echo ran >> .setup-log\n");
    await summonWorktree(p.dir, standIns(), { prompter: fakePrompter([true]), tty: true });
    const record = join(p.dir, ".git", "pantheon", "worktree-setup-confirmed");
    expect((statSync(record).mode & 0o777).toString(8), "group-writable, as git makes its files").toBe("664");
  });

  it("a changed command is asked again; declined, it does not run (and is asked next time)", async () => {
    const p = await project();
    const s = standIns();
    commitSetup(p.dir, "echo one > .setup-log");
    await summonWorktree(p.dir, s, { prompter: fakePrompter([true]), tty: true });
    commitSetup(p.dir, "echo two > .setup-log");
    const declined = fakePrompter([false]);
    const { r, wt } = await summonWorktree(p.dir, s, { prompter: declined, tty: true });
    expect(declined.asked[0]!.detail![0]).toBe(
      "The worktree set-up command changed (from .pantheon/worktree-setup) will run with sh -c:",
    );
    expect(declined.asked[0]!.detail![1]).toBe("    echo two > .setup-log");
    expect(existsSync(join(wt, ".setup-log"))).toBe(false);
    expect(r.stderr).toContain("worktree set-up not run (declined)");
    const yes = fakePrompter([true]);
    const { wt: wt2 } = await summonWorktree(p.dir, s, { prompter: yes, tty: true });
    expect(yes.asked).toHaveLength(1);
    expect(readFileSync(join(wt2, ".setup-log"), "utf8")).toBe("two\n");
  });

  it("without a terminal, or inside an assistant, an unconfirmed command is skipped with a warning", async () => {
    const p = await project();
    const s = standIns();
    commitSetup(p.dir, "echo ran > .setup-log");
    const { r, wt } = await summonWorktree(p.dir, s);
    expect(existsSync(join(wt, ".setup-log"))).toBe(false);
    expect(r.stderr).toMatch(
      /worktree set-up not run: the command from \.pantheon\/worktree-setup has not been confirmed in this clone; run "pantheon summon --worktree" once from a terminal/,
    );
    // A terminal, but an assistant's shell: the terminal prompter asks nobody there.
    const { r: r2, wt: wt2 } = await summonWorktree(p.dir, s, { tty: true, env: { CLAUDECODE: "1" } });
    expect(existsSync(join(wt2, ".setup-log"))).toBe(false);
    expect(r2.stderr).toContain("has not been confirmed in this clone");
  });

  it("a .pantheon/worktree-setup that is a symbolic link (to any file on this machine) is not read, not asked, not run", async () => {
    const p = await project();
    const s = standIns();
    const target = join(p.dir, "..", "elsewhere.sh");
    writeFileSync(target, "echo ran > .setup-log\n");
    mkdirSync(join(p.dir, ".pantheon"), { recursive: true });
    symlinkSync(target, join(p.dir, SETUP));
    git(p.dir, "add", SETUP);
    git(p.dir, "commit", "-q", "-m", "set-up as a link");
    const none = fakePrompter([]);
    const { r, wt } = await summonWorktree(p.dir, s, { prompter: none, tty: true });
    expect(none.asked).toEqual([]);
    expect(existsSync(join(wt, ".setup-log"))).toBe(false);
    expect(r.stderr).toContain(".pantheon/worktree-setup is not a regular file");
  });

  it("git config pantheon.worktreeSetup wins over the file (confirmed the same way); an empty value turns set-up off in this clone", async () => {
    const p = await project();
    const s = standIns();
    commitSetup(p.dir, "echo file > .setup-log");
    git(p.dir, "config", "pantheon.worktreeSetup", "echo config > .setup-log");
    const asked = fakePrompter([true]);
    const { wt } = await summonWorktree(p.dir, s, { prompter: asked, tty: true });
    expect(asked.asked[0]!.detail).toEqual([
      "A worktree set-up command (from git config pantheon.worktreeSetup) will run with sh -c:",
      "    echo config > .setup-log",
    ]);
    expect(readFileSync(join(wt, ".setup-log"), "utf8")).toBe("config\n");
    git(p.dir, "config", "pantheon.worktreeSetup", "");
    const none = fakePrompter([]);
    const { wt: wt2 } = await summonWorktree(p.dir, s, { prompter: none, tty: true });
    expect(existsSync(join(wt2, ".setup-log"))).toBe(false);
    expect(none.asked).toEqual([]);
  });
});
