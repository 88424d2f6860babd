import { readFileSync, writeFileSync } from "node:fs";
import { activeClaimant } from "../../domain/actor.js";
import { missionHandle, taskId } from "../../domain/ids.js";
import type { Context } from "../kernel/context.js";
import { findMission } from "../kernel/resolve-actor.js";

/**
 * `pantheon hook commit-msg FILE`: adds `Pantheon-Mission:` (renumbering-proof handle) and
 * `Pantheon-Task:` (the mission's live claims) trailers when PANTHEON_MISSION is set, so a
 * mission can list the code it produced. Existing trailers are not repeated.
 */
export async function addProvenanceTrailers(ctx: Context, file: string): Promise<string[]> {
  const env = ctx.env.PANTHEON_MISSION?.trim();
  if (!env) return [];
  const snap = await (await ctx.store()).snapshot();
  const mission = await findMission(snap, env, "PANTHEON_MISSION");
  const tasks = (await snap.taskSummaries()).filter((t) => t.mission === mission.number && activeClaimant(t) !== null);
  const trailers = [`Pantheon-Mission: ${missionHandle(mission)}`, ...tasks.map((t) => `Pantheon-Task: ${taskId(t)}`)];
  const text = readFileSync(file, "utf8");
  const body = text.replace(/\s+$/, "");
  const missing = trailers.filter((t) => !body.split("\n").includes(t));
  if (missing.length === 0 || body.replace(/^#.*$/gm, "").trim() === "") return [];
  const lastParagraph = body.split(/\n\s*\n/).at(-1) ?? "";
  const endsWithTrailers =
    /^[A-Za-z-]+: /m.test(lastParagraph) && lastParagraph.split("\n").every((l) => /^[A-Za-z-]+: |^#|^\s/.test(l));
  writeFileSync(file, `${body}${endsWithTrailers ? "\n" : "\n\n"}${missing.join("\n")}\n`);
  return missing;
}
