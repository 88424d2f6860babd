import { SyncError, UsageError } from "../../errors.js";
import { readRef } from "../git/ref-cas.js";
import type { GitConfig } from "../repo/git-config.js";
import type { RepoPaths } from "../repo/repo.js";
import { runGit } from "../repo/run-git.js";
import { holdsState } from "../state/holds-state.js";
import { REF } from "../state/layout.js";
import type { StateWriter } from "../state/state-writer.js";
import type { NetOptions, RemoteRefChange, RemoteRefStatus } from "../store.js";
import {
  branchOf,
  remoteRefKey,
  configuredRemoteRef,
  recordRemoteRef,
  remoteRefHint,
  stateBranchesHere,
  type RemoteRef,
} from "./remote-ref.js";
import { refuseAsFirstBranch } from "./refuse-as-first-branch.js";
import { findStateBranch, moveToStateBranch, type Discovery } from "./remote-ref-discovery.js";
import { ensureFetchRefspec, trackingRef } from "./state-refspec.js";
import { fetchState, lsRemote, pushState } from "./transport.js";

/** Where one sync's fetches and pushes go on each remote, and where they moved it (DESIGN §3.1). */
export interface RemoteRefs {
  /** The remote's state ref: UsageError (exit 2) naming the key when git config names an unusable one. */
  of(remote: string): RemoteRef;
  /** Fetches the remote's state into its tracking ref, finding it on the state branch when a teammate moved it there. */
  fetch(remote: string, deepen: boolean, net: NetOptions): Promise<string | null>;
  /** Pushes without force; a refusal of refs/coordination/main for its name moves the state to the branch. */
  push(remote: string, commit: string, net: NetOptions): Promise<"ok" | "rejected">;
  /** What moved since last asked (each change once). */
  takeChanges(): RemoteRefChange[];
  status(remote: string): Promise<RemoteRefStatus>;
}

export function remoteRefs(store: StateWriter, env: NodeJS.ProcessEnv, gitConfig: () => GitConfig): RemoteRefs {
  const paths: RepoPaths = store.paths;
  // Read from git config once, then as this sync moved it.
  const moved = new Map<string, RemoteRef>();
  // Remotes whose fetch found no branch at their configured state ref: a push there creates it.
  const lacking = new Set<string>();
  const changes: RemoteRefChange[] = [];
  const of = (remote: string): RemoteRef => moved.get(remote) ?? configuredRemoteRef(gitConfig(), paths, remote);
  const discovery: Discovery = {
    paths,
    db: store.db,
    env,
    adopt(remote, change) {
      recordRemoteRef(paths, remote, change.ref, env);
      // Replaces the glob of refs/coordination/main: git refuses every fetch that maps two refs of the remote to one.
      ensureFetchRefspec(paths, remote, env, change.ref);
      moved.set(remote, { ref: change.ref, configured: true, key: change.key });
      changes.push(change);
    },
  };
  return {
    of,
    async fetch(remote, deepen, net) {
      lacking.delete(remote);
      const at = of(remote);
      const tip = await fetchState(paths, remote, env, { deepen, src: at.ref }, net);
      if (tip && at.configured && !(await holdsState(store.db, tip))) {
        // Never merged, adopted or pushed onto: the tracking ref is dropped, so no read compares with it.
        runGit(paths, ["update-ref", "-d", trackingRef(remote)], env);
        throw new UsageError(
          `git config ${at.key} names ${at.ref}, which holds no Pantheon state on ${remote} (its commit has no project.json and counters.json): code, not the state; nothing was merged or pushed`,
          remoteRefHint(remote, at.key),
          { key: at.key, value: at.ref, remote },
        );
      }
      if (tip) return tip;
      if (branchOf(at.ref)) lacking.add(remote);
      if (!at.configured)
        return (await findStateBranch(discovery, remote, net))
          ? fetchState(paths, remote, env, { deepen, src: of(remote).ref }, net)
          : null;
      // Pushing to a configured ref the remote lacks, while its state is on refs/coordination/main,
      // would start a second copy of the team's state beside the one it shares.
      if (at.ref !== REF && lsRemote(paths, remote, REF, env, net))
        throw new SyncError(
          `${remote} has no ${at.ref} (git config ${at.key}) but keeps its Pantheon state on ${REF}; nothing was fetched or pushed`,
          at.key === remoteRefKey(remote)
            ? `git config --unset ${at.key}, then pantheon sync ${remote} (if ${remote} refuses ${REF}, the sync moves the state to a branch by itself)`
            : `git config ${remoteRefKey(remote)} ${REF} (${remote} alone keeps the default), then pantheon sync ${remote}`,
          { remote, key: at.key },
        );
      return null;
    },
    async push(remote, commit, net) {
      const at = of(remote);
      if (lacking.has(remote)) refuseAsFirstBranch(paths, remote, at.ref, env, net);
      try {
        return pushState(paths, remote, commit, env, net, at.ref);
      } catch (e) {
        // Only a refusal of the default ref for its name moves the state; a configured ref stays.
        if (at.configured || !(e instanceof SyncError) || e.data.refusedName !== true) throw e;
        return moveToStateBranch(discovery, remote, commit, net, e);
      }
    },
    takeChanges() {
      return changes.splice(0);
    },
    async status(remote) {
      let at: RemoteRef | null = null;
      let problem: string | null = null;
      let key = remoteRefKey(remote);
      try {
        at = of(remote);
        key = at.key;
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        problem = e.message;
        if (typeof e.data.key === "string") key = e.data.key;
      }
      const branch = at ? branchOf(at.ref) : null;
      const named = branch ? await readRef(paths.commonDir, `refs/heads/${branch}`).catch(() => null) : null;
      const tip = at?.configured ? await readRef(paths.commonDir, trackingRef(remote)).catch(() => null) : null;
      return {
        ref: at?.ref ?? null,
        configured: at?.configured ?? true,
        key,
        problem,
        localBranches: at ? stateBranchesHere(gitConfig(), named ? [branch!] : [], remote, at.ref) : [],
        holdsOther: tip !== null && !(await holdsState(store.db, tip)),
      };
    },
  };
}
