/**
 * What scripts/check-assistants.mjs provides to the real-assistant suites: for each assistant,
 * its bin folder or why it could not be installed.
 */
import { inject, type TestContext } from "vitest";

export interface InstallResult {
  name: string;
  pkg: string;
  version: string;
  ok: boolean;
  binDir?: string;
  reason?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    assistantInstalls: Record<string, InstallResult>;
  }
}

/** The assistant's bin folder; a visible skip (a failure in CI) when it could not be installed. */
export function binDirOf(ctx: TestContext, name: string): string {
  const r = inject("assistantInstalls")[name];
  if (r?.ok && r.binDir) return r.binDir;
  const why = `${r?.pkg ?? name}@${r?.version ?? "?"} not installed: ${r?.reason ?? "no install result"}`;
  if (process.env.CI === "true") throw new Error(`${why} (in CI an assistant that cannot be installed is a failure)`);
  return ctx.skip(why);
}
