import type { Context } from "../services/kernel/context.js";
import { GitStore } from "../store/git-store.js";
import { discoverRepo } from "../store/repo/repo.js";
import type { Store } from "../store/store.js";

/** The production store: the repository around `cwd`, its state on refs/coordination/main. */
export async function openStore(cwd: string, ctx: Context): Promise<Store> {
  return new GitStore(discoverRepo(cwd), { env: ctx.env, now: () => ctx.now(), warn: (m) => ctx.warn(m) });
}
