import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NoMergeBaseError, SyncError } from "../../errors.js";
import { loadGitConfig } from "../repo/git-config.js";
import { REF } from "../state/layout.js";
import type { RepoPaths } from "../repo/repo.js";
import { type NetOptions } from "./transport.js";
import { runGit } from "../repo/run-git.js";

/**
 * Shallow and partial clones (DESIGN §3.1): a sync merges three versions of the state, so the
 * merge base and every blob it reads must be in this clone. Git hides both on purpose there:
 * `git fetch --depth=1` grafts the state's tip (its parents look absent, so `git merge-base`
 * answers "none" and a merge would treat every record as new), and a `--filter=blob:none`
 * fetch leaves blobs that only git's own lazy fetch can bring, which an in-process reader
 * cannot trigger.
 */

/** The commits `<commondir>/shallow` lists: git treats them as having no parents. */
export function shallowCommits(paths: RepoPaths): Set<string> {
  try {
    return new Set(
      readFileSync(join(paths.commonDir, "shallow"), "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
    );
  } catch {
    return new Set();
  }
}

/** Grafted commits in the history of `tips`: where this clone's view of the state's history ends early. */
export function cutHistory(paths: RepoPaths, tips: string[], env: NodeJS.ProcessEnv): string[] {
  const shallow = shallowCommits(paths);
  if (shallow.size === 0 || tips.length === 0) return [];
  // A grafted commit looks parentless to rev-list; real roots are not in the shallow file.
  const roots = runGit(paths, ["rev-list", "--max-parents=0", ...tips], env)
    .stdout.split("\n")
    .map((l) => l.trim());
  return roots.filter((oid) => shallow.has(oid));
}

/** Refuses to go on when the state's history is still cut after the deepening fetch. */
export function requireFullHistory(paths: RepoPaths, remote: string, tips: string[], env: NodeJS.ProcessEnv): void {
  const cut = cutHistory(paths, tips, env);
  if (cut.length === 0) return;
  throw new NoMergeBaseError(
    `The state's history is shallow in this clone (it ends at ${cut[0]!.slice(0, 12)}, a graft of git fetch --depth) and ${remote} could not deepen it, so the merge base cannot be found; nothing was merged`,
    `git fetch --unshallow ${remote}, then pantheon sync ${remote}`,
    { remote, cut },
  );
}

/** Whether objects may be missing on purpose: a promisor remote, or packs fetched from one. */
export function isPartialClone(paths: RepoPaths, remote: string, env: NodeJS.ProcessEnv): boolean {
  const config = loadGitConfig(paths.commonDir, env);
  if (config.get("extensions.partialclone") || /^(true|yes|on|1)$/i.test(config.get(`remote.${remote}.promisor`) ?? ""))
    return true;
  try {
    return readdirSync(join(paths.commonDir, "objects", "pack")).some((f) => f.endsWith(".promisor"));
  } catch {
    return false;
  }
}

/** Objects of the state from `tip` back to `have` that this clone does not hold (promised by a partial clone's remote). */
function missingObjects(paths: RepoPaths, tip: string, have: string | null, env: NodeJS.ProcessEnv): string[] {
  const r = runGit(paths, ["rev-list", "--objects", "--missing=print", tip, ...(have ? ["--not", have] : [])], env);
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("?"))
    .map((l) => l.slice(1).trim());
}

/**
 * In a partial clone, fetches the blobs (and trees) of the state that a filtered fetch left
 * out, by id and unfiltered, as git's own lazy fetch does; refuses when the remote will not
 * send them. A plain `git fetch` with the glob refspec brings the state filtered, so the sync
 * fetch alone (which then finds nothing new) is not enough.
 */
export function completeObjects(
  paths: RepoPaths,
  remote: string,
  tip: string,
  have: string | null,
  env: NodeJS.ProcessEnv,
  net: NetOptions = {},
  ref: string = REF,
): void {
  for (let round = 0; round < 3; round++) {
    const missing = missingObjects(paths, tip, have, env);
    if (missing.length === 0) return;
    const r = runGit(
      paths,
      [
        "-c",
        "fetch.negotiationAlgorithm=noop",
        "fetch",
        "--no-filter",
        "--no-tags",
        "--quiet",
        "--no-write-fetch-head",
        "--stdin",
        remote,
      ],
      env,
      `${missing.join("\n")}\n`,
      net,
    );
    if (r.status !== 0) break;
  }
  const still = missingObjects(paths, tip, have, env);
  if (still.length === 0) return;
  throw new SyncError(
    `This partial clone lacks ${still.length} object(s) of the state (e.g. ${still[0]!.slice(0, 12)}) and ${remote} did not send them; nothing was merged`,
    `git fetch --refetch --no-filter ${remote} ${ref}, then pantheon sync ${remote}`,
    { remote, missing: still.length },
  );
}
