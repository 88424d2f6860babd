import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { missionHandle } from "../../domain/ids.js";
import type { Mission } from "../../domain/schemas/mission.js";
import { sweepLiveFiles } from "../live/live-events.js";

/** Where summons keep each session's brief and files (per clone, never committed). */
export function sessionsDir(commonDir: string): string {
  return join(commonDir, "pantheon", "sessions");
}

/**
 * A summon removes its session folder when the session ends; one that was killed cannot. Folders
 * of missions this snapshot knows ENDED are removed at the next summon. A mission the snapshot
 * does not know may be another summon's that started a moment ago: its folder is left alone.
 */
export function sweepEndedSessions(commonDir: string, missions: readonly Mission[]): void {
  sweepLiveFiles(
    commonDir,
    missions.filter((m) => m.status === "ENDED").map((m) => m.uid),
  );
  const ended = new Set(missions.filter((m) => m.status === "ENDED").map((m) => missionHandle(m).replace(":", "-")));
  let names: string[] = [];
  try {
    names = readdirSync(sessionsDir(commonDir));
  } catch {
    return; // no folder yet
  }
  for (const name of names)
    if (ended.has(name)) rmSync(join(sessionsDir(commonDir), name), { recursive: true, force: true });
}
