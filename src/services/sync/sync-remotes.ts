import { PantheonError, UsageError } from "../../errors.js";
import type { Context } from "../kernel/context.js";
import { checkSyncOptions, syncWith, type SyncOptions, type SyncReport } from "./sync-state.js";

/** One remote of `sync --all` that could not be synced: what the error said. */
export interface SyncFailure {
  remote: string;
  action: "failed";
  error: { code: string; message: string; hint: string | null };
}

/** The remotes `sync` talks to: the named one, every one (`--all`), else the branch's upstream remote, else origin. */
export async function pickRemotes(ctx: Context, o: { remote?: string; all?: boolean }): Promise<string[]> {
  const sync = await (await ctx.store()).sync();
  const remotes = await sync.remotes();
  if (remotes.length === 0)
    throw new UsageError("This repository has no remote to sync with", "git remote add origin <url>");
  if (o.all) return remotes;
  if (o.remote !== undefined) {
    if (!remotes.includes(o.remote))
      throw new UsageError(`No remote named "${o.remote}" (remotes: ${remotes.join(", ")})`, "git remote -v");
    return [o.remote];
  }
  const picked = await sync.defaultRemote();
  if (!picked)
    throw new UsageError(
      `Which remote? This repository has ${remotes.join(", ")} and none is the upstream or origin`,
      `pantheon sync ${remotes[0]} (or --all)`,
    );
  return [picked];
}

/**
 * `sync --all`: every remote in turn, each reported, and a failing remote does not stop the
 * others (a sync failure leaves the local state valid). Errors other than Pantheon's own (a bug)
 * still stop at once.
 */
export async function syncAll(
  ctx: Context,
  remotes: string[],
  o: SyncOptions = {},
): Promise<Array<SyncReport | SyncFailure>> {
  checkSyncOptions(o);
  const out: Array<SyncReport | SyncFailure> = [];
  for (const remote of remotes) {
    try {
      out.push(await syncWith(ctx, remote, o));
    } catch (e) {
      if (!(e instanceof PantheonError)) throw e;
      out.push({ remote, action: "failed", error: { code: e.code, message: e.message, hint: e.hint ?? null } });
    }
  }
  return out;
}
