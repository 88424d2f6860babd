import { statSync } from "node:fs";
import { missionId } from "../../domain/ids.js";
import type { MissionLive } from "../../domain/dashboard.js";
import { promptAnsweredSilently, silentTooLong } from "../../domain/live-state.js";
import type { Finding } from "../../domain/state-checks.js";
import type { Mission } from "../../domain/schemas/mission.js";
import { readLiveFile, transcriptSize } from "./live-events.js";
import { readSummonRecords, summonAlive } from "./summon-record.js";

/** `pantheon.stallAfter` when unset: a working session silent this long is shown stalled. */
export const DEFAULT_STALL_AFTER_MINUTES = 15;

/** `pantheon.stallAfter` (minutes, > 0; `0` or `off` turns the silence rule off) in milliseconds. */
export function stallAfterMs(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === "") return DEFAULT_STALL_AFTER_MINUTES * 60_000;
  if (/^(off|never|0)$/i.test(setting.trim())) return 0;
  const minutes = Number(setting);
  return Number.isFinite(minutes) && minutes > 0 ? minutes * 60_000 : DEFAULT_STALL_AFTER_MINUTES * 60_000;
}

/** What resumes or ends a stalled mission, as every view shows it. */
export function stalledNext(m: Pick<Mission, "number">): string {
  const id = missionId(m.number);
  return `pantheon summon --resume ${id} (or pantheon mission end ${id})`;
}

/**
 * What this clone knows of its ACTIVE missions' sessions (DESIGN §5): the state the session hooks
 * last reported (`starting` before the first), `stalled` once the summon process is gone without
 * having ended its mission or when a working session has been silent past `stallAfterMs`. A
 * mission started inside a running assistant (`/summon`, `mission start`) has no hooks of its
 * own: it is `working` while that assistant runs, `stalled` once it is gone (until the next
 * command ends it). Missions without a record here (another clone's) are absent: nothing local
 * can judge them.
 */
export function missionLives(
  commonDir: string,
  missions: readonly Mission[],
  o: { now?: Date; stallAfterMs?: number } = {},
): Map<number, MissionLive> {
  const out = new Map<number, MissionLive>();
  const active = missions.filter((m) => m.status === "ACTIVE");
  if (active.length === 0) return out;
  const records = readSummonRecords(commonDir);
  const now = o.now ?? new Date();
  const stallMs = o.stallAfterMs ?? DEFAULT_STALL_AFTER_MINUTES * 60_000;
  for (const m of active) {
    const r = records.get(m.uid);
    if (!r) continue;
    const live = readLiveFile(commonDir, m.uid);
    const base = {
      assistant: r.assistant,
      sessionId: live?.sessionId ?? r.sessionId,
      host: r.host,
      pid: r.pid,
      lastEventAt: live?.lastEventAt ?? null,
    };
    const inside = r.startedBy === "mission start";
    if (!summonAlive(r)) {
      out.set(m.number, {
        ...base,
        state: "stalled",
        since: live?.lastEventAt ?? r.since,
        detail: inside
          ? `the ${r.assistant} session it was started in (pid ${r.pid} on ${r.host}) is gone and ${missionId(m.number)} was not ended`
          : `its summon process (pid ${r.pid} on ${r.host}) is gone and ${missionId(m.number)} was not ended`,
        next: stalledNext(m),
      });
    } else if (live && silentTooLong(live, now, stallMs)) {
      out.set(m.number, {
        ...base,
        state: "stalled",
        since: live.lastEventAt,
        detail: `no event for ${Math.round(stallMs / 60_000)} min while working (last: ${live.detail})`,
        next: stalledNext(m),
      });
    } else if (live?.prompt && promptAnsweredSilently(live, transcriptSize(live.prompt.transcript))) {
      // Declined or cancelled: the assistant waits for the Director again, as after a turn.
      out.set(m.number, {
        ...base,
        state: "idle",
        since: modifiedAt(live.prompt.transcript) ?? live.since,
        detail: `the permission prompt was answered without running it (${live.detail}); waiting for the Director`,
        next: null,
      });
    } else if (live) {
      out.set(m.number, { ...base, state: live.state, since: live.since, detail: live.detail, next: null });
    } else if (inside) {
      // No hooks report this session's turns: all that is known is that it runs.
      out.set(m.number, {
        ...base,
        state: "working",
        since: r.since,
        detail: `started inside ${r.assistant} (pid ${r.pid} on ${r.host}), which still runs; only summoned sessions report their turns`,
        next: null,
      });
    } else {
      out.set(m.number, {
        ...base,
        state: "starting",
        since: r.since,
        detail: `summon (pid ${r.pid} on ${r.host}) runs ${r.assistant}`,
        next: null,
      });
    }
  }
  return out;
}

/** When a file last changed (ISO-8601), or null. */
function modifiedAt(path: string): string | null {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return null;
  }
}

/** `doctor`: an ACTIVE mission whose summon (in this clone) is gone; `--fix` ends it. */
export function summonFindings(commonDir: string, missions: readonly Mission[]): Finding[] {
  const out: Finding[] = [];
  for (const [number, live] of missionLives(commonDir, missions, { stallAfterMs: 0 })) {
    if (live.state !== "stalled") continue;
    const m = missions.find((x) => x.number === number)!;
    const id = missionId(number);
    out.push({
      severity: "warning",
      code: "W_SUMMON_GONE",
      subject: id,
      message: `${id} (${m.persona}) is ACTIVE, but ${live.detail}`,
      fix: `pantheon summon --resume ${id}, pantheon doctor --fix (ends it; its claims stay and can be resumed), or pantheon mission end ${id}`,
      fixable: true,
    });
  }
  return out;
}
