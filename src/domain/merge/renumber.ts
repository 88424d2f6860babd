import type { Epic } from "../schemas/epic.js";
import type { Mission } from "../schemas/mission.js";
import type { Review } from "../schemas/review.js";
import type { Task } from "../schemas/task.js";

export type Kind = "tasks" | "epics" | "missions" | "reviews";
export type Renumbering = Record<Kind, Map<number, number>>;

export function emptyRenumbering(): Renumbering {
  return { tasks: new Map(), epics: new Map(), missions: new Map(), reviews: new Map() };
}

const map = (m: Map<number, number>, n: number) => m.get(n) ?? n;
const mapNull = (m: Map<number, number>, n: number | null) => (n === null ? null : map(m, n));

/**
 * Rewrites the references a LOCAL record makes to records that were renumbered: they meant
 * the local record, which now has a new number (DESIGN §3.4). Remote records are never
 * rewritten: their references already mean the published records.
 */
export function remapTask(t: Task, r: Renumbering): Task {
  return {
    ...t,
    dependencies: t.dependencies.map((n) => map(r.tasks, n)),
    epic: mapNull(r.epics, t.epic),
    mission: mapNull(r.missions, t.mission),
  };
}

export function remapReview(v: Review, r: Renumbering): Review {
  return { ...v, task: mapNull(r.tasks, v.task) };
}

export function remapEpic(e: Epic): Epic {
  return e;
}

export function remapMission(m: Mission): Mission {
  return m;
}
