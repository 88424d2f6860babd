import { missionHandle, missionId } from "../domain/ids.js";
import { emptyRefs, type Refs } from "../domain/refs.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { TaskSummary } from "../domain/schemas/task.js";
import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";
import { table } from "./table.js";
import { taskSummaryView, type TaskSummaryView } from "./task-view.js";

export interface MissionView {
  id: string;
  number: number;
  codename: string;
  /** The form to give a running assistant: it survives renumbering at sync. */
  handle: string;
  persona: string;
  role: Mission["role"];
  objective: string;
  status: Mission["status"];
  startedAt: string;
  endedAt: string | null;
  assistant: string | null;
  /** The assistant's own session id, when known (for resume). */
  sessionId: string | null;
  worktree: Mission["worktree"];
  headAtStart: string | null;
  headAtEnd: string | null;
  summary: string | null;
  formerIds: string[];
}

export function missionView(m: Mission): MissionView {
  return {
    id: missionId(m.number),
    number: m.number,
    codename: m.codename,
    handle: missionHandle(m),
    persona: m.persona,
    role: m.role,
    objective: m.objective,
    status: m.status,
    startedAt: m.startedAt,
    endedAt: m.endedAt,
    assistant: m.assistant,
    sessionId: m.sessionId ?? null,
    worktree: m.worktree,
    headAtStart: m.headAtStart,
    headAtEnd: m.headAtEnd,
    summary: m.summary,
    formerIds: m.formerNumbers.map(missionId),
  };
}

/** `MSN-0003 silent-phoenix: Hephaestus (engineer)`. */
export function missionLabel(m: MissionView): string {
  return `${m.id} ${m.codename}: ${escapeText(m.persona)} (${m.role})`;
}

export function missionTable(missions: MissionView[], style: Style): string {
  return table(
    [
      { header: "ID" },
      // The id names the mission; its codename goes first on a narrow terminal.
      { header: "CODENAME", drop: 1 },
      { header: "PERSONA" },
      { header: "ROLE" },
      { header: "STATUS", color: (v) => (v === "ACTIVE" ? style.paint.green : style.paint.gray) },
      // `2026-11-26 12:05` → `11-26 12:05` before the objective is cut.
      { header: "STARTED", min: 11, fit: (v) => v.slice(5) },
      { header: "OBJECTIVE", flex: true, min: 20 },
    ],
    missions.map((m) => [
      m.id,
      m.codename,
      m.persona,
      m.role,
      m.status,
      m.startedAt.replace("T", " ").slice(0, 16),
      m.objective,
    ]),
    style,
    "No missions: pantheon summon ROLE, or pantheon mission start --role ROLE",
  );
}

export function missionDetailText(m: MissionView, style: Style): string {
  const p = style.paint;
  const field = (k: string, v: string) => `${p.dim(k.padEnd(12))} ${v}`;
  const lines = [
    `${p.bold(m.id)}  ${m.codename}  ${escapeText(m.persona)} (${m.role})`,
    field("status", m.status === "ACTIVE" ? p.green(m.status) : m.status),
    field("started", m.startedAt.replace("T", " ").slice(0, 16)),
  ];
  if (m.endedAt) lines.push(field("ended", m.endedAt.replace("T", " ").slice(0, 16)));
  if (m.objective) lines.push(field("objective", escapeText(m.objective)));
  if (m.assistant) lines.push(field("assistant", escapeText(m.assistant)));
  if (m.sessionId) lines.push(field("session", escapeText(m.sessionId)));
  if (m.worktree)
    lines.push(
      field(
        "worktree",
        `${escapeText(m.worktree.path)} (${escapeText(m.worktree.branch)} from ${escapeText(m.worktree.base.slice(0, 12))})`,
      ),
    );
  if (m.summary) lines.push(field("summary", escapeText(m.summary)));
  return lines.join("\n");
}

export type MissionEndView = MissionView & {
  removedWorktree: string | null;
  deletedBranch: string | null;
  keptFiles: Array<{ file: string; copy: string }>;
};

/** What `mission end --remove-worktree` removed, deleted and kept. */
interface RemovedWorktree {
  removed: { path: string };
  deletedBranch: string | null;
  kept: Array<{ file: string; copy: string }>;
}

/** `mission end`: the mission, and the worktree removed with it (its released claims go under `changed`). */
export function missionEndView(r: { mission: Mission; worktree: RemovedWorktree | null }): MissionEndView {
  const w = r.worktree;
  return {
    ...missionView(r.mission),
    removedWorktree: w?.removed.path ?? null,
    deletedBranch: w?.deletedBranch ?? null,
    keptFiles: w?.kept ?? [],
  };
}

export interface MissionCommit {
  oid: string;
  date: string;
  author: string;
  summary: string;
}

export type MissionDetailView = MissionView & {
  claims: TaskSummaryView[];
  completed: TaskSummaryView[];
  commits: MissionCommit[];
};

/** `mission show`: the mission, its live claims, what it completed and the code commits naming it. */
export function missionDetailView(r: {
  mission: Mission;
  claims: readonly TaskSummary[];
  completed: readonly TaskSummary[];
  commits: MissionCommit[];
  refs?: Refs;
}): MissionDetailView {
  // The refs name the tasks' dependencies and epics by id (without them: `?-1`).
  const refs = r.refs ?? emptyRefs();
  const summary = (t: TaskSummary) => taskSummaryView(t, refs);
  return {
    ...missionView(r.mission),
    claims: r.claims.map(summary),
    completed: r.completed.map(summary),
    commits: r.commits,
  };
}
