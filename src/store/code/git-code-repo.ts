import { missionCommits } from "./code-log.js";
import { CodeWorktrees } from "./code-worktrees.js";
import { loadGitConfig } from "../repo/git-config.js";
import { installCommitMsgHook } from "./hook-install.js";
import type { RepoPaths } from "../repo/repo.js";
import type { CodeRepo } from "../store.js";
import { runCodeGit } from "../repo/run-git.js";

/** The code side of a real repository, through the system git (worktrees, log, hooks). */
export function gitCodeRepo(paths: RepoPaths, env: NodeJS.ProcessEnv): CodeRepo {
  const trees = new CodeWorktrees(paths, env);
  return {
    root: paths.workTree,
    mainWorktree: () => trees.mainWorktree(),
    addWorktree: (path, branch, base) => trees.add(path, branch, base),
    findWorktree: (path) => trees.find(path),
    worktreeLosses: (wt, branch, copied) => trees.losses(wt, branch, copied),
    removeWorktree: (path, branch) => trees.remove(path, branch),
    isTracked: (rel) => runCodeGit(paths, ["ls-files", "--error-unmatch", "--", rel], env).status === 0,
    missionCommits: (number, codename) => missionCommits(paths, env, number, codename),
    installCommitMsgHook: (cli) => installCommitMsgHook(paths, env, cli),
    config: (key) => loadGitConfig(paths.commonDir, env).get(key),
  };
}
