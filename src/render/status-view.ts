import type { MissionLive } from "../domain/dashboard.js";
import { missionHandle, missionId } from "../domain/ids.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";

export interface StatusMissionView {
  id: string;
  handle: string;
  codename: string;
  persona: string;
  role: Mission["role"];
  assistant: string | null;
  /** The assistant's session: the live file's (the hooks report it) or the mission's. */
  sessionId: string | null;
  /** Null where this clone holds no summon record of the mission. */
  live: MissionLive | null;
}

/** `pantheon status --json` (`kind: "status"`): every ACTIVE mission, who waits longest first. */
export interface StatusView {
  missions: StatusMissionView[];
}

export function statusView(rows: ReadonlyArray<{ mission: Mission; live: MissionLive | null }>): StatusView {
  return {
    missions: rows.map(({ mission: m, live }) => ({
      id: missionId(m.number),
      handle: missionHandle(m),
      codename: m.codename,
      persona: m.persona,
      role: m.role,
      assistant: live?.assistant ?? m.assistant,
      sessionId: live?.sessionId ?? m.sessionId ?? null,
      live,
    })),
  };
}

/** `42s`, `7m`, `2h05m`, `3d04h`: how long a state has lasted. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, "0")}h`;
}

/** The colour of a live state: who waits stands out. */
export function stateColor(style: Style, state: string | undefined): ((s: string) => string) | undefined {
  const p = style.paint;
  if (state === "needs-input") return (s) => p.bold(p.yellow(s));
  if (state === "idle") return p.cyan;
  if (state === "stalled") return (s) => p.bold(p.red(s));
  if (state === "working") return p.green;
  return p.dim;
}

/** The Director's glance: who needs an answer, who is idle, who works, who is stalled. */
export function statusText(v: StatusView, style: Style, now: Date): string {
  const rows = v.missions.map((m) => [
    m.persona,
    m.role,
    `${m.id} ${m.codename}`,
    m.assistant ?? "",
    m.live?.state ?? "unknown",
    m.live ? duration(now.getTime() - Date.parse(m.live.since)) : "",
    m.live?.detail ?? "not summoned from this clone",
  ]);
  const out = [
    table(
      [
        { header: "PERSONA" },
        { header: "ROLE" },
        { header: "MISSION" },
        { header: "ASSISTANT" },
        { header: "STATE", color: (s) => stateColor(style, s) },
        { header: "FOR" },
        { header: "DETAIL", flex: true },
      ],
      rows,
      style,
      "No ACTIVE missions: pantheon summon engineer",
    ),
  ];
  const stalled = v.missions.filter((m) => m.live?.next);
  if (stalled.length > 0) out.push("", ...stalled.map((m) => `${style.paint.red("stalled")} ${m.id}: ${m.live!.next}`));
  return out.join("\n");
}
