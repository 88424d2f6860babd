import { freshnessLine } from "../../domain/freshness.js";
import type { KeptDecisions } from "../../domain/sync-decisions.js";
import { RepositoryError, type PantheonError } from "../../errors.js";
import { adoptRemoteState, pantheonCommitted } from "./adopt-state.js";
import type { Context } from "../kernel/context.js";
import { takeNotices } from "./kept-notices.js";

/**
 * What a command says about this clone beside its result (DESIGN §3.2, §3.5): what earlier
 * syncs decided that nobody saw, and whether the state is behind or ahead of the remotes as
 * last fetched; and, for the first command of a fresh clone, the state itself.
 */

/** Notices of syncs whose report nobody saw (a push failed after the merge landed): taken now, to be shown. */
export async function unseenDecisions(ctx: Context): Promise<KeptDecisions[]> {
  return (await takeNotices(await ctx.store())).earlier;
}

/** One line when this clone and a remote (as last fetched) differ, else null: no network. */
export async function freshnessNotice(ctx: Context): Promise<string | null> {
  return freshnessLine(await (await ctx.store()).freshness());
}

/**
 * The first command in a clone without state (a teammate's plain `git clone` brings none): the
 * default remote's state is taken, without prompting, and the command can run again. When there
 * is none to take, the error says how to get it.
 */
export async function stateOnFirstUse(ctx: Context): Promise<{ adopted: string } | { error: PantheonError }> {
  const store = await ctx.store();
  const found = await adoptRemoteState(ctx, store, { batch: true });
  if (found.adopted !== null) return { adopted: found.adopted };
  const r = found.remote ?? "the remote";
  const none =
    "No Pantheon state in this clone (refs/coordination/main does not exist; a git clone, fetch or pull does not bring it)";
  switch (found.reason) {
    case "no-remote":
      return {
        error: new RepositoryError(
          "E_NOT_INITIALIZED",
          `${none}, and no remote to take it from`,
          "pantheon init (or git remote add origin <url>, then pantheon sync)",
        ),
      };
    case "offline":
      return {
        error: new RepositoryError(
          "E_NOT_INITIALIZED",
          `${none}; ${r} was not asked (${found.detail})`,
          `pantheon sync ${found.remote ?? ""} takes ${r}'s state`.replace("  ", " "),
        ),
      };
    case "unreachable":
      return {
        error: new RepositoryError(
          "E_NOT_INITIALIZED",
          `${none}, and ${r} could not be reached: ${found.detail}`,
          `pantheon sync ${found.remote ?? ""} once ${r} can be reached (it takes the state)`.replace("  ", " "),
        ),
      };
    default:
      return (await pantheonCommitted(store))
        ? {
            error: new RepositoryError(
              "E_NOT_INITIALIZED",
              `${none}, and ${r} has none yet, though .pantheon/ is committed: the state was started in another clone and not published`,
              `whoever ran pantheon init runs pantheon sync; then run this again`,
            ),
          }
        : { error: new RepositoryError("E_NOT_INITIALIZED", `${none}, and ${r} has none either`, "pantheon init") };
  }
}
