import { missionId } from "../domain/ids.js";
import type { Report } from "../domain/task-questions.js";
import type { Dashboard, MissionLive } from "../domain/dashboard.js";
import { epicView, type EpicView } from "./epic-view.js";
import { missionView, type MissionView } from "./mission-view.js";
import { reviewView, type ReviewView } from "./review-view.js";
import { taskSummaryView, type TaskSummaryView } from "./task-view.js";

export interface ActivityEntry {
  commit: string;
  date: string;
  actor: string;
  op: string;
  summary: string;
}

export interface DashboardView {
  project: { name: string; type: string };
  role: string | null;
  epic: EpicView | null;
  /** `live`: this clone's view of the mission's summon (null when it holds no record of one). */
  missions: Array<MissionView & { claims: TaskSummaryView[]; live: MissionLive | null }>;
  duplicateNames: string[];
  tasks: Pick<Report, "byStatus" | "completionRate"> & { total: number };
  epics: EpicView[];
  blocked: TaskSummaryView[];
  blockedTotal: number;
  reviews: ReviewView[];
  orphanedClaims: Array<TaskSummaryView & { endedMission: string | null }>;
  recent: ActivityEntry[];
}

export function dashboardView(d: Dashboard): DashboardView {
  const t = (x: Parameters<typeof taskSummaryView>[0]) => taskSummaryView(x, d.refs);
  return {
    project: { name: d.project.name, type: d.project.type },
    role: d.role,
    epic: d.epic ? epicView(d.epic) : null,
    missions: d.missions.map((m) => ({ ...missionView(m.mission), claims: m.claims.map(t), live: m.live })),
    duplicateNames: d.duplicateNames,
    tasks: { total: d.report.total, byStatus: d.report.byStatus, completionRate: d.report.completionRate },
    epics: d.epics.map(epicView),
    blocked: d.blocked.map(t),
    blockedTotal: d.blockedTotal,
    reviews: d.reviews.map((r) => reviewView(r, d.refs)),
    orphanedClaims: d.orphanedClaims.map((o) => ({
      ...t(o.task),
      endedMission: o.mission ? missionId(o.mission.number) : null,
    })),
    recent: d.recent.map((c) => ({
      commit: c.oid,
      date: c.date,
      actor: c.trailers["Pantheon-Actor"]?.[0] ?? c.author,
      op: c.trailers["Pantheon-Op"]?.[0] ?? "",
      summary: c.summary,
    })),
  };
}
