import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitCodeRepo } from "../../../src/store/code/git-code-repo.js";
import { discoverRepo } from "../../../src/store/repo/repo.js";
import { testEnv } from "../../helpers/env.js";
import { git, tempDir } from "../../helpers/repo.js";

/**
 * Issue 12 point 4: removing a persona's worktree deletes its branch and its HEAD; the loss check
 * (store/code/commit-losses.ts) must name every commit kept nowhere else. Each case is a real
 * repository with a linked worktree on branch `feat`, asked what removing it would lose, as
 * `mission end --remove-worktree` asks. The cases marked "was lost" were reported safe (and
 * deleted) by the merge-tree rule this replaced.
 */

interface Fixture {
  dir: string;
  wt: string;
  base: string;
  /** Commits a removal would lose (the branch deleted when it is checked out there). */
  lost(): string[];
  commit(where: string, file: string, text: string | Buffer, message: string): string;
}

function fixture(): Fixture {
  const parent = tempDir("pantheon-losses-");
  const dir = join(parent, "repo");
  git(parent, "init", "-q", "-b", "main", dir);
  writeFileSync(join(dir, "app.txt"), "one\ntwo\nthree\nfour\nfive\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD").trim();
  const wt = join(parent, "wt");
  git(dir, "worktree", "add", "-q", "-b", "feat", wt, base);
  const commit = (where: string, file: string, text: string | Buffer, message: string) => {
    writeFileSync(join(where, file), text);
    git(where, "add", file);
    git(where, "commit", "-q", "-m", message);
    return git(where, "rev-parse", "HEAD").trim();
  };
  const lost = () => {
    const code = gitCodeRepo(discoverRepo(dir, testEnv()), testEnv());
    const listed = code.findWorktree(wt)!;
    expect(listed, "the worktree is listed").not.toBeNull();
    return code.worktreeLosses(listed, listed.branch === "feat" ? "feat" : null, []).commits;
  };
  return { dir, wt, base, lost, commit };
}

