import { join } from "node:path";
import { GitError, SyncError } from "../../errors.js";
import { diskFullAt, diskFullHint, isDiskFull } from "../git/disk-full.js";
import { gitLeftovers } from "../repo/git-leftovers.js";
import { gitReason, runGit, runGitAsync } from "../repo/run-git.js";
import { REF } from "../state/layout.js";
import { readRef } from "../git/ref-cas.js";
import { fetchRefspec, trackingRef } from "./state-refspec.js";
import { refusedForName } from "./ref-refusal.js";
import type { RepoPaths } from "../repo/repo.js";
import type { NetOptions } from "../store.js";

export type { NetOptions } from "../store.js";

/**
 * Fetches of fewer objects than this are written loose (git's default). Writing loose costs a
 * file (and often a directory) per object: a 200-task fast-forward at 10,000 tasks (~700
 * objects) took 0.3-0.4 s of system time in `git unpack-objects` against ~30 ms to index a pack,
 * more than reading objects from the pack costs.
 */
const LOOSE_FETCH_MAX = 100;

/** A depth no history reaches: deepens the state's own history only (2147483647 would unshallow every ref). */
const DEEP = "--depth=2147483646";

/**
 * Fetches the remote's state (its ref `src`: refs/coordination/main, or the branch git config
 * names) into refs/coordination/remotes/<remote>/main; null when it has none (`--prune` drops a
 * tracking ref the remote no longer backs, so null is never a stale answer).
 * Partial-clone filters are ignored (`--no-filter`): Pantheon reads every blob of the state
 * in-process and cannot fetch one lazily. In a shallow repository the state's history is
 * deepened completely so the merge base is present.
 */
export async function fetchState(
  paths: RepoPaths,
  remote: string,
  env: NodeJS.ProcessEnv,
  o: { deepen: boolean; src?: string },
  net: NetOptions = {},
): Promise<string | null> {
  // A handful of objects (a publishing command's catch-up) arrive loose, as git does by default:
  // a loose object is one file read, where a pack costs its index read (and node:zlib) first.
  const args = [
    "-c",
    `fetch.unpackLimit=${LOOSE_FETCH_MAX}`,
    "fetch",
    "--no-tags",
    "--quiet",
    "--no-write-fetch-head",
    "--prune",
    "--no-filter",
    ...(o.deepen ? [DEEP] : []),
    remote,
    fetchRefspec(remote, o.src),
  ];
  // Whole seconds: a file system may keep mtimes at that precision.
  const started = Math.floor(Date.now() / 1000) * 1000;
  // Within the bounds of git-bounds.ts: a hostile pack on a local remote sends its
  // pack-objects round a delta cycle, growing without end.
  const r = await runGitAsync(paths, args, env, net);
  if (r.status !== 0 && isDiskFull(r.stderr)) throw diskFullFetch(paths, remote, r.stderr, started);
  if (r.stopped || (r.status !== 0 && CORRUPT_PACK.test(r.stderr))) {
    // git names the object only sometimes (the other side's pack-objects never does).
    const oid = /\b[0-9a-f]{40}\b/.exec(r.stderr)?.[0];
    throw new GitError(
      "E_GIT_CORRUPT_OBJECT",
      `Cannot fetch from ${remote}: ${r.stopped ? `git ${r.stopped.reason}` : gitReason(r.stderr)}${oid ? ` (git object ${oid})` : ""}; a pack there is corrupt or hostile`,
      `git fsck in that repository; git fetch ${remote} shows git's own words`,
    );
  }
  if (r.status !== 0)
    throw new SyncError(
      `Cannot fetch from ${remote}: ${gitReason(r.stderr)}`,
      `check the remote: git remote -v; git fetch ${remote}`,
      // What publishing says of it (services/sync/publish.ts): the remote could not be reached.
      { remote, unreachable: gitReason(r.stderr) },
    );
  return readRef(paths.commonDir, trackingRef(remote));
}

/**
 * What git says of a pack that cannot be what it claims: `index-pack` here checking what was
 * sent, or the other side refusing to read its own (not a network failure: retrying sends it again).
 */
const CORRUPT_PACK =
  /pack has bad object|write stream object|inflate returned|unresolved deltas|serious inflate inconsistency|SHA1 mismatch|repository corruption on the remote side|packed object [0-9a-f]{40} .*is corrupt/i;

/**
 * A fetch that found no space: this clone's disk is full, not the remote at fault. git's
 * index-pack leaves the part of the pack it wrote (`objects/pack/tmp_pack_*`), taking the very
 * space the user must free: named here, never deleted (another git may be writing its own).
 */
function diskFullFetch(paths: RepoPaths, remote: string, stderr: string, since: number): SyncError {
  const objects = join(paths.commonDir, "objects");
  const left = gitLeftovers(paths.commonDir, { since });
  const named =
    left.length > 0
      ? `; git left ${left.map((l) => `${join(paths.commonDir, l.path)} (${Math.ceil(l.bytes / 1024)} KiB)`).join(", ")} behind: remove it once no git command runs`
      : "";
  return new SyncError(
    `Cannot fetch from ${remote}: ${diskFullAt(objects)} (git: ${gitReason(stderr)}); nothing was merged${named}`,
    `${diskFullHint(objects)}: pantheon sync ${remote}`,
    { remote, diskFull: true },
  );
}

