import type { Role } from "./roles.js";
import type { Mission } from "./schemas/mission.js";

/** What a new mission is made of; the rest is what every ACTIVE mission starts with. */
export interface NewMission {
  uid: string;
  number: number;
  codename: string;
  persona: string;
  role: Role;
  objective: string;
  assistant: string | null;
  /** The assistant's session id, kept only when known. */
  sessionId?: string | null | undefined;
  worktree: Mission["worktree"];
  headAtStart: string | null;
  /** ISO-8601: started, created and updated. */
  at: string;
}

/**
 * An ACTIVE mission, not ended: the one place a mission record is built (`mission start`, and
 * the missions summon's dry run and claim check imagine), so a new field gets its starting value
 * here once.
 */
export function newMission(m: NewMission): Mission {
  return {
    uid: m.uid,
    number: m.number,
    codename: m.codename,
    persona: m.persona,
    role: m.role,
    objective: m.objective,
    status: "ACTIVE",
    startedAt: m.at,
    endedAt: null,
    assistant: m.assistant,
    ...(m.sessionId ? { sessionId: m.sessionId } : {}),
    worktree: m.worktree,
    headAtStart: m.headAtStart,
    headAtEnd: null,
    summary: null,
    formerNumbers: [],
    createdAt: m.at,
    updatedAt: m.at,
    createdBy: m.persona,
  };
}
