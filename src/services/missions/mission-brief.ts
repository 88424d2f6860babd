import { fenceData } from "../../assistants/render-template.js";
import { openCriteria } from "../../domain/acceptance.js";
import { missionHandle, missionId, taskId } from "../../domain/ids.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Task } from "../../domain/schemas/task.js";

/** DESIGN §5: the mission part of a brief stays this short whatever the size of the project. */
export const MISSION_PART_MAX = 1_500;

/** A task as the brief lists it: id and title only. */
export type TaskRef = Pick<Task, "number" | "role" | "priority" | "title">;

interface Limits {
  objective: number;
  title: number;
  handoffs: number;
  handoffTitle: number;
  /** Open acceptance criteria of the claimed task quoted, and how much of each. */
  criteria: number;
  criterion: number;
}

// Tried in order until the mission part fits; the last one fits for any record text.
const LIMITS: Limits[] = [
  { objective: 200, title: 120, handoffs: 4, handoffTitle: 80, criteria: 5, criterion: 100 },
  { objective: 120, title: 60, handoffs: 3, handoffTitle: 40, criteria: 3, criterion: 50 },
  { objective: 60, title: 30, handoffs: 0, handoffTitle: 0, criteria: 0, criterion: 0 },
];

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * The "## This mission" part of a persona's brief, at most MISSION_PART_MAX characters for any
 * project: ids and short titles, and the commands that show the rest, so that a project with
 * thousands of handoffs or 20,000-character records costs every turn the same few hundred
 * tokens. Everything quoted from records is in one fenced block labelled as data, so a
 * teammate's task title cannot pose as an instruction.
 */
export function missionPart(o: {
  mission: Mission;
  task: Task | null;
  handoffs: readonly TaskRef[];
  handoffTotal?: number;
}): string {
  let text = "";
  for (const limits of LIMITS) {
    text = build(o, limits);
    if (text.length <= MISSION_PART_MAX) break;
  }
  return text;
}

function build(
  o: { mission: Mission; task: Task | null; handoffs: readonly TaskRef[]; handoffTotal?: number },
  l: Limits,
): string {
  const m = o.mission;
  const h = missionHandle(m);
  const lines = [
    "## This mission",
    "",
    `- Mission: ${h} (pass \`--mission ${h}\` on every pantheon call)`,
    `- Your claims: \`pantheon task mine --mission ${h}\`; what to do next: \`pantheon task next --mission ${h}\``,
  ];
  const quoted: string[] = [];
  if (m.objective) {
    const whole = m.objective.replace(/\s+/g, " ").trim().length <= l.objective;
    lines.push(
      `- The Director's objective is quoted below${whole ? "" : ` (all of it: \`pantheon mission show ${missionId(m.number)}\`)`}.`,
    );
    quoted.push(`Objective: ${clip(m.objective, l.objective)}`);
  }
  if (o.task) {
    const id = taskId(o.task);
    lines.push(
      `- You hold ${id} (${o.task.status}); its description and notes: \`pantheon task show ${id} --mission ${h}\`.`,
    );
    quoted.push(`Your task ${id}: ${clip(o.task.title, l.title)}`);
    // What "done" means for it: the criteria still open, each checked when met (DESIGN §1.3).
    const open = openCriteria(o.task.acceptance);
    if (open.length > 0) {
      const shown = open.slice(0, l.criteria);
      lines.push(
        `- Its acceptance criteria not yet met: ${open.length}${shown.length < open.length ? ` (${shown.length} quoted; all: \`pantheon task show ${id}\`)` : " (quoted below)"}; check each when it holds: \`pantheon task check ${id} N --mission ${h}\`.`,
      );
      for (const { n, criterion } of shown)
        quoted.push(`Criterion ${n} of ${id}: ${clip(criterion.text, l.criterion)}`);
    }
  }
  const total = o.handoffTotal ?? o.handoffs.length;
  const shown = o.handoffs.slice(0, l.handoffs);
  if (total > 0) {
    const all = total > shown.length ? `; all of them: \`pantheon task list --status READY --role ${m.role}\`` : "";
    lines.push(
      `- Handed off to your role and waiting: ${total} (read one with \`pantheon task show ID\`, claim it with \`pantheon task claim ID --mission ${h}\`${all}).`,
    );
    for (const t of shown) quoted.push(`Handoff ${taskId(t)}: ${clip(t.title, l.handoffTitle)}`);
  }
  if (quoted.length > 0) lines.push("", fenceData("Mission data", quoted.join("\n")).trimEnd());
  return `${lines.join("\n")}\n`;
}
