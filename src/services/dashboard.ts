import { activeClaimant } from "../domain/actor.js";
import type { Dashboard } from "../domain/dashboard.js";
import { activeMissionsOf } from "../domain/persona-names.js";
import type { TaskRole } from "../domain/roles.js";
import type { TaskSummary as Task } from "../domain/schemas/task.js";
import { blockedTasks, statusReport, taskReport } from "../domain/task-questions.js";
import type { Context } from "./context.js";
import { epicDetail, findEpic } from "./epics.js";
import { loadAllRefs } from "./find-task.js";
import { reviewRefs } from "./reviews.js";

/** Blocked tasks a dashboard shows; past that it counts them and points to `task blocked`. */
const DASHBOARD_BLOCKED = 15;

/** Everything the Director looks at, from one snapshot; `epic` and `role` narrow it. */
export async function buildDashboard(ctx: Context, o: { epic?: string; role?: TaskRole; recent?: number }): Promise<Dashboard> {
  const store = await ctx.store();
  const snap = await store.snapshot();
  const [project, refs, allMissions, allReviews, recent] = await Promise.all([
    snap.project(), loadAllRefs(snap), snap.all("missions"), snap.all("reviews"), store.log({ limit: o.recent ?? 8 }),
  ]);
  const focus = o.epic !== undefined ? await findEpic(snap, o.epic) : null;
  const inScope = (t: Task) => (!o.role || t.role === o.role) && (!focus || t.epic === focus.number);
  const all = [...refs.tasks.values()];
  const tasks = all.filter(inScope);
  const lookup = (n: number) => refs.tasks.get(n);
  const missionByNumber = new Map(allMissions.map((m) => [m.number, m]));
  const active = allMissions.filter((m) => m.status === "ACTIVE" && (!o.role || m.role === o.role));
  const reviews = allReviews.filter((r) => r.status === "PENDING" && (r.task === null ? !focus && !o.role : tasks.some((t) => t.number === r.task)));
  await reviewRefs(snap, reviews, refs);
  const blocked = blockedTasks(tasks, lookup);
  // Unnarrowed, the counts come from the read cache's status column.
  const statuses = !o.role && !focus ? refs.tasks.statuses?.() : null;
  // One pass for every epic's tasks, and one for every mission's claims: not one pass each.
  const byEpic = refs.epics.size > 0 && !focus ? groupBy(all, (t) => t.epic) : new Map<number | null, Task[]>();
  const claimsByMission = active.length > 0 ? groupBy(all.filter((t) => activeClaimant(t) !== null), (t) => t.mission) : new Map<number | null, Task[]>();
  return {
    project,
    missions: active.map((mission) => ({ mission, claims: claimsByMission.get(mission.number) ?? [] })),
    duplicateNames: [...new Set(active.filter((m) => activeMissionsOf(m.persona, allMissions).length > 1).map((m) => m.persona))],
    report: statuses ? statusReport(statuses) : taskReport(tasks),
    epics: focus ? [] : [...refs.epics.values()].map((e) => epicDetail(e, byEpic.get(e.number) ?? [], refs)).filter((e) => !o.role || e.tasks.some(inScope)),
    blocked: blocked.slice(0, DASHBOARD_BLOCKED),
    blockedTotal: blocked.length,
    reviews,
    orphanedClaims: tasks
      .filter((t) => activeClaimant(t) !== null && (t.mission === null || missionByNumber.get(t.mission)?.status !== "ACTIVE"))
      .map((task) => ({ task, mission: task.mission === null ? null : (missionByNumber.get(task.mission) ?? null) })),
    recent,
    refs,
    epic: focus ? epicDetail(focus, all, refs) : null,
    role: o.role ?? null,
  };
}

function groupBy<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

export type { Dashboard };