/** Lines git prints about its own refs; `remote:` lines are the server's text and decide nothing here. */
const RETRYABLE =
  /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*\((stale info|failed to update ref|cannot lock ref|failed to lock)|failed to update ref|cannot lock ref/i;

/** The server's own words: `[remote rejected] ... (reason)` and the `remote:` lines a hook printed. */
export function serverReason(stdout: string, stderr: string): string | null {
  const rejected = stdout
    .split("\n")
    .map((l) => /\[remote rejected\]\s*\((.*)\)\s*$/.exec(l)?.[1])
    .find(Boolean);
  const said = stderr
    .split("\n")
    .filter((l) => l.startsWith("remote:"))
    .map((l) => l.slice(7).trim())
    .filter(Boolean);
  if (!rejected && said.length === 0) return null;
  const text = `the server refused it${rejected ? ` (${rejected})` : ""}${said.length > 0 ? `: ${said.join(" / ")}` : ""}`;
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}

/**
 * Pushes without force to the remote's state ref `dst`: the remote's own ref update is the
 * cross-clone compare-and-swap. A refusal throws SyncError with the server's words;
 * `data.refusedName` says whether they refused the ref for its name (ref-refusal.ts).
 */
export function pushState(
  paths: RepoPaths,
  remote: string,
  commit: string,
  env: NodeJS.ProcessEnv,
  net: NetOptions = {},
  dst: string = REF,
): "ok" | "rejected" {
  const r = runGit(paths, ["push", "--porcelain", "--quiet", remote, `${commit}:${dst}`], env, undefined, net);
  if (r.status === 0) return "ok";
  const own = `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => !l.startsWith("remote:"))
    .join("\n");
  if (RETRYABLE.test(own)) return "rejected";
  const reason = serverReason(r.stdout, r.stderr) ?? gitReason(r.stderr || r.stdout);
  throw new SyncError(
    `Cannot push to ${remote}: ${reason}`,
    `check access and the server's rules: git push --dry-run ${remote} ${dst}`,
    { remote, ref: dst, reason, refused: reason, refusedName: refusedForName(r.stdout, r.stderr, dst) },
  );
}

/** The remote's value of `ref` (`git ls-remote`), or null when it has none. */
export function lsRemote(
  paths: RepoPaths,
  remote: string,
  ref: string,
  env: NodeJS.ProcessEnv,
  net: NetOptions = {},
): string | null {
  const r = runGit(paths, ["ls-remote", "--quiet", remote, ref], env, undefined, net);
  if (r.status !== 0)
    throw new SyncError(
      `Cannot list ${remote}'s refs: ${gitReason(r.stderr)}`,
      `check the remote: git ls-remote ${remote}`,
      {
        remote,
      },
    );
  // ls-remote matches patterns by their tail: keep the exact name only.
  for (const line of r.stdout.split("\n")) {
    const [oid, name] = line.split("\t");
    if (name === ref && oid && /^[0-9a-f]{40}$/.test(oid)) return oid;
  }
  return null;
}

/** The remote's branches (`git ls-remote --heads`), by full name. */
export function remoteBranches(
  paths: RepoPaths,
  remote: string,
  env: NodeJS.ProcessEnv,
  net: NetOptions = {},
): string[] {
  const r = runGit(paths, ["ls-remote", "--quiet", "--heads", remote], env, undefined, net);
  if (r.status !== 0)
    throw new SyncError(
      `Cannot list ${remote}'s refs: ${gitReason(r.stderr)}`,
      `check the remote: git ls-remote ${remote}`,
      {
        remote,
      },
    );
  return r.stdout
    .split("\n")
    .map((line) => line.split("\t")[1])
    .filter((name): name is string => name !== undefined && name.startsWith("refs/heads/"));
}

/** Fetches `ref`'s objects from the remote without naming them by any ref here (a look before a choice). */
export async function fetchObjects(
  paths: RepoPaths,
  remote: string,
  ref: string,
  env: NodeJS.ProcessEnv,
  net: NetOptions = {},
): Promise<void> {
  const r = await runGitAsync(
    paths,
    ["fetch", "--no-tags", "--quiet", "--no-write-fetch-head", "--no-filter", remote, ref],
    env,
    net,
  );
  if (r.status !== 0 || r.stopped)
    throw new SyncError(
      `Cannot fetch from ${remote}: ${r.stopped ? `git ${r.stopped.reason}` : gitReason(r.stderr)}`,
      `check the remote: git fetch ${remote} ${ref}`,
      {
        remote,
      },
    );
}

export function isAncestor(paths: RepoPaths, a: string, b: string, env: NodeJS.ProcessEnv): boolean {
  return runGit(paths, ["merge-base", "--is-ancestor", a, b], env).status === 0;
}

export function mergeBase(paths: RepoPaths, a: string, b: string, env: NodeJS.ProcessEnv): string | null {
  const r = runGit(paths, ["merge-base", a, b], env);
  return r.status === 0 ? r.stdout.trim() || null : null;
}
