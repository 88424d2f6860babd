import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RepositoryError } from "../../../src/errors.js";
import { loadGitConfig, parseGitConfig, resolveIdentity } from "../../../src/store/repo/git-config.js";
import { discoverRepo } from "../../../src/store/repo/repo.js";
import { git, makeRepo, tempDir } from "./plumbing-fixture.js";

const NO_ENV: NodeJS.ProcessEnv = {};

describe("discoverRepo", () => {
  it("finds the repository from a nested subdirectory", () => {
    const { dir, gitDir } = makeRepo();
    mkdirSync(join(dir, "a/b/c"), { recursive: true });
    expect(discoverRepo(join(dir, "a/b/c"), NO_ENV)).toEqual({ workTree: dir, gitDir, commonDir: gitDir });
    expect(discoverRepo(dir, NO_ENV)).toEqual({ workTree: dir, gitDir, commonDir: gitDir });
  });

  it("resolves a linked worktree's .git file and commondir as git does", () => {
    const { dir, gitDir } = makeRepo();
    git(dir, ["commit", "-q", "--allow-empty", "-m", "root"]);
    const wt = join(dir, "..", "wt");
    git(dir, ["worktree", "add", "-q", wt, "-b", "feature"]);
    mkdirSync(join(wt, "sub"));
    const paths = discoverRepo(join(wt, "sub"), NO_ENV);
    expect(paths).toEqual({ workTree: wt, gitDir: join(gitDir, "worktrees", "wt"), commonDir: gitDir });
    const [gd, cd, top] = git(join(wt, "sub"), [
      "rev-parse",
      "--path-format=absolute",
      "--git-dir",
      "--git-common-dir",
      "--show-toplevel",
    ])
      .trim()
      .split("\n");
    expect(paths).toEqual({ workTree: top, gitDir: gd, commonDir: cd });
  });

  it("follows a relative gitdir: file (submodule layout) and rejects a dangling one", () => {
    const { dir, gitDir } = makeRepo();
    const other = join(dir, "..", "other");
    mkdirSync(other);
    writeFileSync(join(other, ".git"), "gitdir: ../repo/.git\n");
    expect(discoverRepo(other, NO_ENV)).toEqual({ workTree: other, gitDir, commonDir: gitDir });
    writeFileSync(join(other, ".git"), "gitdir: ../nowhere/.git\n");
    expect(() => discoverRepo(other, NO_ENV)).toThrow(expect.objectContaining({ code: "E_NOT_A_REPO" }));
  });

  it("recognises a bare repository from inside it, and a non-bare one from inside its .git", () => {
    const bare = makeRepo({ bare: true });
    const expected = { workTree: null, gitDir: bare.gitDir, commonDir: bare.gitDir };
    expect(discoverRepo(bare.dir, NO_ENV)).toEqual(expected);
    expect(discoverRepo(join(bare.dir, "refs", "heads"), NO_ENV)).toEqual(expected);
    const { dir, gitDir } = makeRepo();
    expect(discoverRepo(join(gitDir, "objects"), NO_ENV)).toEqual({ workTree: dir, gitDir, commonDir: gitDir });
  });

  it("honours GIT_DIR", () => {
    const { dir, gitDir } = makeRepo();
    const elsewhere = tempDir();
    expect(discoverRepo(elsewhere, { GIT_DIR: gitDir })).toEqual({ workTree: elsewhere, gitDir, commonDir: gitDir });
    expect(discoverRepo(elsewhere, { GIT_DIR: gitDir, GIT_WORK_TREE: dir })).toEqual({
      workTree: dir,
      gitDir,
      commonDir: gitDir,
    });
  });

  it("fails outside any repository and on a missing path with E_NOT_A_REPO", () => {
    const outside = tempDir();
    let err: unknown;
    try {
      discoverRepo(outside, NO_ENV);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RepositoryError);
    expect(err).toMatchObject({ code: "E_NOT_A_REPO", message: `Not a git repository: ${outside}`, hint: "git init" });
    const missing = join(outside, "no", "such");
    expect(() => discoverRepo(missing, NO_ENV)).toThrow(`Cannot use -C ${missing}: no such directory`);
  });
});

