import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { MissionLive } from "../../domain/dashboard.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { notifyChannels } from "./live-events.js";
import { missionLives, stallAfterMs } from "./live-missions.js";
import { liveDir } from "./summon-record.js";

export interface StatusRow {
  mission: Mission;
  /** Null where this clone holds no summon record of the mission (another clone's, `/summon`, `mission start`). */
  live: MissionLive | null;
}

/** Who waits for the Director comes first, longest first; then stalled, working, starting, unknown. */
const RANK: Record<string, number> = { "needs-input": 0, idle: 0, stalled: 1, working: 2, starting: 3, ended: 4 };

/** Orders the rows as `status` lists them: who waits longest first. */
export function byWaiting(rows: readonly StatusRow[]): StatusRow[] {
  const rank = (r: StatusRow) => (r.live ? (RANK[r.live.state] ?? 5) : 6);
  const since = (r: StatusRow) => (r.live ? Date.parse(r.live.since) || 0 : 0);
  return [...rows].sort((a, b) => rank(a) - rank(b) || since(a) - since(b) || a.mission.number - b.mission.number);
}

/** This clone's `pantheon.stallAfter` and the clock, as the live views judge silence. */
export async function liveOptions(ctx: Context, store: Store): Promise<{ now: Date; stallAfterMs: number }> {
  let setting: string | undefined;
  try {
    setting = (await store.code()).config("pantheon.stallAfter");
  } catch {
    setting = undefined; // a store without a code side (bare): the default
  }
  return { now: ctx.now(), stallAfterMs: stallAfterMs(setting) };
}

/** `pantheon status`: the live state of every ACTIVE mission, who waits longest first. */
export async function liveStatus(ctx: Context): Promise<StatusRow[]> {
  const store = await ctx.store();
  const active = (await (await store.snapshot()).all("missions")).filter((m) => m.status === "ACTIVE");
  const lives = missionLives(store.commonDir, active, await liveOptions(ctx, store));
  return byWaiting(active.map((mission) => ({ mission, live: lives.get(mission.number) ?? null })));
}

/** This clone's `pantheon.notify` channels (bell, desktop; unset: both). */
export async function notifySettings(ctx: Context): Promise<Set<"bell" | "desktop">> {
  let setting: string | undefined;
  try {
    setting = (await (await ctx.store()).code()).config("pantheon.notify");
  } catch {
    setting = undefined;
  }
  return notifyChannels(setting);
}

/**
 * A cheap fingerprint of the live folder (names, sizes, modification times): a watch redraws
 * when it changes, without reading the files.
 */
export function liveSignature(commonDir: string): string {
  const dir = liveDir(commonDir);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return "";
  }
  return names
    .map((n) => {
      try {
        const st = statSync(join(dir, n));
        return `${n}:${st.size}:${st.mtimeMs}`;
      } catch {
        return n;
      }
    })
    .join(",");
}
