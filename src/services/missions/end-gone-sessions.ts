import { missionHandle, missionId } from "../../domain/ids.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { readSummonRecords, removeSummonRecord, summonAlive, type SummonRecord } from "../live/summon-record.js";

/**
 * Ends the missions started inside an assistant (`/summon`, `mission start`) whose assistant
 * process is gone (DESIGN §5): run by the next command of this clone, before it reads anything,
 * so that the mission does not stay ACTIVE after `/exit`. Each is ended as its own persona, with
 * a summary saying how, and a line on stderr. Costs one folder read when nothing is gone. A
 * record whose mission is no longer ACTIVE is dropped. Summon's own records are left to summon
 * (and to `doctor --fix` when summon died). Never fails the command it runs before.
 */
export async function endGoneSessions(ctx: Context, store: Store): Promise<Mission[]> {
  const gone = [...readSummonRecords(store.commonDir).values()].filter(
    (r) => r.startedBy === "mission start" && !summonAlive(r),
  );
  if (gone.length === 0) return [];
  const ended: Mission[] = [];
  try {
    const { endMission } = await import("./end-mission.js");
    const missions = new Map((await (await store.snapshot()).all("missions")).map((m) => [m.uid, m]));
    for (const r of gone) {
      const m = missions.get(r.uid);
      if (m?.status === "ACTIVE") {
        // As its own persona (its owner), through this store: the command's store is still opening.
        const asMission: Context = { ...ctx, store: async () => store, actorFlags: { mission: missionHandle(m) } };
        const done = await endMission(asMission, { id: missionHandle(m), summary: summaryOf(r) }).catch(() => null);
        if (!done) continue; // kept for the next command
        ended.push(done.mission);
        ctx.warn(`${missionId(m.number)} (${m.persona}) ended: ${summaryOf(r)}`);
      }
      removeSummonRecord(store.commonDir, r.uid);
    }
  } catch {
    // The state could not be read: the command goes on, and the next one tries again.
  }
  return ended;
}

function summaryOf(r: SummonRecord): string {
  return `the ${r.assistant} session it was started in (pid ${r.pid} on ${r.host}) ended; ended by the next pantheon command of this clone`;
}
