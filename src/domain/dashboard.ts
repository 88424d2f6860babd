import type { LiveState } from "./live-state.js";
import type { EpicProgress, EpicStatus } from "./epic-progress.js";
import type { Refs } from "./refs.js";
import type { TaskRole } from "./roles.js";
import type { Epic } from "./schemas/epic.js";
import type { Mission } from "./schemas/mission.js";
import type { Project } from "./schemas/project.js";
import type { Review } from "./schemas/review.js";
import type { TaskSummary as Task } from "./schemas/task.js";
import type { Report } from "./task-questions.js";

/** An epic with what is derived from its linked tasks. */
export interface EpicDetail {
  epic: Epic;
  status: EpicStatus;
  progress: EpicProgress;
  tasks: Task[];
  refs: Refs;
}

/** One commit of the audit trail, as the dashboard's recent activity shows it. */
export interface ActivityCommit {
  oid: string;
  date: string;
  author: string;
  summary: string;
  trailers: Record<string, string[]>;
}

/**
 * What this clone knows of a mission's running session (DESIGN §5, live status): from its summon
 * record (`starting`, or `stalled` once that process is gone) and the session hooks' live file.
 */
export interface MissionLive {
  state: LiveState;
  since: string;
  detail: string;
  assistant: string | null;
  sessionId: string | null;
  host: string;
  pid: number;
  /** When the session's hooks last reported; null before the first event. */
  lastEventAt: string | null;
  /** For a stalled mission: the commands that resume it or end it. */
  next: string | null;
}

/** Everything the dashboard shows, from one snapshot. */
export interface Dashboard {
  project: Project;
  /** `live` is null where this clone holds no summon record of the mission. */
  missions: Array<{ mission: Mission; claims: Task[]; live: MissionLive | null }>;
  /** Persona names held by two ACTIVE missions (possible after a sync); both keep working. */
  duplicateNames: string[];
  report: Report;
  epics: EpicDetail[];
  /** The most urgent blocked tasks (a dashboard is a glance: `task blocked` lists them all) and how many there are. */
  blocked: Task[];
  blockedTotal: number;
  reviews: Review[];
  orphanedClaims: Array<{ task: Task; mission: Mission | null }>;
  recent: ActivityCommit[];
  refs: Refs;
  epic: EpicDetail | null;
  role: TaskRole | null;
}
