import { activeClaimant, sameName } from "./actor.js";
import { describePath } from "./dependency-graph.js";
import { MAX_NUMBER, missionId, reviewId, taskId } from "./ids.js";
import { nameTrouble, shownName } from "./persona-names.js";
import { missionViolations, reviewViolations, taskViolations } from "./record-invariants.js";
import type { Counters } from "./schemas/counters.js";
import type { Epic } from "./schemas/epic.js";
import type { Mission } from "./schemas/mission.js";
import type { Review } from "./schemas/review.js";
import type { TaskSummary } from "./task-summary.js";

export interface Finding {
  /** "info": worth knowing, nothing wrong (doctor still reports the state healthy). */
  severity: "error" | "warning" | "info";
  code: string;
  /** The record or path it is about. */
  subject: string;
  message: string;
  /** The command that fixes it. */
  fix: string;
  /** Whether `doctor --fix` repairs it. */
  fixable: boolean;
}

export interface StateRecords {
  /** Summaries are enough for every check (no check reads a description or a note). */
  tasks: readonly TaskSummary[];
  epics: Epic[];
  missions: Mission[];
  reviews: Review[];
  counters: Counters | null;
}

const DAY = 86_400_000;

/** The record-level checks of `doctor`: references, cycles, invariants, counters, missions. */
export function checkRecords(s: StateRecords, now: Date, staleDays = 3): Finding[] {
  const out: Finding[] = [];
  const tasks = new Map(s.tasks.map((t) => [t.number, t]));
  const epics = new Set(s.epics.map((e) => e.number));
  const missions = new Map(s.missions.map((m) => [m.number, m]));
  const err = (code: string, subject: string, message: string, fix: string, fixable = true) =>
    out.push({ severity: "error", code, subject, message, fix, fixable });
  const warn = (code: string, subject: string, message: string, fix: string) =>
    out.push({ severity: "warning", code, subject, message, fix, fixable: false });
  // Each ACTIVE mission's latest task change, in one pass over the tasks.
  const lastTouch = new Map<number, number>();

  for (const t of s.tasks) {
    // Built only for a task there is something to say about: at 100,000 tasks the ids cost
    // more than the checks.
    let built: string | undefined;
    const id = () => (built ??= taskId(t));
    for (const d of t.dependencies)
      if (!tasks.has(d))
        err(
          "E_DANGLING_DEPENDENCY",
          id(),
          `${id()} depends on task ${d}, which does not exist`,
          "pantheon doctor --fix (drops the dependency)",
        );
    if (t.epic !== null && !epics.has(t.epic))
      err(
        "E_DANGLING_EPIC",
        id(),
        `${id()} is linked to epic ${t.epic}, which does not exist`,
        "pantheon doctor --fix (unlinks it)",
      );
    if (t.mission !== null && !missions.has(t.mission))
      err(
        "E_DANGLING_MISSION",
        id(),
        `${id()} names mission ${t.mission}, which does not exist`,
        "pantheon doctor --fix (clears the claim)",
      );
    for (const v of taskViolations(t))
      err("E_TASK_INVARIANT", id(), `${id()}: ${v}`, "pantheon doctor --fix (makes the claim consistent)");
    const holder = activeClaimant(t);
    const mission = t.mission === null ? undefined : missions.get(t.mission);
    if (holder && mission?.status === "ENDED") {
      // A task handed to review outlives its implementer's session: that is the normal way a
      // task waits for its reviewer, not an orphan. Said, not warned.
      if (t.status === "REVIEW")
        out.push({
          severity: "info",
          code: "I_AWAITING_REVIEW",
          subject: id(),
          message: `${id()} waits in REVIEW (its implementer ${holder}'s mission ${missionId(mission.number)} ended)`,
          fix: "pantheon review list --status PENDING",
          fixable: false,
        });
      else
        warn(
          "W_ORPHANED_CLAIM",
          id(),
          `${id()} is ${t.status}, claimed by ${holder} on ENDED mission ${missionId(mission.number)}`,
          `resume it: pantheon task claim ${id()} (or pantheon task unassign ${id()} --notes "...")`,
        );
    }
    if (mission?.status === "ACTIVE")
      lastTouch.set(mission.number, Math.max(lastTouch.get(mission.number) ?? 0, Date.parse(t.updatedAt)));
  }
  for (const cycle of findCycles(tasks)) {
    const ids = cycle.map((n) => taskId(tasks.get(n)!));
    const size = ids.length > 12 ? ` of ${ids.length.toLocaleString("en-US")} tasks` : "";
    warn(
      "W_CYCLE",
      ids[0]!,
      `dependency cycle${size}: ${describePath([...ids, ids[0]!])}`,
      `pantheon task undepend ${ids[0]} ${ids[1] ?? ids[0]}`,
    );
  }
  for (const r of s.reviews) {
    const id = reviewId(r.number);
    if (r.task !== null && !tasks.has(r.task))
      err(
        "E_DANGLING_REVIEW",
        id,
        `${id} is about task ${r.task}, which does not exist`,
        "pantheon doctor --fix (detaches it)",
      );
    for (const v of reviewViolations(r))
      err("E_REVIEW_INVARIANT", id, `${id}: ${v}`, `pantheon review show ${id}`, false);
  }
  for (const m of s.missions) {
    const id = missionId(m.number);
    for (const v of missionViolations(m))
      err("E_MISSION_INVARIANT", id, `${id}: ${v}`, `pantheon mission show ${id}`, false);
    const trouble = nameTrouble(m.persona);
    if (trouble)
      warn(
        "W_PERSONA_NAME",
        id,
        `${id}'s persona ${shownName(m.persona)} ${trouble}: nothing is done under it`,
        m.status === "ACTIVE" ? `pantheon mission end ${id}` : "nothing: the mission has ENDED",
      );
    if (m.status !== "ACTIVE") continue;
    const last = Math.max(Date.parse(m.updatedAt), lastTouch.get(m.number) ?? 0);
    if (now.getTime() - last > staleDays * DAY) {
      warn(
        "W_STALE_MISSION",
        id,
        `${id} (${m.persona}) is ACTIVE but nothing happened on it for ${Math.floor((now.getTime() - last) / DAY)} days`,
        `pantheon mission end ${id} (add --release to free its claims)`,
      );
    }
    const twins = s.missions.filter(
      (x) => x.status === "ACTIVE" && x.number !== m.number && sameName(x.persona, m.persona),
    );
    if (twins.length > 0 && twins.every((x) => x.number > m.number)) {
      warn(
        "W_DUPLICATE_PERSONA",
        m.persona,
        `${m.persona} is on two ACTIVE missions: ${[m, ...twins].map((x) => missionId(x.number)).join(", ")} (after a sync); both keep working`,
        `end one: pantheon mission end ${missionId(twins[0]!.number)}`,
      );
    }
  }
  if (s.counters) {
    for (const [kind, list] of [
      ["tasks", s.tasks],
      ["epics", s.epics],
      ["missions", s.missions],
      ["reviews", s.reviews],
    ] as const) {
      const max = Math.max(0, ...list.map((r) => r.number));
      if (s.counters[kind] < max)
        err(
          "E_COUNTER_BEHIND",
          "counters.json",
          `counters.json says ${kind} ${s.counters[kind]}, below the highest number in use (${max})`,
          "pantheon doctor --fix (raises it)",
        );
      // Numbers are never reused, so no command lowers it: the history shows who raised it.
      if (s.counters[kind] >= MAX_NUMBER)
        err(
          "E_COUNTER_EXHAUSTED",
          "counters.json",
          `counters.json says ${kind} ${s.counters[kind]}: no new ${kind} can be numbered (an id names at most ${MAX_NUMBER})`,
          "git log -p refs/coordination/main -- counters.json",
          false,
        );
    }
  }
  return out;
}

/** Each dependency cycle once, by an iterative depth-first search (O(tasks + dependencies)). */
export function findCycles(tasks: ReadonlyMap<number, Pick<TaskSummary, "dependencies">>): number[][] {
  const state = new Map<number, 1 | 2>(); // 1 = on the current path, 2 = done
  const cycles: number[][] = [];
  for (const start of tasks.keys()) {
    if (state.has(start)) continue;
    const path: number[] = [];
    const stack: Array<{ n: number; i: number }> = [{ n: start, i: 0 }];
    state.set(start, 1);
    path.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const deps = tasks.get(top.n)?.dependencies ?? [];
      if (top.i >= deps.length) {
        state.set(top.n, 2);
        stack.pop();
        path.pop();
        continue;
      }
      const d = deps[top.i++]!;
      if (!tasks.has(d)) continue;
      if (state.get(d) === 1) cycles.push(path.slice(path.indexOf(d)));
      else if (!state.has(d)) {
        state.set(d, 1);
        path.push(d);
        stack.push({ n: d, i: 0 });
      }
    }
  }
  return cycles;
}
