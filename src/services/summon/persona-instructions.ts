import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { fenceData, renderTemplate } from "../../assistants/render-template.js";
import { missionPart, type TaskRef } from "../missions/mission-brief.js";
import { escapeInline } from "../../domain/control-chars.js";
import { withoutGeneratedMark } from "../project/generated-mark.js";
import { missionHandle, missionId, taskId } from "../../domain/ids.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Context } from "../kernel/context.js";
import { projectVariables } from "../project/project-files.js";

export { MISSION_PART_MAX, type TaskRef } from "../missions/mission-brief.js";

/**
 * The persona file a summon uses: `.pantheon/personas/<role>-<variant>.md`, `<role>.md`, else
 * the bundled template. A template longer than TEMPLATE_MAX is used whole, with a warning.
 */
export function personaTemplate(
  ctx: Context,
  root: string | null,
  role: string,
  variant?: string,
): { text: string; source: string } {
  const found = findPersonaTemplate(ctx, root, role, variant);
  if (found.text.length > TEMPLATE_MAX) {
    // Pantheon's own copy from an older version is refreshed by init --force; a variant is the user's.
    const refresh = found.source.endsWith(join(".pantheon", "personas", `${role}.md`))
      ? " (pantheon init --force rewrites it from the shipped one)"
      : "";
    ctx.warn(
      `${found.source} is ${found.text.length.toLocaleString("en-US")} characters (shipped persona templates stay under ${TEMPLATE_MAX.toLocaleString("en-US")}); it is passed whole, and the assistant reads all of it on every turn${refresh}`,
    );
  }
  return found;
}

function findPersonaTemplate(
  ctx: Context,
  root: string | null,
  role: string,
  variant?: string,
): { text: string; source: string } {
  const dir = root ? join(root, ".pantheon", "personas") : null;
  if (variant !== undefined) {
    if (!/^[a-z0-9][a-z0-9_-]{0,39}$/i.test(variant))
      throw new UsageError(`Invalid template variant "${variant}"`, "a variant is a word such as custom or strict");
    const path = dir ? join(dir, `${role}-${variant}.md`) : null;
    if (!path || !existsSync(path)) {
      const have =
        dir && existsSync(dir)
          ? readdirSync(dir)
              .filter((f) => f.startsWith(`${role}-`))
              .map((f) => f.slice(role.length + 1, -3))
          : [];
      throw new UsageError(
        `No persona template .pantheon/personas/${role}-${variant}.md`,
        have.length > 0
          ? `variants of ${role}: ${have.join(", ")}`
          : `copy .pantheon/personas/${role}.md to ${role}-${variant}.md and edit it`,
      );
    }
    return { text: withoutGeneratedMark(readFileSync(path, "utf8")), source: path };
  }
  const own = dir ? join(dir, `${role}.md`) : null;
  if (own && existsSync(own)) return { text: withoutGeneratedMark(readFileSync(own, "utf8")), source: own };
  const bundled = join(ctx.templatesDir, "personas", `${role}.md`);
  return { text: readFileSync(bundled, "utf8"), source: bundled };
}

/** DESIGN §5: a role template longer than this is passed whole, with a warning. */
export const TEMPLATE_MAX = 4_000;

/**
 * The persona's instructions: the role template with the persona, project and mission filled
 * in, then the mission part (mission-brief.ts), bounded for any project.
 */
export function renderInstructions(
  template: string,
  o: { project: Project; mission: Mission; task: Task | null; handoffs: readonly TaskRef[]; handoffTotal?: number },
): string {
  const m = o.mission;
  // project.json is shared state anyone who can push may rewrite: its description reaches the
  // model fenced as data, as task text does (the files init wrote were reviewed when committed).
  const description =
    o.project.description.trim() === "" ? "" : fenceData("The project's description", o.project.description).trimEnd();
  const vars = {
    ...projectVariables(o.project),
    "project.description": description,
    persona: escapeInline(m.persona),
    role: m.role,
    "mission.id": missionId(m.number),
    "mission.handle": missionHandle(m),
    "mission.codename": m.codename,
  };
  return `${renderTemplate(template, vars).trimEnd()}\n\n${missionPart(o)}`;
}

/** The first message to the assistant: who it is and the mission handle (the env may not reach every tool shell). */
export function kickoffText(m: Mission, task: Task | null): string {
  const start = task
    ? `Continue task ${taskId(task)}: run pantheon task show ${taskId(task)} --mission ${missionHandle(m)}`
    : `Start with pantheon task next --mission ${missionHandle(m)}`;
  return `You are ${escapeInline(m.persona)}, the ${m.role} persona of Pantheon mission ${missionHandle(m)}. Follow your persona instructions and pass --mission ${missionHandle(m)} on every pantheon command. ${start}, then tell the Director what you propose.`;
}
