import { missionId } from "../domain/ids.js";
import type { MissionLive } from "../domain/dashboard.js";
import type { Finding } from "../domain/state-checks.js";
import type { Mission } from "../domain/schemas/mission.js";
import { readSummonRecords, summonAlive } from "./summon-record.js";

/**
 * What this clone knows of its ACTIVE missions' summon processes (DESIGN §5): `starting` while
 * the process runs (the finer states come from session hooks), `stalled` once it is gone without
 * having ended its mission. Missions without a record here (another clone's, or started by
 * `/summon` or `mission start`) are absent: nothing local can judge them.
 */
export function missionLives(commonDir: string, missions: readonly Mission[]): Map<number, MissionLive> {
  const out = new Map<number, MissionLive>();
  const active = missions.filter((m) => m.status === "ACTIVE");
  if (active.length === 0) return out;
  const records = readSummonRecords(commonDir);
  for (const m of active) {
    const r = records.get(m.uid);
    if (!r) continue;
    const alive = summonAlive(r);
    out.set(m.number, {
      state: alive ? "starting" : "stalled",
      since: r.since,
      detail: alive
        ? `summon (pid ${r.pid} on ${r.host}) runs ${r.assistant}`
        : `its summon process (pid ${r.pid} on ${r.host}) is gone and ${missionId(m.number)} was not ended`,
      assistant: r.assistant,
      sessionId: r.sessionId,
      host: r.host,
      pid: r.pid,
    });
  }
  return out;
}

/** `doctor`: an ACTIVE mission whose summon (in this clone) is gone; `--fix` ends it. */
export function summonFindings(commonDir: string, missions: readonly Mission[]): Finding[] {
  const out: Finding[] = [];
  for (const [number, live] of missionLives(commonDir, missions)) {
    if (live.state !== "stalled") continue;
    const m = missions.find((x) => x.number === number)!;
    const id = missionId(number);
    out.push({ severity: "warning", code: "W_SUMMON_GONE", subject: id, message: `${id} (${m.persona}) is ACTIVE, but ${live.detail}`, fix: `pantheon doctor --fix (ends it; its claims stay and can be resumed), or pantheon mission end ${id}`, fixable: true });
  }
  return out;
}
