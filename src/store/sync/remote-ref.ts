import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import type { GitConfig } from "../repo/git-config.js";
import type { RepoPaths } from "../repo/repo.js";
import { runGit } from "../repo/run-git.js";
import { REF } from "../state/layout.js";

/**
 * Where a remote keeps the state (DESIGN §3.1): refs/coordination/main, unless git config
 * `remote.<remote>.pantheonRef` names another ref, for a host that accepts only branches and
 * tags (`refs/heads/pantheon-state`). The key lives in the remote's own section, as git-lfs
 * keeps `remote.<name>.lfsurl`: `git remote rename` carries it and `git remote remove` drops it.
 */
export const remoteRefKey = (remote: string) => `remote.${remote}.pantheonRef`;

/** The branch a host that refuses refs/coordination/main gets instead, found by name on the remote. */
export const STATE_BRANCH = "refs/heads/pantheon-state";

/** One component of a ref name: git's check-ref-format, narrowed to characters every host takes. */
const COMPONENT = /^(?!\.)(?!.*\.\.)(?!.*@\{)(?!.*\.lock$)[A-Za-z0-9._+@-]+$/;

/** Why `value` cannot be where a remote keeps the state, or null when it can (pure: no git). */
export function remoteRefProblem(value: string): string | null {
  if (value.trim() === "") return "it is empty";
  if (/[\u0000-\u0020\u007f]/.test(value)) return "it holds spaces or control characters";
  if (value.includes("*")) return "it is a pattern: it must name one ref";
  if (value.startsWith("refs/tags/"))
    return "it is a tag: git refuses to move an existing tag without force, and the state moves at every push";
  if (value.startsWith("refs/coordination/remotes/"))
    return "refs/coordination/remotes/ holds this clone's tracking refs of remotes";
  const m = /^refs\/(heads|coordination)\/(.*)$/.exec(value);
  if (!m)
    return value.startsWith("refs/")
      ? "it must be a branch (refs/heads/...) or under refs/coordination/"
      : `it must be a full ref name (refs/heads/${value}, say)`;
  if (value.length > 200) return "it is longer than 200 characters";
  if (!m[2]!.split("/").every((c) => COMPONENT.test(c)))
    return "it is not a valid ref name (letters, digits, . _ + @ - between slashes; no .., no component starting with a dot or ending in .lock)";
  return null;
}

/** The ref's branch name when it is one (`refs/heads/pantheon-state` → `pantheon-state`). */
export const branchOf = (ref: string): string | null => (ref.startsWith("refs/heads/") ? ref.slice(11) : null);

/** The remote's default branch as this clone last saw it (`refs/remotes/<remote>/HEAD`, a symbolic ref never packed). */
function remoteHead(paths: RepoPaths, remote: string): string | null {
  try {
    const text = readFileSync(join(paths.commonDir, "refs", "remotes", remote, "HEAD"), "utf8");
    const m = /^ref: refs\/remotes\/(.+)$/m.exec(text.trim());
    return m && m[1]!.startsWith(`${remote}/`) ? `refs/heads/${m[1]!.slice(remote.length + 1)}` : null;
  } catch {
    return null;
  }
}

/**
 * Why a branch is known, from this clone's config alone, to hold code: it is the remote's
 * default branch. (Whether a ref holds a state at all is decided by its commit, after a fetch.)
 */
export function codeUse(paths: RepoPaths, remote: string, ref: string): string | null {
  return branchOf(ref) && remoteHead(paths, remote) === ref
    ? `it is ${remote}'s default branch, which holds code`
    : null;
}

/**
 * The local branches that would carry the state into code: one named like the state's branch,
 * and any whose upstream it is (`git checkout pantheon-state` makes one of both).
 */
export function stateBranchesHere(
  config: GitConfig,
  localBranches: readonly string[],
  remote: string,
  ref: string,
): string[] {
  const name = branchOf(ref);
  if (!name) return [];
  const out = new Set(localBranches.filter((b) => b === name));
  for (const key of config.keys()) {
    const m = /^branch\.(.+)\.merge$/.exec(key);
    if (m && config.get(key) === ref && config.get(`branch.${m[1]}.remote`) === remote) out.add(m[1]!);
  }
  return [...out];
}

export interface RemoteRef {
  /** The ref on the remote that holds the state. */
  ref: string;
  /** Whether git config names it (else it is refs/coordination/main by default). */
  configured: boolean;
}

/**
 * The remote's state ref from git config; refuses (exit 2, before anything is fetched or pushed)
 * a value that cannot be one, naming the key and what to set instead.
 */
export function configuredRemoteRef(config: GitConfig, paths: RepoPaths, remote: string): RemoteRef {
  const value = config.get(remoteRefKey(remote));
  if (value === undefined) return { ref: REF, configured: false };
  const why = remoteRefProblem(value) ?? codeUse(paths, remote, value);
  if (why)
    throw new UsageError(
      `git config ${remoteRefKey(remote)} is ${JSON.stringify(value)}, which cannot hold the Pantheon state: ${why}; nothing was fetched or pushed`,
      `git config ${remoteRefKey(remote)} ${STATE_BRANCH} (a branch of its own, never checked out), or git config --unset ${remoteRefKey(remote)} to use ${REF}`,
      { key: remoteRefKey(remote), value },
    );
  return { ref: value, configured: true };
}

/** Records in this clone's git config where the remote keeps the state. */
export function recordRemoteRef(paths: RepoPaths, remote: string, ref: string, env: NodeJS.ProcessEnv): void {
  runGit(paths, ["config", remoteRefKey(remote), ref], env);
}
