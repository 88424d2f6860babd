import { escapeInline } from "../domain/control-chars.js";
import { missionHandle, missionId, reviewId, taskId } from "../domain/ids.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Snapshot } from "../store/store.js";
import { InvalidTransitionError, NotFoundError } from "../errors.js";
import { readLiveFile } from "./live-events.js";
import { findMission } from "./resolve-actor.js";
import { readSummonRecords, summonAlive } from "./summon-record.js";

/** What `summon --resume MSN` continues: the mission (or its persona, when it ENDED) and the assistant's session. */
export interface ResumePlan {
  /** The mission resumed; when it has ENDED, summon starts a new one of the same persona and role. */
  mission: Mission;
  reuse: boolean;
  assistant: string;
  sessionId: string;
  /** When the session was last heard of: what changed after it is told in the kickoff. */
  since: string;
}

/** Finds the mission, its assistant and its session; refuses one still running here or without a session id. */
export async function planResume(snap: Snapshot, commonDir: string, id: string): Promise<ResumePlan> {
  const mission = await findMission(snap, id, "--resume");
  const live = readLiveFile(commonDir, mission.uid);
  const record = readSummonRecords(commonDir).get(mission.uid);
  const handle = missionId(mission.number);
  if (mission.status === "ACTIVE" && record && summonAlive(record)) {
    throw new InvalidTransitionError(
      `Mission ${handle} (${mission.persona}) is still running in summon (pid ${record.pid} on ${record.host})`,
      "pantheon status (switch to its terminal), or end that summon first",
    );
  }
  // The hooks report the session the assistant actually runs: newer than what summon recorded.
  const sessionId = live?.sessionId ?? mission.sessionId ?? null;
  if (!mission.assistant || !sessionId) {
    throw new NotFoundError(
      `Mission ${handle} (${mission.persona}) has no assistant session to resume (it was not summoned, or its assistant never reported one)`,
      `pantheon summon ${mission.role} --persona ${mission.persona}`,
    );
  }
  const since = live?.lastEventAt ?? mission.endedAt ?? mission.updatedAt;
  return { mission, reuse: mission.status === "ACTIVE", assistant: mission.assistant, sessionId, since };
}

const SHOWN = 8;

/**
 * The kickoff of a resumed session: what changed on the ref since the persona was last heard
 * of (its claims, the handoffs to its role, reviews), ids and titles only, bounded; record text
 * escaped, as in every brief.
 */
export async function resumeKickoff(snap: Snapshot, was: Mission, now: Mission, since: string): Promise<string> {
  const handle = missionHandle(now);
  const after = (at: string) => at > since;
  const tasks = (await snap.taskSummaries()).filter((t) => after(t.updatedAt));
  const mine = tasks.filter(
    (t) => t.claimedBy === was.persona && (t.mission === was.number || t.mission === now.number),
  );
  const handoffs = tasks.filter((t) => t.status === "READY" && t.role === was.role && !mine.includes(t));
  const reviews = (await snap.all("reviews")).filter(
    (r) =>
      after(r.updatedAt) &&
      (r.requestedBy === was.persona || (r.task !== null && mine.some((t) => t.number === r.task))),
  );
  const list = (items: string[]) =>
    items.length > SHOWN ? `${items.slice(0, SHOWN).join("; ")}; and ${items.length - SHOWN} more` : items.join("; ");
  const parts = [
    mine.length ? `your claims: ${list(mine.map((t) => `${taskId(t)} ${t.status} "${escapeInline(t.title)}"`))}` : "",
    handoffs.length
      ? `handed off to your role: ${list(handoffs.map((t) => `${taskId(t)} "${escapeInline(t.title)}"`))}`
      : "",
    reviews.length
      ? `reviews: ${list(reviews.map((r) => `${reviewId(r.number)} ${r.status} "${escapeInline(r.title)}"`))}`
      : "",
  ].filter(Boolean);
  const changed = parts.length
    ? `Since ${since}: ${parts.join(". ")}.`
    : `Nothing changed on the Pantheon state since ${since}.`;
  const which =
    now.number === was.number
      ? `mission ${handle}`
      : `mission ${handle} (${missionId(was.number)} ended; this one continues it)`;
  return `You are ${escapeInline(now.persona)}, the ${now.role} persona of Pantheon, resuming on ${which}. Pass --mission ${handle} on every pantheon command. ${changed} Check pantheon task mine --mission ${handle}, then tell the Director where you stand.`;
}
