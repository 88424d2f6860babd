import type { CommitEntry } from "../../store/store.js";
import type { Context } from "../kernel/context.js";

/** The newest commits of the state ref: who did what, from the commit trailers. */
export async function readLog(ctx: Context, o: { limit?: number }): Promise<CommitEntry[]> {
  const store = await ctx.store();
  await store.snapshot(); // refuses a newer schema or a missing ref with the usual message
  return store.log({ limit: o.limit ?? 20 });
}
