import { rmSync } from "node:fs";
import { join } from "node:path";
import type { AssistantAdapter } from "../../assistants/adapter.js";
import { checkPersonaName } from "../../domain/persona-names.js";
import type { Role } from "../../domain/roles.js";
import type { Project } from "../../domain/schemas/project.js";
import { freshnessLine } from "../../domain/freshness.js";
import type { Snapshot } from "../../store/store.js";
import { codexSettings } from "./codex-settings.js";
import type { Context } from "../kernel/context.js";
import { defaultPersonaName } from "../missions/default-persona-name.js";
import { findTask } from "../kernel/find-task.js";
import { writePantheonShim } from "./pantheon-shim.js";
import type { SummonInput, SummonResult } from "./summon.js";
import { writeBrief } from "./summon-brief.js";
import { resumeKickoff, type ResumePlan } from "./summon-resume.js";
import { sessionsDir } from "./summon-sessions.js";
import { newMission } from "../../domain/new-mission.js";

/** The plan without side effects: a preview mission, the brief in a temporary folder. */
export async function dryRun(
  ctx: Context,
  input: SummonInput & { role: Role },
  adapter: AssistantAdapter,
  template: { text: string; source: string },
  project: Project,
  snap: Snapshot,
  sessionId: string,
  resume: ResumePlan | null,
): Promise<SummonResult> {
  const stale = freshnessLine(await (await ctx.store()).freshness().catch(() => []));
  if (stale) ctx.warn(stale);
  const missions = await snap.all("missions");
  const persona =
    (input.persona === undefined ? undefined : checkPersonaName(input.persona, "--persona")) ||
    (await defaultPersonaName(ctx, snap, input.role, missions)).name ||
    "Persona";
  const at = ctx.now().toISOString();
  const number = (await snap.counters()).missions + 1;
  const preview = newMission({
    uid: "dry-run",
    number,
    codename: "dry-run",
    persona,
    role: input.role,
    objective: input.objective ?? "",
    assistant: adapter.name,
    worktree: null,
    headAtStart: null,
    at,
  });
  const mission = resume?.reuse
    ? resume.mission
    : resume
      ? { ...preview, persona: resume.mission.persona, objective: resume.mission.objective }
      : preview;
  // The task is shown as the real summon would show it; whether it can be claimed is checked then.
  const task = input.task !== undefined ? await findTask(snap, input.task, ctx) : null;
  const store = await ctx.store();
  const cwd = store.root ?? ctx.cwd;
  // One folder per role, rewritten by the next dry run: nothing piles up, nothing in /tmp.
  const sessionDir = join(sessionsDir(store.commonDir), `dry-run-${input.role}`);
  rmSync(sessionDir, { recursive: true, force: true });
  const kickoff = resume ? await resumeKickoff(snap, resume.mission, mission, resume.since) : undefined;
  const brief = await writeBrief(ctx, {
    adapter,
    snap,
    project,
    mission,
    task,
    template: template.text,
    sessionDir,
    writableDirs: await store.writableDirs({ create: false }),
    pantheonDir: ctx.self ? writePantheonShim(store.commonDir, ctx.self) : undefined,
    sandbox: adapter.name === "codex" ? codexSettings(ctx, { cwd, commonDir: store.commonDir }).sandbox : undefined,
    cwd,
    model: input.model,
    sessionId,
    kickoff,
    resumeSession: resume?.sessionId,
  });
  return {
    plan: {
      assistant: adapter.name,
      mission,
      launch: brief.launch,
      personaFile: brief.personaFile,
      cwd,
      kickoff: brief.kickoff,
      template: template.source,
    },
    exitCode: null,
    task,
    received: null,
    resume: null,
  };
}