describe("worktree removal never loses a commit", () => {
  it("unmerged: commits only on the branch are lost, even when another branch already has the same content through a different commit (was lost)", () => {
    const f = fixture();
    const x = f.commit(f.wt, "login.txt", "login\n", "add login");
    expect(f.lost()).toEqual([x]);
    // `other` holds the same file (and more) in one bigger commit: merging feat into it changes
    // nothing, yet X itself, its message and its change alone, exist nowhere else.
    git(f.dir, "checkout", "-q", "-b", "other", f.base);
    writeFileSync(join(f.dir, "login.txt"), "login\n");
    git(f.dir, "add", "login.txt");
    f.commit(f.dir, "extra.txt", "more\n", "login and more");
    git(f.dir, "checkout", "-q", "main");
    expect(f.lost()).toEqual([x]);
  });

  it("reverted: a change and its revert on the branch are lost although merging the branch changes nothing (was lost: the issue's case)", () => {
    const f = fixture();
    const x = f.commit(f.wt, "app.txt", "one\nTWO\nthree\nfour\nfive\n", "shout two");
    git(f.wt, "revert", "--no-edit", "HEAD");
    const r = git(f.wt, "rev-parse", "HEAD").trim();
    expect(git(f.wt, "rev-parse", "HEAD^{tree}").trim(), "the branch's tree equals main's").toBe(
      git(f.dir, "rev-parse", "main^{tree}").trim(),
    );
    expect(f.lost()).toEqual([r, x]);
  });

  it("cherry-picked: each commit is safe once a copy of its change is on another branch, one copy per commit; a revert without its copy is not (was lost)", () => {
    const f = fixture();
    const x = f.commit(f.wt, "a.txt", "a\n", "a");
    const y = f.commit(f.wt, "b.txt", "b\n", "b");
    // main moves first, so each pick is a new commit (on the fork point it could be the same one)
    f.commit(f.dir, "main.txt", "main moved\n", "main moves on");
    git(f.dir, "cherry-pick", x);
    expect(f.lost()).toEqual([y]);
    git(f.dir, "cherry-pick", y);
    expect(f.lost()).toEqual([]);

    const g = fixture();
    const gx = g.commit(g.wt, "app.txt", "one\nTWO\nthree\nfour\nfive\n", "shout two");
    git(g.wt, "revert", "--no-edit", "HEAD");
    const gr = git(g.wt, "rev-parse", "HEAD").trim();
    g.commit(g.dir, "main.txt", "main moved\n", "main moves on");
    git(g.dir, "cherry-pick", gx);
    expect(g.lost(), "the revert exists only on feat").toEqual([gr]);
  });

  it("rebased: a copy rebased onto a moved main and pushed only to a remote makes the branch safe; a rebase that dropped a commit does not", () => {
    const f = fixture();
    const x = f.commit(f.wt, "a.txt", "a\n", "a");
    const y = f.commit(f.wt, "b.txt", "b\n", "b");
    f.commit(f.dir, "main.txt", "main moved\n", "main moves on");
    const origin = join(tempDir("pantheon-origin-"), "origin.git");
    git(f.dir, "init", "-q", "--bare", origin);
    git(f.dir, "remote", "add", "origin", origin);
    git(f.dir, "checkout", "-q", "-b", "copy", "main");
    git(f.dir, "cherry-pick", x);
    expect(f.lost(), "only x has a copy so far").toEqual([y]);
    git(f.dir, "cherry-pick", y);
    git(f.dir, "push", "-q", "origin", "copy");
    git(f.dir, "checkout", "-q", "main");
    git(f.dir, "branch", "-q", "-D", "copy");
    git(f.dir, "fetch", "-q", "origin");
    expect(f.lost(), "origin/copy holds both changes").toEqual([]);
  });

  it("amended: a commit merged into main and then amended on the branch to drop part of it is lost (was lost); a message-only amend is not", () => {
    const f = fixture();
    writeFileSync(join(f.wt, "keep.txt"), "keep\n");
    git(f.wt, "add", "keep.txt");
    f.commit(f.wt, "drop.txt", "drop\n", "two files");
    git(f.dir, "merge", "-q", "--ff-only", "feat");
    git(f.wt, "commit", "-q", "--amend", "-m", "two files, better worded");
    expect(f.lost(), "same change, new message: the change is on main").toEqual([]);
    git(f.wt, "rm", "-q", "drop.txt");
    git(f.wt, "commit", "-q", "--amend", "-m", "only keep.txt");
    const amended = git(f.wt, "rev-parse", "HEAD").trim();
    expect(f.lost()).toEqual([amended]);
  });

  it("squash-merged: the branch's whole change as one commit on main makes it safe, also after main moved on; a commit added after the squash is lost with the rest", () => {
    const f = fixture();
    f.commit(f.wt, "app.txt", "one\ntwo\nthree\nfour\nfive\nsix\n", "six");
    f.commit(f.wt, "login.txt", "login\n", "login");
    f.commit(f.dir, "main.txt", "main moved\n", "main moves on");
    git(f.dir, "merge", "--squash", "-q", "feat");
    git(f.dir, "commit", "-q", "-m", "feature (squashed)");
    expect(f.lost()).toEqual([]);
    const w = f.commit(f.wt, "late.txt", "late\n", "after the squash");
    expect(f.lost()).toContain(w);
    expect(f.lost()).toHaveLength(3);
  });

  it("a clean merge of main into the branch holds nothing of its own; a merge that resolved a conflict does", () => {
    const f = fixture();
    const x = f.commit(f.wt, "a.txt", "a\n", "a");
    f.commit(f.dir, "main.txt", "main\n", "main work");
    git(f.wt, "merge", "-q", "--no-edit", "main");
    git(f.dir, "cherry-pick", x);
    expect(f.lost(), "x is on main; the merge added nothing").toEqual([]);

    const g = fixture();
    const gx = g.commit(g.wt, "app.txt", "ONE\ntwo\nthree\nfour\nfive\n", "upper one");
    g.commit(g.dir, "app.txt", "uno\ntwo\nthree\nfour\nfive\n", "spanish one");
    expect(() => git(g.wt, "merge", "-q", "--no-edit", "main")).toThrow();
    writeFileSync(join(g.wt, "app.txt"), "UNO\ntwo\nthree\nfour\nfive\n");
    git(g.wt, "commit", "-q", "-am", "merge main, keeping both");
    const m = git(g.wt, "rev-parse", "HEAD").trim();
    git(g.dir, "branch", "keep-upper", gx);
    expect(g.lost(), "the resolution UNO exists only in the merge").toEqual([m]);
  });

  it("patch identity is exact: a different whitespace change or a different binary change at the same place is not a copy", () => {
    const f = fixture();
    const ws = f.commit(f.wt, "app.txt", "one\n    two\nthree\nfour\nfive\n", "indent two by 4");
    f.commit(f.dir, "app.txt", "one\n\ttwo\nthree\nfour\nfive\n", "indent two by a tab");
    expect(f.lost(), "--stable would call these the same patch").toEqual([ws]);

    const g = fixture();
    const png = (n: number) => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, n, 0, 0, 0]);
    g.commit(g.dir, "logo.png", png(1), "logo");
    git(g.wt, "merge", "-q", "--ff-only", "main");
    const b = g.commit(g.wt, "logo.png", png(2), "logo, blue");
    g.commit(g.dir, "logo.png", png(3), "logo, red");
    expect(g.lost(), "two binary changes of one file are two patches").toEqual([b]);
  });

  it("a detached HEAD: its commits are lost (the branch stays); one that is on main is not", () => {
    const f = fixture();
    git(f.wt, "checkout", "-q", "--detach");
    const d = f.commit(f.wt, "detached.txt", "only here\n", "on a detached HEAD");
    expect(f.lost()).toEqual([d]);
    git(f.dir, "merge", "-q", "--ff-only", d);
    expect(f.lost()).toEqual([]);
  });
});
