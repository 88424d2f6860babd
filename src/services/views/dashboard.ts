import type { Dashboard } from "../../domain/dashboard.js";
import { activeMissionsOf } from "../../domain/persona-names.js";
import type { TaskRole } from "../../domain/roles.js";
import type { TaskSummary as Task } from "../../domain/schemas/task.js";
import { claimedPositions, columnsOf, positions, ROLE_CODE } from "../../domain/task-columns.js";
import { blockedTasks, columnsReport } from "../../domain/task-questions.js";
import type { Context } from "../kernel/context.js";
import { epicDetail, findEpic } from "../work/epics.js";
import { loadAllRefs } from "../kernel/find-task.js";
import { reviewRefs } from "../work/reviews.js";
import { missionLives } from "../live/live-missions.js";
import { liveOptions } from "../live/live-status.js";

/** Blocked tasks a dashboard shows; past that it counts them and points to `task blocked`. */
const DASHBOARD_BLOCKED = 15;

/** Everything the Director looks at, from one snapshot; `epic` and `role` narrow it. */
export async function buildDashboard(
  ctx: Context,
  o: { epic?: string; role?: TaskRole; recent?: number },
): Promise<Dashboard> {
  const store = await ctx.store();
  const snap = await store.snapshot();
  const focus = o.epic !== undefined ? await findEpic(snap, o.epic, ctx) : null;
  const limit = o.recent ?? 8;
  const [project, refs, allMissions, allReviews, recentAll] = await Promise.all([
    snap.project(),
    loadAllRefs(snap),
    snap.all("missions"),
    snap.all("reviews"),
    focus ? null : store.log({ limit }),
  ]);
  // Every question below reads the columns (the read cache's table): only the tasks shown are built.
  const cols = columnsOf(refs.tasks);
  const inScope = (t: Pick<Task, "role" | "epic">) =>
    (!o.role || t.role === o.role) && (!focus || t.epic === focus.number);
  const [role, epic] = [o.role ? ROLE_CODE[o.role] : -1, focus ? focus.number : -1];
  const scoped =
    !o.role && !focus
      ? undefined
      : (i: number) => (role < 0 || cols.role[i] === role) && (epic < 0 || cols.epic[i] === epic);
  const missionByNumber = new Map(allMissions.map((m) => [m.number, m]));
  const claimed = claimedPositions(cols);
  // With --epic, a persona is on the dashboard for its claims on the epic's tasks, and only those.
  const claimsByMission = groupBy(
    focus ? claimed.filter((i) => cols.epic[i] === epic) : claimed,
    (i) => cols.mission[i]!,
  );
  const active = allMissions.filter(
    (m) => m.status === "ACTIVE" && (!o.role || m.role === o.role) && (!focus || claimsByMission.has(m.number)),
  );
  const reviews = allReviews.filter((r) => {
    if (r.status !== "PENDING") return false;
    const t = r.task === null ? undefined : refs.tasks.get(r.task);
    return r.task === null ? !focus && !o.role : t !== undefined && inScope(t);
  });
  await reviewRefs(snap, reviews, refs);
  const blocked = blockedTasks(cols, scoped);
  // One pass for every epic's tasks, and one for every claim: not one pass each.
  const byEpic =
    refs.epics.size > 0 && !focus
      ? groupBy(
          positions(cols, (i) => cols.epic[i] !== 0),
          (i) => cols.epic[i]!,
        )
      : new Map<number, number[]>();
  const tasksAt = (list: readonly number[] | undefined) => (list ?? []).map((i) => cols.task(i));
  const lives = missionLives(store.commonDir, active, await liveOptions(ctx, store));
  // With --epic, the activity on the epic and its tasks (by the commits' Pantheon-Records).
  const recent =
    recentAll ??
    (await store.log({
      limit,
      record: [`epics/${epic}`, ...positions(cols, (i) => cols.epic[i] === epic).map((i) => `tasks/${cols.number[i]}`)],
    }));
  return {
    project,
    missions: active.map((mission) => ({
      mission,
      claims: tasksAt(claimsByMission.get(mission.number)),
      live: lives.get(mission.number) ?? null,
    })),
    duplicateNames: [
      ...new Set(active.filter((m) => activeMissionsOf(m.persona, allMissions).length > 1).map((m) => m.persona)),
    ],
    report: columnsReport(cols, scoped),
    epics: focus
      ? []
      : [...refs.epics.values()]
          .map((e) => epicDetail(e, tasksAt(byEpic.get(e.number)), refs))
          .filter((e) => !o.role || e.tasks.some(inScope)),
    blocked: tasksAt(blocked.slice(0, DASHBOARD_BLOCKED)),
    blockedTotal: blocked.length,
    reviews,
    orphanedClaims: tasksAt(claimed.filter((i) => !scoped || scoped(i)))
      .filter((t) => t.mission === null || missionByNumber.get(t.mission)?.status !== "ACTIVE")
      .map((task) => ({ task, mission: task.mission === null ? null : (missionByNumber.get(task.mission) ?? null) })),
    recent,
    refs,
    epic: focus ? epicDetail(focus, tasksAt(positions(cols, (i) => cols.epic[i] === epic)), refs) : null,
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
