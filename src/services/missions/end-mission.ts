import { InvalidTransitionError, UsageError } from "../../errors.js";
import { activeClaimant, IDENTIFY_HINT, type Actor } from "../../domain/actor.js";
import { missionHandle, missionId, taskId } from "../../domain/ids.js";
import { applyTaskEvent } from "../../domain/task-lifecycle.js";
import { checkMissionEnd } from "../../domain/mission-rules.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Task } from "../../domain/schemas/task.js";
import { commitInfo } from "../kernel/commit-info.js";
import { publishedMutation } from "../sync/publish.js";
import { isoNow, type Context } from "../kernel/context.js";
import { findMission, resolveActor } from "../kernel/resolve-actor.js";
import { checkText } from "../kernel/validate-input.js";
import { readSummonRecords, removeSummonRecord } from "../live/summon-record.js";
import { checkWorktreeRemoval, removePersonaWorktree, type WorktreeRemoval } from "../worktrees/worktree-removal.js";

export interface EndMissionInput {
  id?: string | undefined;
  summary?: string | undefined;
  release?: boolean | undefined;
  /** The assistant's session, kept when the mission has none yet (summon learns codex's and opencode's from their hooks). */
  sessionId?: string | null | undefined;
}

export interface EndMissionResult {
  mission: Mission;
  /** Claims released to TODO (with --release). */
  released: Task[];
  /** Claims left on the ENDED mission (without --release): they can be resumed. */
  kept: Task[];
}

/** Ends a mission; with `release`, its UNDERWAY and BLOCKED claims go back to TODO in the same commit. */
export async function endMission(ctx: Context, input: EndMissionInput): Promise<EndMissionResult> {
  const summary = input.summary === undefined ? null : checkText(input.summary, "--summary");
  const store = await ctx.store();
  const head = await store.codeHead();
  // Released claims are what others wait for: published at once (DESIGN §3.5).
  const { result } = await publishedMutation(ctx, async (tx) => {
    const actor = await resolveActor(ctx, tx);
    const before = await pickMission(ctx, tx, input.id, actor);
    if (before.status === "ENDED") {
      throw new InvalidTransitionError(
        `Mission ${missionId(before.number)} (${before.persona}) has already ENDED`,
        "pantheon mission list --active",
      );
    }
    checkMissionEnd(before, actor);
    const at = isoNow(ctx);
    const mission: Mission = {
      ...before,
      status: "ENDED",
      endedAt: at,
      updatedAt: at,
      summary: summary ?? before.summary,
      headAtEnd: head,
      ...(!before.sessionId && input.sessionId ? { sessionId: input.sessionId } : {}),
    };
    tx.put("missions", mission);
    const claimed = (await tx.taskSummaries()).filter((t) => t.mission === before.number && activeClaimant(t) !== null);
    const claims = (await Promise.all(claimed.map((t) => tx.get("tasks", t.number)))).filter(
      (t): t is Task => t !== null,
    );
    const released: Task[] = [];
    const kept: Task[] = [];
    for (const t of claims) {
      if (input.release && (t.status === "UNDERWAY" || t.status === "BLOCKED")) {
        const facts = { actor, force: false, blockedBy: [], claimMissionActive: false };
        const next = applyTaskEvent(t, "release", facts, at, {
          id: ctx.ids.noteId(),
          text: `released when ${missionId(before.number)} (${before.persona}) ended`,
        });
        tx.put("tasks", next);
        released.push(next);
      } else {
        kept.push(t);
      }
    }
    return {
      result: { mission, released, kept },
      commit: commitInfo("mission.end", `mission ${missionId(before.number)}`, actor),
    };
  });
  // /dismiss in the session a mission was started in: its record has nothing left to watch.
  // Summon removes its own record when its session ends.
  if (readSummonRecords(store.commonDir).get(result.mission.uid)?.startedBy === "mission start")
    removeSummonRecord(store.commonDir, result.mission.uid);
  if (result.kept.length > 0) {
    ctx.warn(
      `warning: ${result.kept.length} claim(s) stay on the ENDED mission and can be resumed with "pantheon task claim": ${result.kept.map((t) => `${taskId(t)} (${t.status})`).join(", ")}`,
    );
  }
  return result;
}

async function pickMission(
  ctx: Context,
  tx: Parameters<typeof findMission>[0],
  id: string | undefined,
  actor: Actor,
): Promise<Mission> {
  if (id !== undefined) return findMission(tx, id, undefined, ctx);
  // The actor's mission may come from a list (the read cache): a write starts from the record.
  if (actor.kind === "persona" && actor.mission)
    return (await tx.get("missions", actor.mission.number)) ?? actor.mission;
  throw new UsageError(
    "Which mission? Give its id, or run this as the persona (--mission, --as)",
    actor.kind === "unidentified" ? IDENTIFY_HINT : "pantheon mission list --active",
  );
}

/**
 * `mission end` with `--remove-worktree`: checks first that the worktree can go (nothing lost,
 * not run from inside it), so a refusal changes nothing; then ends the mission if it is ACTIVE
 * and removes the worktree. On an ENDED mission only the worktree is removed.
 */
export async function endMissionAndWorktree(
  ctx: Context,
  input: EndMissionInput & { removeWorktree: boolean },
): Promise<EndMissionResult & { worktree: WorktreeRemoval | null }> {
  if (!input.removeWorktree) return { ...(await endMission(ctx, input)), worktree: null };
  const store = await ctx.store();
  const snap = await store.snapshot();
  const current = await pickMission(ctx, snap, input.id, await resolveActor(ctx, snap));
  await checkWorktreeRemoval(ctx, store, current);
  // The handle, not the bare number: a number renumbered at a sync must not refuse this.
  const ended =
    current.status === "ACTIVE"
      ? await endMission(ctx, { ...input, id: missionHandle(current) })
      : { mission: current, released: [], kept: [] };
  // Checked again: a persona still at work there may have committed in between.
  const worktree = await removePersonaWorktree(ctx, missionHandle(current));
  return { ...ended, worktree };
}
