import { REF } from "../state/layout.js";
import { readRef } from "../git/ref-cas.js";
import type { RepoPaths } from "../repo/repo.js";
import { runGit } from "../repo/run-git.js";

/**
 * Where a remote's state lands and how git config names it (DESIGN §3.1). The fetch refspec is
 * a glob that matches only the remote's state ref (`main` under refs/coordination/, or the
 * branch `pantheon.<remote>.remoteRef` or `pantheon.remoteRef` names) and names nothing else there, so a plain
 * `git fetch` or `git pull` brings the state when the remote has it and says nothing when it
 * does not (an exact refspec fails the whole fetch then), and a peer's own tracking refs are
 * never fetched. A glob is also never the ref `git pull` merges: git marks only the first
 * configured refspec for merge, and only when it is not a pattern.
 */
export const trackingRef = (remote: string) => `refs/coordination/remotes/${remote}/main`;
export const fetchRefspec = (remote: string, src: string = REF) => `+${src}*:refs/coordination/remotes/${remote}/main*`;

/** What earlier versions wrote: an exact refspec and a tracking ref that is a file where the new one needs a directory. */
export const legacyTrackingRef = (remote: string) => `refs/coordination/remotes/${remote}`;
export const legacyRefspec = (remote: string) => `+${REF}:${legacyTrackingRef(remote)}`;

export interface RefspecStatus {
  /** The glob is configured. */
  configured: boolean;
  /**
   * Globs of another source into the same tracking ref (the remote's state moved to a branch):
   * once the remote has both refs, git refuses every fetch ("Cannot fetch both ... to ...").
   */
  stale: string[];
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

export async function refspecStatus(
  paths: RepoPaths,
  remote: string,
  env: NodeJS.ProcessEnv,
  src: string = REF,
): Promise<RefspecStatus> {
  const specs = fetchSpecs(paths, remote, env);
  const ours = fetchRefspec(remote, src);
  const dst = `:refs/coordination/remotes/${remote}/main*`;
  return {
    configured: specs.includes(ours),
    stale: specs.filter((s) => s !== ours && s.endsWith(dst)),
    legacy: specs.includes(legacyRefspec(remote)),
    legacyTip: await readQuiet(paths, legacyTrackingRef(remote)),
  };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Removes every value of remote.<remote>.fetch equal to `spec`. */
function unsetSpec(paths: RepoPaths, remote: string, spec: string, env: NodeJS.ProcessEnv): void {
  // A value pattern, not --fixed-value (git 2.30+): the refspec's `+` and `.` are escaped.
  runGit(paths, ["config", "--unset-all", `remote.${remote}.fetch`, `^${escapeRegex(spec)}$`], env);
}

/**
 * Replaces the exact refspec of earlier versions, and a glob of another source into the same
 * tracking ref (the remote's state moved to a branch, or back), by the glob of `src`, and
 * deletes the old tracking ref, which would block the new one
 * (`refs/coordination/remotes/<remote>` is a file where `.../<remote>/main` needs a directory).
 * Runs before every fetch: one `git config` read, and more only when there is something to
 * migrate. `legacyTip` is the old tracking ref's value; `replaced`: a glob of another source was.
 */
export async function migrateRefspec(
  paths: RepoPaths,
  remote: string,
  env: NodeJS.ProcessEnv,
  src: string = REF,
): Promise<RefspecStatus & { migrated: boolean; replaced: boolean }> {
  const status = await refspecStatus(paths, remote, env, src);
  // A glob of the other source is replaced at once: the remote's state ref moved (a branch).
  const replaced = status.stale.length > 0 && ensureFetchRefspec(paths, remote, env, src);
  if (replaced) status.configured = true;
  if (!status.legacy && status.legacyTip === null) return { ...status, stale: [], migrated: false, replaced };
  if (status.legacy) unsetSpec(paths, remote, legacyRefspec(remote), env);
  if (status.legacyTip !== null) runGit(paths, ["update-ref", "-d", legacyTrackingRef(remote)], env);
  const configured = status.configured || (status.legacy && ensureFetchRefspec(paths, remote, env, src));
  return { configured, stale: [], legacy: false, legacyTip: status.legacyTip, migrated: true, replaced };
}

/**
 * Adds the glob of `src` so a plain `git fetch` brings the state, removing any glob of another
 * source into the same tracking ref (git would refuse every fetch once both exist on the
 * remote); true when it was added now.
 */
export function ensureFetchRefspec(
  paths: RepoPaths,
  remote: string,
  env: NodeJS.ProcessEnv,
  src: string = REF,
): boolean {
  const specs = fetchSpecs(paths, remote, env);
  const ours = fetchRefspec(remote, src);
  for (const spec of specs.filter((s) => s !== ours && s.endsWith(`:refs/coordination/remotes/${remote}/main*`)))
    unsetSpec(paths, remote, spec, env);
  if (specs.includes(ours)) return false;
  return runGit(paths, ["config", "--add", `remote.${remote}.fetch`, ours], env).status === 0;
}
