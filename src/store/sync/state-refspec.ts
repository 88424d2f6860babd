import { REF } from "../state/layout.js";
import { readRef } from "../git/ref-cas.js";
import type { RepoPaths } from "../repo/repo.js";
import { runGit } from "../repo/run-git.js";

/**
 * Where a remote's state lands and how git config names it (DESIGN §3.1). The fetch refspec is
 * a glob that matches only `main` under refs/coordination/ on the remote, so a plain `git fetch`
 * or `git pull` brings the state when the remote has it and says nothing when it does not (an
 * exact refspec fails the whole fetch then), and a peer's own tracking refs are never fetched.
 */
export const trackingRef = (remote: string) => `refs/coordination/remotes/${remote}/main`;
export const fetchRefspec = (remote: string) => `+${REF}*:refs/coordination/remotes/${remote}/main*`;

/** What earlier versions wrote: an exact refspec and a tracking ref that is a file where the new one needs a directory. */
export const legacyTrackingRef = (remote: string) => `refs/coordination/remotes/${remote}`;
export const legacyRefspec = (remote: string) => `+${REF}:${legacyTrackingRef(remote)}`;

export interface RefspecStatus {
  /** The glob is configured. */
  configured: boolean;
  /** The exact form of earlier versions is configured. */
  legacy: boolean;
  /** The old tracking ref's value, when it still exists. */
  legacyTip: string | null;
}

function fetchSpecs(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv): string[] {
  return runGit(paths, ["config", "--get-all", `remote.${remote}.fetch`], env)
    .stdout.split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
}

async function readQuiet(paths: RepoPaths, ref: string): Promise<string | null> {
  try {
    return await readRef(paths.commonDir, ref);
  } catch {
    return null; // a remote name git accepts but a ref path cannot hold: there is no such ref
  }
}

export async function refspecStatus(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv): Promise<RefspecStatus> {
  const specs = fetchSpecs(paths, remote, env);
  return {
    configured: specs.includes(fetchRefspec(remote)),
    legacy: specs.includes(legacyRefspec(remote)),
    legacyTip: await readQuiet(paths, legacyTrackingRef(remote)),
  };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Replaces the exact refspec of earlier versions by the glob and deletes the old tracking ref,
 * which would block the new one (`refs/coordination/remotes/<remote>` is a file where
 * `.../<remote>/main` needs a directory). Runs before every fetch: one `git config` read, and
 * more only when there is something to migrate. `legacyTip` is the old tracking ref's value.
 */
export async function migrateRefspec(
  paths: RepoPaths,
  remote: string,
  env: NodeJS.ProcessEnv,
): Promise<RefspecStatus & { migrated: boolean }> {
  const status = await refspecStatus(paths, remote, env);
  if (!status.legacy && status.legacyTip === null) return { ...status, migrated: false };
  // A value pattern, not --fixed-value (git 2.30+): the refspec's `+` and `.` are escaped.
  if (status.legacy)
    runGit(paths, ["config", "--unset-all", `remote.${remote}.fetch`, `^${escapeRegex(legacyRefspec(remote))}$`], env);
  if (status.legacyTip !== null) runGit(paths, ["update-ref", "-d", legacyTrackingRef(remote)], env);
  const configured = status.configured || (status.legacy && ensureFetchRefspec(paths, remote, env));
  return { configured, legacy: false, legacyTip: status.legacyTip, migrated: true };
}

/** Adds the glob so a plain `git fetch` brings the state; true when it was added now. */
export function ensureFetchRefspec(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv): boolean {
  if (fetchSpecs(paths, remote, env).includes(fetchRefspec(remote))) return false;
  return runGit(paths, ["config", "--add", `remote.${remote}.fetch`, fetchRefspec(remote)], env).status === 0;
}
