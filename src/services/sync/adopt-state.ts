import { GitError, SyncError } from "../../errors.js";
import type { Store } from "../../store/store.js";
import { networkOff, type Context } from "../kernel/context.js";
import { refuseLostRef } from "./lost-ref.js";
import { remoteRefChangeLines } from "../../domain/remote-ref-notice.js";

/** What looking for the remote's state found: adopted it, or why not. */
export type Adoption =
  | { adopted: string /** The ref the remote keeps the state on. */; ref: string }
  | {
      adopted: null;
      remote: string | null;
      reason: "no-remote" | "no-state" | "unreachable" | "offline";
      detail: string;
    };

/**
 * A clone without state takes its default remote's (DESIGN §3.5, "init adopts"): the whole
 * state is fetched, checked (schema version, every object present: a partial clone's filter
 * never leaves the ref half-adopted), and only then does the ref name it. Under the sync lock,
 * as a sync. `batch`: a call nobody asked for (the first command of a fresh clone) never
 * prompts and gives up after a while.
 */
export async function adoptRemoteState(ctx: Context, store: Store, o: { batch: boolean }): Promise<Adoption> {
  await refuseLostRef(store);
  const sync = await store.sync();
  const remote = await sync.defaultRemote();
  if (!remote) return { adopted: null, remote: null, reason: "no-remote", detail: "this repository has no remote" };
  const off = networkOff(ctx);
  if (off) return { adopted: null, remote, reason: "offline", detail: off };
  const lock = await sync.lock();
  try {
    // An unusable git config pantheon.<remote>.remoteRef (or pantheon.remoteRef) is refused here (exit 2), before the fetch.
    await sync.remoteRef(remote);
    await sync.migrateRefspec(remote);
    let tip: string | null;
    try {
      tip = await sync.fetch(remote, o.batch ? { batch: true, timeoutMs: 20_000 } : {});
    } catch (e) {
      if (e instanceof SyncError) return { adopted: null, remote, reason: "unreachable", detail: e.message };
      throw e;
    }
    if (!tip) return { adopted: null, remote, reason: "no-state", detail: `${remote} has no Pantheon state` };
    await sync.checkVersion(tip);
    if (!(await sync.complete(tip))) {
      throw new SyncError(
        `${remote}'s state arrived incomplete (a partial clone's objects are missing); nothing was adopted`,
        `git fetch --refetch --no-filter ${remote} ${(await sync.remoteRef(remote)).ref}, then pantheon sync ${remote}`,
        { remote, tip },
      );
    }
    if (!(await sync.advance(null, tip))) {
      throw new GitError(
        "E_GIT_REF_UPDATE",
        "refs/coordination/main was created by another command meanwhile",
        "pantheon task list",
      );
    }
    await sync.recordSynced(remote, tip);
    await sync.ensureFetchRefspec(remote);
    return { adopted: remote, ref: (await sync.remoteRef(remote)).ref };
  } finally {
    lock.release();
    // A teammate moved the state to a branch, found by this fetch and recorded: said, never silent.
    for (const c of sync.remoteRefChanges()) for (const line of remoteRefChangeLines(c)) ctx.warn(line);
  }
}

/** Whether the project's `.pantheon/` is committed (tracked by git): its state was started in some clone. */
export async function pantheonCommitted(store: Store): Promise<boolean> {
  if (!store.root) return false;
  try {
    return (await store.code()).isTracked(".pantheon");
  } catch {
    return false;
  }
}