describe("git config", () => {
  const TRICKY = [
    "# comment",
    "[core]",
    "\tbare = false ; trailing comment",
    '\tEditor = "vim  -u  NONE"  # kept inner spaces',
    '[Remote "Origin"]',
    "\turl = git@example.com:x.git",
    "\tfetch = +refs/heads/*:refs/remotes/Origin/*",
    "\tfetch = +refs/coordination/main:refs/coordination/remotes/Origin",
    "[Pantheon.Old]",
    "\tflag",
    "[pantheon]",
    "\tassistant = claude   code",
    '\tquoted = "a \\"b\\" \\\\ # ; c"',
    "\tescapes = tab\\there\\nnext",
    "\tlong = one \\",
    "two",
    "\tempty =",
    '[section "with \\"quote"] key = inline',
  ].join("\n");

  it("parses tricky syntax exactly as `git config --list` does", () => {
    const root = tempDir();
    writeFileSync(join(root, "cfg"), TRICKY);
    const out = git(root, ["config", "-f", join(root, "cfg"), "--list", "-z"]);
    // -z prints "key\nvalue\0", or "key\0" for a bare key (which every reader treats as true).
    const fromGit = out
      .split("\0")
      .filter(Boolean)
      .map((rec) => {
        const nl = rec.indexOf("\n");
        return nl < 0 ? { key: rec, value: "true" } : { key: rec.slice(0, nl), value: rec.slice(nl + 1) };
      });
    expect(parseGitConfig(TRICKY)).toEqual(fromGit);
  });

  it("loads system < global (XDG then ~/.gitconfig, with includes) < repo, and GIT_CONFIG_GLOBAL overrides", () => {
    const { dir, gitDir } = makeRepo();
    const home = tempDir();
    const xdg = join(home, "xdg");
    mkdirSync(join(xdg, "git"), { recursive: true });
    writeFileSync(
      join(xdg, "git", "config"),
      "[user]\n\tname = Xdg\n\temail = xdg@example.com\n[pantheon]\n\tmulti = 1\n",
    );
    writeFileSync(
      join(home, ".gitconfig"),
      "[user]\n\tname = Home\n[include]\n\tpath = extra.inc\n[pantheon]\n\tmulti = 2\n",
    );
    writeFileSync(join(home, "extra.inc"), "[pantheon]\n\tassistant = codex\n");
    git(dir, ["config", "pantheon.multi", "3"]);
    const env = { HOME: home, XDG_CONFIG_HOME: xdg, GIT_CONFIG_NOSYSTEM: "1" };
    const cfg = loadGitConfig(gitDir, env);
    expect(cfg.get("user.name")).toBe("Home");
    expect(cfg.get("USER.EMAIL")).toBe("xdg@example.com");
    expect(cfg.get("pantheon.assistant")).toBe("codex");
    expect(cfg.getAll("pantheon.multi")).toEqual(["1", "2", "3"]);
    expect(cfg.get("pantheon.multi")).toBe("3");
    expect(cfg.get("core.bare")).toBe("false");
    // Real git with the same environment agrees.
    const gitWith = (key: string) =>
      git(dir, ["config", "--get", key], {
        env: { ...env, GIT_CONFIG_GLOBAL: undefined, GIT_CONFIG_COUNT: "0" },
      }).trim();
    expect(gitWith("user.name")).toBe("Home");
    expect(gitWith("pantheon.assistant")).toBe("codex");

    const none = loadGitConfig(gitDir, { ...env, GIT_CONFIG_GLOBAL: "/dev/null" });
    expect(none.get("user.name")).toBeUndefined();
    expect(none.getAll("pantheon.multi")).toEqual(["3"]);
    const only = loadGitConfig(null, { ...env, GIT_CONFIG_GLOBAL: join(home, "extra.inc") });
    expect(only.get("pantheon.assistant")).toBe("codex");
    expect(only.get("user.name")).toBeUndefined();
  });

  it("resolves the identity: env, then config, then the Director fallback", () => {
    const { gitDir } = makeRepo();
    git(join(gitDir, ".."), ["config", "user.name", "Repo Person"]);
    const base = { HOME: tempDir(), GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
    const cfg = loadGitConfig(gitDir, base);
    expect(resolveIdentity(base, cfg)).toEqual({
      name: "Repo Person",
      email: "director@pantheon.invalid",
      source: "config",
    });
    expect(resolveIdentity({ GIT_AUTHOR_NAME: "Env", GIT_COMMITTER_EMAIL: "c@x" }, cfg)).toEqual({
      name: "Env",
      email: "c@x",
      source: "env",
    });
    const empty = loadGitConfig(null, base);
    expect(resolveIdentity(base, empty)).toEqual({
      name: "Director",
      email: "director@pantheon.invalid",
      source: "fallback",
    });
  });
});
