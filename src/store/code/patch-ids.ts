import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GitError } from "../../errors.js";
import type { RepoPaths } from "../repo/repo.js";
import { spawnGitSync } from "../git/git-spawn.js";

/**
 * `git <diffArgs>` piped into `git patch-id --verbatim`: [patch id, commit] per non-empty patch
 * (the commit is all zeros for a plain diff of two commits). `commits` go to stdin, for
 * `diff-tree --stdin`; null runs the diff as given. The diff goes through a temporary file, not
 * memory: a branch may carry large binaries.
 */
export function patchIds(
  paths: RepoPaths,
  env: NodeJS.ProcessEnv,
  diffArgs: string[],
  commits: string[] | null,
): Array<[string, string]> {
  if (commits !== null && commits.length === 0) return [];
  const git = (args: string[]) => ["--git-dir=" + paths.gitDir, ...args];
  const cwd = paths.workTree ?? paths.commonDir;
  const dir = mkdtempSync(join(tmpdir(), "pantheon-patch-"));
  const file = join(dir, "diff");
  try {
    const out = openSync(file, "w");
    try {
      const input = commits === null ? "" : `${commits.join("\n")}\n`;
      const diff = spawnGitSync(git(diffArgs), { cwd, env, input, stdio: ["pipe", out, "pipe"], encoding: "utf8" });
      if (diff.status !== 0)
        throw new GitError(
          "E_GIT_WORKTREE",
          `git ${diffArgs[0]} failed: ${(diff.stderr ?? "").trim().split("\n")[0]}`,
          "git fsck",
        );
    } finally {
      closeSync(out);
    }
    // --verbatim (git 2.39): whitespace counts. Older git only has --stable, which ignores it.
    for (const mode of ["--verbatim", "--stable"]) {
      const fd = openSync(file, "r");
      try {
        const r = spawnGitSync(git(["patch-id", mode]), {
          cwd,
          env,
          stdio: [fd, "pipe", "pipe"],
          encoding: "utf8",
          maxBuffer: 64 << 20,
        });
        if (r.status === 129 && mode === "--verbatim") continue;
        if (r.status !== 0)
          throw new GitError(
            "E_GIT_WORKTREE",
            `git patch-id failed: ${(r.stderr ?? "").trim().split("\n")[0]}`,
            "git --version",
          );
        return r.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split(" ") as [string, string]);
      } finally {
        closeSync(fd);
      }
    }
    return [];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
