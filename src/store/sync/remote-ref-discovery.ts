import { SyncError } from "../../errors.js";
import type { ObjectDb } from "../git/object-db.js";
import { holdsState } from "../state/holds-state.js";
import type { RepoPaths } from "../repo/repo.js";
import { REF } from "../state/layout.js";
import type { NetOptions, RemoteRefChange } from "../store.js";
import { remoteRefKey, STATE_BRANCH } from "./remote-ref.js";
import { refuseAsFirstBranch } from "./refuse-as-first-branch.js";
import { fetchObjects, lsRemote, pushState } from "./transport.js";

/**
 * Finding where a remote keeps the state when git config does not say (DESIGN §3.1): a host
 * that refuses refs/coordination/main for its name gets the state on the branch
 * `pantheon-state`, and a clone whose remote has no refs/coordination/main but that branch
 * takes it from there. Each is recorded in this clone's git config and said, never silent.
 */

export interface Discovery {
  paths: RepoPaths;
  db: ObjectDb;
  env: NodeJS.ProcessEnv;
  /** Records the remote's new state ref (git config, fetch refspec) and the change to report. */
  adopt(remote: string, change: RemoteRefChange): void;
}

/** What the remote's `pantheon-state` branch holds: nothing, a Pantheon state, or something else. */
async function probeBranch(d: Discovery, remote: string, net: NetOptions): Promise<"absent" | "state" | "other"> {
  const tip = lsRemote(d.paths, remote, STATE_BRANCH, d.env, net);
  if (!tip) return "absent";
  await fetchObjects(d.paths, remote, STATE_BRANCH, d.env, net);
  return (await holdsState(d.db, tip)) ? "state" : "other";
}

const change = (remote: string, how: RemoteRefChange["how"], serverSaid: string | null): RemoteRefChange => ({
  remote,
  from: REF,
  ref: STATE_BRANCH,
  how,
  serverSaid,
  key: remoteRefKey(remote),
});

/**
 * The remote has no refs/coordination/main: when its `pantheon-state` branch holds a state (a
 * teammate's clone moved it there), this clone takes it from there too. True when it did.
 */
export async function findStateBranch(d: Discovery, remote: string, net: NetOptions): Promise<boolean> {
  if ((await probeBranch(d, remote, net)) !== "state") return false;
  d.adopt(remote, change(remote, "found", null));
  return true;
}

/**
 * The push of refs/coordination/main was refused for its name: the state goes to the branch
 * `pantheon-state` instead, recorded only when that works. When the branch already holds a
 * state (another clone moved first), "rejected": the caller fetches it, merges and pushes there.
 */
export async function moveToStateBranch(
  d: Discovery,
  remote: string,
  commit: string,
  net: NetOptions,
  refusal: SyncError,
): Promise<"ok" | "rejected"> {
  const said = typeof refusal.data.reason === "string" ? refusal.data.reason : refusal.message;
  const found = await probeBranch(d, remote, net);
  if (found === "other")
    throw new SyncError(
      `Cannot push to ${remote}: it refused ${REF} for its name (${said}), and its branch pantheon-state holds something other than a Pantheon state, so the state was not moved there; nothing was published`,
      `choose a branch of its own for the state: git config ${remoteRefKey(remote)} refs/heads/NAME, then pantheon sync ${remote}`,
      { remote },
    );
  if (found === "state") {
    d.adopt(remote, change(remote, "refused", said));
    return "rejected";
  }
  refuseAsFirstBranch(d.paths, remote, STATE_BRANCH, d.env, net);
  let pushed: "ok" | "rejected";
  try {
    pushed = pushState(d.paths, remote, commit, d.env, net, STATE_BRANCH);
  } catch (e) {
    if (!(e instanceof SyncError)) throw e;
    const also = typeof e.data.reason === "string" ? e.data.reason : e.message;
    throw new SyncError(
      `Cannot push to ${remote}: it refused ${REF} (${said}) and the branch pantheon-state as well (${also}); the team has no ref there to share the state through, and nothing was published`,
      `ask ${remote}'s administrators to allow pushes to ${REF} or to a branch for the state (then: git config ${remoteRefKey(remote)} refs/heads/NAME); docs/sync.md says what each host accepts`,
      { remote },
    );
  }
  // Created by another clone meanwhile ("rejected") or by this push: either way it is the state's now.
  d.adopt(remote, change(remote, "refused", said));
  return pushed;
}
