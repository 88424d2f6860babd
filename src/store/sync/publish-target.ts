import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadGitConfig, type GitConfig } from "../repo/git-config.js";
import { readRef } from "../git/ref-cas.js";
import type { RepoPaths } from "../repo/repo.js";
import type { PublishTarget } from "../store.js";
import { trackingRef } from "./state-refspec.js";

export type { PublishTarget } from "../store.js";

const FALSE = /^(false|no|off|0)$/i;

/** The remotes git config names (those with a URL), in config order. */
export function configuredRemotes(config: GitConfig): string[] {
  const out: string[] = [];
  for (const key of config.keys()) {
    const m = /^remote\.(.+)\.url$/.exec(key);
    if (m && !out.includes(m[1]!)) out.push(m[1]!);
  }
  return out;
}

/** The branch HEAD names in this worktree, or null (detached, unborn elsewhere, unreadable). */
function currentBranch(gitDir: string): string | null {
  try {
    return /^ref: refs\/heads\/(.+)$/m.exec(readFileSync(join(gitDir, "HEAD"), "utf8"))?.[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

/** `sync`'s default remote, from git config in-process: the branch's upstream remote, else origin, else the only remote. */
export function defaultRemoteOf(config: GitConfig, paths: RepoPaths): string | null {
  const remotes = configuredRemotes(config);
  const branch = currentBranch(paths.gitDir);
  const upstream = branch ? config.get(`branch.${branch}.remote`) : undefined;
  if (upstream && remotes.includes(upstream)) return upstream;
  if (remotes.includes("origin")) return "origin";
  return remotes.length === 1 ? remotes[0]! : null;
}

/**
 * Decided without spawning git (a racing command with no remote pays a config read and a ref
 * read): `pantheon.autoSync=false` turns publishing off; the default remote must be one this
 * clone has already seen state on (its tracking ref exists), so a remote without state is
 * never contacted by a claim.
 */
export async function publishTarget(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<PublishTarget> {
  const config = loadGitConfig(paths.commonDir, env, paths.gitDir);
  const auto = config.get("pantheon.autosync");
  if (auto !== undefined && FALSE.test(auto.trim())) return { skip: "disabled", remote: null };
  const remote = defaultRemoteOf(config, paths);
  if (!remote) return { skip: "no-remote", remote: null };
  const tracking = await readRef(paths.commonDir, trackingRef(remote)).catch(() => null);
  return tracking ? { remote } : { skip: "no-state", remote };
}
