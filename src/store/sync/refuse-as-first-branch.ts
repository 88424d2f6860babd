import { SyncError } from "../../errors.js";
import type { RepoPaths } from "../repo/repo.js";
import type { NetOptions } from "../store.js";
import { remoteBranches } from "./transport.js";

/**
 * Refuses to create the state's branch on a remote that has no branch yet (DESIGN §3.1: the
 * branch is never checked out as code). GitHub, GitLab, Bitbucket and Gitea make the first branch
 * pushed to an empty repository its default branch: the one every `git clone` checks out and
 * every pull request targets. Called only when the remote lacks `ref`, before the push.
 */
export function refuseAsFirstBranch(
  paths: RepoPaths,
  remote: string,
  ref: string,
  env: NodeJS.ProcessEnv,
  net: NetOptions,
): void {
  if (remoteBranches(paths, remote, env, net).some((b) => b !== ref)) return;
  throw new SyncError(
    `${remote} has no branch yet: most hosts make the first branch pushed to an empty repository its default branch, the one every clone checks out, and ${ref} would hold the Pantheon state, not code; nothing was published`,
    `push the code first (git push -u ${remote} main), then pantheon sync ${remote}`,
    { remote, ref },
  );
}
