import type { Context } from "./context.js";

/** The commit the state is at: changes whenever any clone's change lands here. */
export async function stateVersion(ctx: Context): Promise<string | null> {
  return (await ctx.store()).tip();
}
