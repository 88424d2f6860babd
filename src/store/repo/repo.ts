/**
 * Finds the repository the way git's setup_git_directory does: walk up looking for `.git` (a
 * directory, or a `gitdir:` file as in linked worktrees and submodules), else recognise a bare
 * repository, then follow `commondir`: in a linked worktree, refs, objects and config live in
 * the common dir, so every caller must use `commonDir` for them.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { RepositoryError } from "../../errors.js";
import { configFromEntries, parseGitConfig } from "./git-config.js";
import type { RepoPaths } from "../git/repo-paths.js";

export type { RepoPaths } from "../git/repo-paths.js";

/** Finds the repository containing `start` (honouring GIT_DIR / GIT_WORK_TREE in `env`). */
export function discoverRepo(start: string, env: NodeJS.ProcessEnv = process.env): RepoPaths {
  const from = existingDir(start);
  if (env.GIT_DIR) {
    const gitDir = resolve(from, env.GIT_DIR);
    if (!isGitDir(gitDir)) throw notARepo(gitDir);
    // git's rule: with GIT_DIR and no GIT_WORK_TREE, the current directory is the top of the work tree.
    const workTree = env.GIT_WORK_TREE
      ? existingDir(resolve(from, env.GIT_WORK_TREE))
      : isBare(readCommonDir(gitDir))
        ? null
        : from;
    return { ...withCommonDir(null, realpathSync(gitDir)), workTree };
  }
  for (let dir = from; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const gitDir = gitDirBehind(dotGit);
    if (gitDir !== null) return withCommonDir(dir, gitDir);
    if (isGitDir(dir)) {
      // Inside a bare repo, or inside a non-bare repo's own .git directory (see withCommonDir).
      return withCommonDir(null, dir);
    }
    if (dirname(dir) === dir) throw notARepo(start);
  }
}

function existingDir(path: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch {
    throw new RepositoryError("E_NOT_A_REPO", `Cannot use -C ${path}: no such directory`, "check the path");
  }
  if (!statSync(real).isDirectory()) {
    throw new RepositoryError("E_NOT_A_REPO", `Cannot use -C ${path}: not a directory`, "check the path");
  }
  return real;
}

/** The git dir a `.git` entry points at, or null when there is no usable `.git` here. */
function gitDirBehind(dotGit: string): string | null {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return isGitDir(dotGit) ? realpathSync(dotGit) : null;
  // A `.git` FILE (linked worktree, submodule, `git init --separate-git-dir`): "gitdir: <path>",
  // relative to the file's own directory.
  const text = readFileSync(dotGit, "utf8");
  const m = /^gitdir: (.+?)\s*$/m.exec(text);
  if (!m?.[1]) throw new RepositoryError("E_NOT_A_REPO", `Invalid gitfile format: ${dotGit}`, "git worktree repair");
  const target = resolve(dirname(dotGit), m[1]);
  // A worktree whose gitdir was pruned leaves a dangling .git file; git stops with an error here
  // rather than walking further up into an unrelated repository, and so do we.
  if (!isGitDir(target))
    throw new RepositoryError(
      "E_NOT_A_REPO",
      `Not a git repository: ${target} (named by ${dotGit})`,
      "git worktree prune",
    );
  return realpathSync(target);
}

/** git's is_git_directory, loosely: HEAD here, objects/ and refs/ here or in the common dir. */
function isGitDir(dir: string): boolean {
  if (!existsSync(join(dir, "HEAD"))) return false;
  const common = readCommonDir(dir);
  return existsSync(join(common, "objects")) && existsSync(join(common, "refs"));
}

function readCommonDir(gitDir: string): string {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return gitDir;
  }
}

function withCommonDir(workTree: string | null, gitDir: string): RepoPaths {
  const commonDir = realpathSync(readCommonDir(gitDir));
  // A non-bare repo entered through its .git dir: git has no work tree there, but the parent is
  // where the user's files are, so report it when the layout is the ordinary one.
  if (workTree === null && !isBare(commonDir) && basename(gitDir) === ".git") workTree = dirname(gitDir);
  return { workTree, gitDir, commonDir };
}

function isBare(commonDir: string): boolean {
  try {
    const cfg = configFromEntries(parseGitConfig(readFileSync(join(commonDir, "config"), "utf8")));
    return /^(true|yes|on|1)$/i.test(cfg.get("core.bare") ?? "");
  } catch {
    return false;
  }
}

function notARepo(start: string): RepositoryError {
  return new RepositoryError("E_NOT_A_REPO", `Not a git repository: ${start}`, "git init");
}
