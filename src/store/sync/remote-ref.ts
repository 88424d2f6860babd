import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import type { GitConfig } from "../repo/git-config.js";
import type { RepoPaths } from "../repo/repo.js";
import { runGit } from "../repo/run-git.js";
import { REF } from "../state/layout.js";

/**
 * Where a remote keeps the state (DESIGN §3.1): refs/coordination/main, unless git config
 * `pantheon.<remote>.remoteRef` (this remote's own) or `pantheon.remoteRef` (every remote without
 * its own) names another ref, for a host that accepts only branches and tags
 * (`refs/heads/pantheon-state`). The per-remote key wins, so one remote can keep the default
 * (`pantheon.upstream.remoteRef refs/coordination/main`) under a plain key set for the others.
 * Either may come from a file an include pulls in, or the global config: the value is untrusted.
 */
export const remoteRefKey = (remote: string) => `pantheon.${remote}.remoteRef`;

/** The key for every remote that has no `pantheon.<remote>.remoteRef` of its own. */
export const ALL_REMOTES_KEY = "pantheon.remoteRef";

/** The branch a host that refuses refs/coordination/main gets instead, found by name on the remote. */
export const STATE_BRANCH = "refs/heads/pantheon-state";

/** One component of a ref name: git's check-ref-format, narrowed to characters every host takes. */
const COMPONENT = /^(?!\.)(?!.*\.\.)(?!.*@\{)(?!.*\.lock$)[A-Za-z0-9._+@-]+$/;

/** Why `value` cannot be where a remote keeps the state, or null when it can (pure: no git). */
export function remoteRefProblem(value: string): string | null {
  if (value.trim() === "") return "it is empty";
  // Never an option of git: refused by name, before the other rules would call it a bad name.
  if (value.startsWith("-")) return "it starts with '-', as an option of git would";
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
  if (!m[2]!.split("/").every((c) => COMPONENT.test(c) && !c.startsWith("-")))
    return "it is not a valid ref name (letters, digits, . _ + @ - between slashes; no .., no component starting with a dot or - or ending in .lock)";
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
  /** The key that names it (`pantheon.<remote>.remoteRef` when neither is set: where a sync records a move). */
  key: string;
}

/** What git config says of the remote's state ref: the key that decides and its value, if any. */
export function remoteRefSetting(config: GitConfig, remote: string): { key: string; value: string | undefined } {
  const own = config.get(remoteRefKey(remote));
  if (own !== undefined) return { key: remoteRefKey(remote), value: own };
  const all = config.get(ALL_REMOTES_KEY);
  return all !== undefined ? { key: ALL_REMOTES_KEY, value: all } : { key: remoteRefKey(remote), value: undefined };
}

/** How to set the remote's state ref right, or unset the key that names a wrong one. */
export function remoteRefHint(remote: string, key: string): string {
  const own = remoteRefKey(remote);
  const unset =
    key === own
      ? `git config --unset ${own} to use ${REF}`
      : `git config --unset ${key} (git config --show-origin ${key} says which file sets it), or git config ${own} ${REF} for ${remote} alone`;
  return `git config ${own} ${STATE_BRANCH} (a branch of its own, never checked out), or ${unset}`;
}

/**
 * The remote's state ref from git config; refuses (exit 2, before anything is fetched or pushed)
 * a value that cannot be one, naming the key and what to set instead.
 */
export function configuredRemoteRef(config: GitConfig, paths: RepoPaths, remote: string): RemoteRef {
  const { key, value } = remoteRefSetting(config, remote);
  if (value === undefined) return { ref: REF, configured: false, key };
  const why = remoteRefProblem(value) ?? codeUse(paths, remote, value);
  if (why)
    throw new UsageError(
      `git config ${key} is ${JSON.stringify(value)}, which cannot hold the Pantheon state of ${remote}: ${why}; nothing was fetched or pushed`,
      remoteRefHint(remote, key),
      { key, value, remote },
    );
  return { ref: value, configured: true, key };
}

/** Records in this clone's git config (its own file, per remote) where the remote keeps the state. */
export function recordRemoteRef(paths: RepoPaths, remote: string, ref: string, env: NodeJS.ProcessEnv): void {
  runGit(paths, ["config", remoteRefKey(remote), ref], env);
}
