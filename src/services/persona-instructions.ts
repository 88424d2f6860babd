import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import { fenceData, renderTemplate } from "../assistants/render-template.js";
import { escapeInline } from "../domain/control-chars.js";
import { missionHandle, missionId, taskId } from "../domain/ids.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Project } from "../domain/schemas/project.js";
import type { Task } from "../domain/schemas/task.js";
import type { Context } from "./context.js";
import { projectVariables } from "./project-files.js";
import { withoutGeneratedMark } from "./generated-mark.js";

/** The persona file a summon uses: `.pantheon/personas/<role>-<variant>.md`, `<role>.md`, else the bundled template. */
export function personaTemplate(ctx: Context, root: string | null, role: string, variant?: string): { text: string; source: string } {
  const dir = root ? join(root, ".pantheon", "personas") : null;
  if (variant !== undefined) {
    if (!/^[a-z0-9][a-z0-9_-]{0,39}$/i.test(variant)) throw new UsageError(`Invalid template variant "${variant}"`, "a variant is a word such as custom or strict");
    const path = dir ? join(dir, `${role}-${variant}.md`) : null;
    if (!path || !existsSync(path)) {
      const have = dir && existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${role}-`)).map((f) => f.slice(role.length + 1, -3)) : [];
      throw new UsageError(`No persona template .pantheon/personas/${role}-${variant}.md`, have.length > 0 ? `variants of ${role}: ${have.join(", ")}` : `copy .pantheon/personas/${role}.md to ${role}-${variant}.md and edit it`);
    }
    return { text: withoutGeneratedMark(readFileSync(path, "utf8")), source: path };
  }
  const own = dir ? join(dir, `${role}.md`) : null;
  if (own && existsSync(own)) return { text: withoutGeneratedMark(readFileSync(own, "utf8")), source: own };
  const bundled = join(ctx.templatesDir, "personas", `${role}.md`);
  return { text: readFileSync(bundled, "utf8"), source: bundled };
}

/**
 * The persona's instructions: the role template with the persona, project and mission filled
 * in, then the mission's specifics. Everything quoted from records is fenced and labelled as
 * data, so a teammate's task title cannot pose as an instruction.
 */
export function renderInstructions(template: string, o: { project: Project; mission: Mission; task: Task | null; handoffs: Task[] }): string {
  const m = o.mission;
  // project.json is shared state anyone who can push may rewrite: its description reaches the
  // model fenced as data, as task text does (the files init wrote were reviewed when committed).
  const description = o.project.description.trim() === "" ? "" : fenceData("The project's description", o.project.description).trimEnd();
  const vars = {
    ...projectVariables(o.project),
    "project.description": description,
    persona: escapeInline(m.persona),
    role: m.role,
    "mission.id": missionId(m.number),
    "mission.handle": missionHandle(m),
    "mission.codename": m.codename,
  };
  const parts = [renderTemplate(template, vars).trimEnd(), "", "## This mission", "", `- Mission: ${missionHandle(m)} (pass \`--mission ${missionHandle(m)}\` on every pantheon call)`];
  if (m.objective) parts.push("", fenceData("The Director's objective for this mission", m.objective));
  if (o.task) {
    const t = o.task;
    parts.push("", `You hold task ${taskId(t)} (${t.status}).`, fenceData(`Task ${taskId(t)}`, [`Title: ${t.title}`, t.description ? `Description: ${t.description}` : "", ...t.notes.slice(-5).map((n) => `[${n.kind}] ${n.by}: ${n.text}`)].filter(Boolean).join("\n")));
  }
  if (o.handoffs.length > 0) {
    parts.push("", `Handed off to your role and waiting (claim one with \`pantheon task claim ID --mission ${missionHandle(m)}\`):`);
    for (const t of o.handoffs.slice(0, 10)) {
      const note = [...t.notes].reverse().find((n) => n.kind === "handoff");
      parts.push(fenceData(`${taskId(t)} handoff`, `Title: ${t.title}${note ? `\nHandoff note by ${note.by}: ${note.text}` : ""}`));
    }
  }
  return `${parts.join("\n")}\n`;
}

/** The first message to the assistant: who it is and the mission handle (the env may not reach every tool shell). */
export function kickoffText(m: Mission, task: Task | null): string {
  const start = task ? `Continue task ${taskId(task)}: run pantheon task show ${taskId(task)} --mission ${missionHandle(m)}` : `Start with pantheon task next --mission ${missionHandle(m)}`;
  return `You are ${escapeInline(m.persona)}, the ${m.role} persona of Pantheon mission ${missionHandle(m)}. Follow your persona instructions and pass --mission ${missionHandle(m)} on every pantheon command. ${start}, then tell the Director what you propose.`;
}
