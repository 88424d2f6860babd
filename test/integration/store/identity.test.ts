import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { git, makeRepo, tempDir } from "../../helpers/repo.js";

/**
 * Issue 12 point 9, DESIGN §1.7: commits carry the email (author and committer) and committer
 * name that `git var GIT_AUTHOR_IDENT` / `GIT_COMMITTER_IDENT` print in that directory, and the
 * actor as author name; the answer is cached per clone and invalidated by what changes it.
 */

const REF = "refs/coordination/main";
const NO_IDENTITY = {
  GIT_AUTHOR_NAME: undefined,
  GIT_AUTHOR_EMAIL: undefined,
  GIT_COMMITTER_NAME: undefined,
  GIT_COMMITTER_EMAIL: undefined,
  EMAIL: undefined,
};

/** What git itself says here: "Name <email>". */
function gitVar(cwd: string, env: NodeJS.ProcessEnv, name: "GIT_AUTHOR_IDENT" | "GIT_COMMITTER_IDENT"): string {
  const out = execFileSync("git", ["var", name], { cwd, env: testEnv(env), encoding: "utf8" }).trim();
  return out.replace(/ -?\d+ [+-]\d{4}$/, "");
}

/** The tip commit's "author name <email>|committer name <email>". */
const tipIdent = (dir: string) => git(dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>", REF).trim();

/** What the tip must carry, per DESIGN §1.7, with `authorName` the actor (null: the Director, git's author name). */
function expected(cwd: string, env: NodeJS.ProcessEnv, authorName: string | null = null): string {
  const author = gitVar(cwd, env, "GIT_AUTHOR_IDENT");
  const committer = gitVar(cwd, env, "GIT_COMMITTER_IDENT");
  const email = author.replace(/^.* </, "<");
  return `${authorName ?? author.replace(/ <.*$/, "")} ${email}|${committer}`;
}

async function ok(dir: string, argv: string[], env: NodeJS.ProcessEnv) {
  const r = await runCli(argv, { cwd: dir, env });
  expect(r.exitCode, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
  return r;
}

/** A repository with state, made under a plain identity, for each case to commit in. */
async function repo(): Promise<string> {
  const dir = makeRepo();
  await ok(dir, ["init", "--yes"], {});
  return dir;
}

function writeConfig(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("commit identity, as git var prints it", () => {
  it("from the environment (author and committer differ)", async () => {
    const dir = await repo();
    const env = {
      GIT_AUTHOR_NAME: "Env Author",
      GIT_AUTHOR_EMAIL: "author@env.example",
      GIT_COMMITTER_NAME: "Env Committer",
      GIT_COMMITTER_EMAIL: "committer@env.example",
    };
    await ok(dir, ["task", "create", "--title", "T", "--role", "engineer"], env);
    expect(tipIdent(dir)).toBe("Env Author <author@env.example>|Env Committer <committer@env.example>");
    expect(tipIdent(dir)).toBe(expected(dir, env));
  });

  it("from the repository config", async () => {
    const dir = await repo();
    git(dir, "config", "user.name", "Repo Person");
    git(dir, "config", "user.email", "repo@config.example");
    await ok(dir, ["task", "create", "--title", "T", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toBe("Repo Person <repo@config.example>|Repo Person <repo@config.example>");
    expect(tipIdent(dir)).toBe(expected(dir, NO_IDENTITY));
  });

  it("from the global config", async () => {
    const dir = await repo();
    const global = writeConfig(
      join(tempDir(), "gitconfig"),
      "[user]\n\tname = Global Person\n\temail = global@config.example\n",
    );
    const env = { ...NO_IDENTITY, GIT_CONFIG_GLOBAL: global };
    await ok(dir, ["task", "create", "--title", "T", "--role", "engineer"], env);
    expect(tipIdent(dir)).toBe("Global Person <global@config.example>|Global Person <global@config.example>");
  });

  it("from an includeIf gitdir: in the global config", async () => {
    const dir = await repo();
    const home = tempDir();
    const work = writeConfig(join(home, "work.gitconfig"), "[user]\n\temail = work@includeif.example\n");
    const global = writeConfig(
      join(home, "gitconfig"),
      `[user]\n\tname = Person\n\temail = home@example.org\n[includeIf "gitdir:${dir}/"]\n\tpath = ${work}\n`,
    );
    const env = { ...NO_IDENTITY, GIT_CONFIG_GLOBAL: global };
    await ok(dir, ["task", "create", "--title", "T", "--role", "engineer"], env);
    expect(tipIdent(dir)).toBe("Person <work@includeif.example>|Person <work@includeif.example>");
    expect(tipIdent(dir)).toBe(expected(dir, env));
  });

  it("from an includeIf onbranch: in the repository config, following the checked-out branch", async () => {
    const dir = await repo();
    const inc = writeConfig(join(tempDir(), "release.gitconfig"), "[user]\n\temail = release@onbranch.example\n");
    git(dir, "config", "user.name", "Branch Person");
    git(dir, "config", "user.email", "main@onbranch.example");
    git(dir, "config", "includeIf.onbranch:release.path", inc);
    await ok(dir, ["task", "create", "--title", "On main", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toBe("Branch Person <main@onbranch.example>|Branch Person <main@onbranch.example>");
    git(dir, "checkout", "-q", "-b", "release");
    await ok(dir, ["task", "create", "--title", "On release", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toBe("Branch Person <release@onbranch.example>|Branch Person <release@onbranch.example>");
    expect(tipIdent(dir)).toBe(expected(dir, NO_IDENTITY));
  });

  it("from git -c in a parent git: a real alias running pantheon", async () => {
    const dir = await repo();
    git(dir, "config", "user.name", "Alias Person");
    git(dir, "config", "user.email", "plain@alias.example");
    const env = testEnv({ ...NO_IDENTITY, NO_COLOR: "1" });
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const r = spawnSync(
      "git",
      [
        "-c",
        "user.email=dash-c@alias.example",
        "-c",
        `alias.pt=!'${process.execPath}' '${BIN}'`,
        "pt",
        "task",
        "create",
        "--title",
        "Via alias",
        "--role",
        "engineer",
      ],
      { cwd: dir, env, encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(tipIdent(dir)).toBe("Alias Person <dash-c@alias.example>|Alias Person <dash-c@alias.example>");
  });

  it("from GIT_CONFIG_PARAMETERS, as git hands -c down", async () => {
    const dir = await repo();
    const env = {
      ...NO_IDENTITY,
      GIT_CONFIG_PARAMETERS: "'user.name'='Param Person' 'user.email'='param@example.org'",
    };
    await ok(dir, ["task", "create", "--title", "T", "--role", "engineer"], env);
    expect(tipIdent(dir)).toBe("Param Person <param@example.org>|Param Person <param@example.org>");
    expect(tipIdent(dir)).toBe(expected(dir, env));
  });

  it("from a worktree's own config (extensions.worktreeConfig)", async () => {
    const dir = await repo();
    git(dir, "config", "user.name", "Tree Person");
    git(dir, "config", "user.email", "main@worktree.example");
    git(dir, "config", "extensions.worktreeConfig", "true");
    const wt = join(tempDir(), "wt");
    git(dir, "worktree", "add", "-q", "-b", "side", wt);
    git(wt, "config", "--worktree", "user.email", "side@worktree.example");
    await ok(wt, ["task", "create", "--title", "In the worktree", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toBe("Tree Person <side@worktree.example>|Tree Person <side@worktree.example>");
    await ok(dir, ["task", "create", "--title", "In the main one", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toBe("Tree Person <main@worktree.example>|Tree Person <main@worktree.example>");
  });

  it("with the actor as author name, git's email, and git's committer", async () => {
    const dir = await repo();
    git(dir, "config", "user.name", "Human");
    git(dir, "config", "user.email", "human@example.org");
    await ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], NO_IDENTITY);
    await ok(dir, ["--as", "Hephaestus", "task", "create", "--title", "T", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toBe("Hephaestus (engineer) <human@example.org>|Human <human@example.org>");
    expect(tipIdent(dir)).toBe(expected(dir, NO_IDENTITY, "Hephaestus (engineer)"));
  });

  it("falls back to the Director placeholder only when git has none, said once", async () => {
    const dir = await repo();
    const r1 = await ok(dir, ["task", "create", "--title", "One", "--role", "engineer"], NO_IDENTITY);
    expect(spawnSync("git", ["var", "GIT_AUTHOR_IDENT"], { cwd: dir, env: testEnv(NO_IDENTITY) }).status).not.toBe(0); // git has none here
    expect(tipIdent(dir)).toBe("Director <director@pantheon.invalid>|Director <director@pantheon.invalid>");
    expect(r1.stderr).toMatch(
      /git has no user\.name\/user\.email here; committing as "Director <director@pantheon\.invalid>"/,
    );
    const r2 = await ok(dir, ["task", "create", "--title", "Two", "--role", "engineer"], NO_IDENTITY);
    expect(r2.stderr).toBe("");
    const doctor = await runCli(["doctor", "--json"], { cwd: dir, env: NO_IDENTITY });
    expect(JSON.parse(doctor.stdout).data.findings).toEqual([
      expect.objectContaining({ code: "W_NO_IDENTITY", severity: "warning" }),
    ]);
  });
});

describe("the identity cache", () => {
  it("is invalidated by a change of the repository config, of an included file, and of the environment", async () => {
    const dir = await repo();
    const inc = writeConfig(join(tempDir(), "inc.gitconfig"), "[user]\n\temail = first@include.example\n");
    git(dir, "config", "user.name", "Cached Person");
    git(dir, "config", "include.path", inc);
    await ok(dir, ["task", "create", "--title", "A", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toMatch(/<first@include\.example>\|/);
    writeFileSync(inc, "[user]\n\temail = second@include.example\n");
    await ok(dir, ["task", "create", "--title", "B", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toMatch(/<second@include\.example>\|/);
    git(dir, "config", "user.name", "Renamed Person");
    await ok(dir, ["task", "create", "--title", "C", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toMatch(/^Renamed Person <second@include\.example>\|Renamed Person/);
    await ok(dir, ["task", "create", "--title", "D", "--role", "engineer"], {
      ...NO_IDENTITY,
      GIT_COMMITTER_EMAIL: "env@override.example",
    });
    expect(tipIdent(dir)).toMatch(/\|Renamed Person <env@override\.example>$/);
  });

  it("answers a mutation without spawning git once warm (git off the PATH still commits as git said)", async () => {
    const dir = await repo();
    git(dir, "config", "user.name", "Warm Person");
    git(dir, "config", "user.email", "warm@include.example");
    const inc = writeConfig(join(tempDir(), "inc.gitconfig"), "");
    git(dir, "config", `includeIf.gitdir:${dir}/.path`, inc);
    writeFileSync(inc, "[user]\n\temail = only-git-knows@includeif.example\n");
    await ok(dir, ["task", "create", "--title", "Warm", "--role", "engineer"], NO_IDENTITY);
    expect(tipIdent(dir)).toMatch(/<only-git-knows@includeif\.example>/);
    const cache = JSON.parse(readFileSync(join(dir, ".git", "pantheon", "identity-v1.json"), "utf8"));
    expect(cache.entries[0].id.author.email).toBe("only-git-knows@includeif.example");
    // No git on the PATH: only the cache can know the includeIf answer.
    const nogit = tempDir();
    await ok(dir, ["task", "create", "--title", "Cold path", "--role", "engineer"], { ...NO_IDENTITY, PATH: nogit });
    expect(tipIdent(dir)).toMatch(
      /^Warm Person <only-git-knows@includeif\.example>\|Warm Person <only-git-knows@includeif\.example>$/,
    );
  });
});
