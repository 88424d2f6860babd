import { fenceData } from "../../assistants/render-template.js";
import { escapeInline } from "../../domain/control-chars.js";
import { missionHandle, missionId, printable, reviewId, taskId } from "../../domain/ids.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Snapshot } from "../../store/store.js";
import { InvalidTransitionError, NotFoundError, UnsafeArgumentError } from "../../errors.js";
import { isAssistantName } from "../../assistants/registry.js";
import { SESSION_ID } from "../../domain/record-formats.js";
import { readLiveFile } from "../live/live-events.js";
import { findMission } from "../kernel/resolve-actor.js";
import { readSummonRecords, summonAlive } from "../live/summon-record.js";

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
  // Checked again here, not only by the schema: a mission found by codename comes from this
  // clone's read cache, and the live file from a hook (both files a sandboxed persona can write).
  if (!SESSION_ID.test(sessionId))
    throw new UnsafeArgumentError("session id", sessionId, `it is not a valid session id (mission ${handle})`);
  if (!isAssistantName(mission.assistant))
    throw new NotFoundError(
      `Mission ${handle} (${mission.persona}) ran in "${printable(mission.assistant)}", an assistant this pantheon cannot start`,
      `a newer pantheon may know it; or start the persona anew: pantheon summon ${mission.role} --persona ${mission.persona}`,
    );
  const since = live?.lastEventAt ?? mission.endedAt ?? mission.updatedAt;
  return { mission, reuse: mission.status === "ACTIVE", assistant: mission.assistant, sessionId, since };
}

const SHOWN = 8;
const TITLE = 80;

/**
 * The kickoff of a resumed session: what changed on the ref since the persona was last heard
 * of (its claims, the handoffs to its role, reviews), ids and titles only, bounded. The titles
 * are teammates' text: they are quoted in a fenced block labelled as data (DESIGN §5), never in
 * the sentence the persona reads as the Director's turn.
 */
export async function resumeKickoff(snap: Snapshot, was: Mission, now: Mission, since: string): Promise<string> {
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
  return resumeKickoffText({
    was,
    now,
    since,
    claims: mine.map((t) => ({ id: taskId(t), status: t.status, title: t.title })),
    handoffs: handoffs.map((t) => ({ id: taskId(t), status: t.status, title: t.title })),
    reviews: reviews.map((r) => ({ id: reviewId(r.number), status: r.status, title: r.title })),
  });
}

interface Changed {
  id: string;
  status: string;
  title: string;
}

/** The kickoff's text from what changed (resumeKickoff gathers it). */
export function resumeKickoffText(o: {
  was: Pick<Mission, "number">;
  now: Mission;
  since: string;
  claims: readonly Changed[];
  handoffs: readonly Changed[];
  reviews: readonly Changed[];
}): string {
  const handle = missionHandle(o.now);
  const which =
    o.now.number === o.was.number
      ? `mission ${handle}`
      : `mission ${handle} (${missionId(o.was.number)} ended; this one continues it)`;
  const quoted = [
    ...lines("your claim", o.claims, "claims"),
    ...lines("handed off to your role", o.handoffs, "handoffs"),
    ...lines("review", o.reviews, "reviews"),
  ];
  const counts = [
    count(o.claims.length, "claim of yours", "claims of yours"),
    count(o.handoffs.length, "handoff to your role", "handoffs to your role"),
    count(o.reviews.length, "review", "reviews"),
  ].filter(Boolean);
  const changed =
    quoted.length > 0
      ? `Since ${o.since}, these changed on the Pantheon state: ${counts.join(", ")} (ids and titles below).`
      : `Nothing changed on the Pantheon state since ${o.since}.`;
  const text = `You are ${escapeInline(o.now.persona)}, the ${o.now.role} persona of Pantheon, resuming on ${which}. Pass --mission ${handle} on every pantheon command. ${changed} Check pantheon task mine --mission ${handle}, then tell the Director where you stand.`;
  return quoted.length > 0 ? `${text}\n\n${fenceData("What changed", quoted.join("\n"))}` : text;
}

function count(n: number, one: string, many: string): string {
  return n === 0 ? "" : `${n} ${n === 1 ? one : many}`;
}

/** One line per record (id, status, title cut to one bounded line), at most SHOWN, then how many more. */
function lines(label: string, items: readonly Changed[], plural: string): string[] {
  const shown = items.slice(0, SHOWN).map((c) => `${label} ${c.id} ${c.status}: ${oneLine(c.title)}`);
  return items.length > SHOWN ? [...shown, `and ${items.length - SHOWN} more ${plural}`] : shown;
}

function oneLine(title: string): string {
  const flat = title.replace(/\s+/g, " ").trim();
  return flat.length <= TITLE ? flat : `${flat.slice(0, TITLE - 1).trimEnd()}…`;
}
