import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AssistantName, Launch } from "../assistants/adapter.js";
import { nodeCrypto } from "../lazy-require.js";
import { adapterFor } from "../assistants/registry.js";
import { missionHandle } from "../domain/ids.js";
import { checkPersonaName } from "../domain/persona-names.js";
import type { Role } from "../domain/roles.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Project } from "../domain/schemas/project.js";
import type { Snapshot, Store } from "../store/store.js";
import type { Task } from "../domain/schemas/task.js";
import type { Context } from "./context.js";
import { endMission } from "./end-mission.js";
import { defaultPersonaName } from "./default-persona-name.js";
import { kickoffText, personaTemplate, renderInstructions } from "./persona-instructions.js";
import { createPersonaWorktree, recordWorktree } from "./persona-worktree.js";
import { pickAssistant } from "./pick-assistant.js";
import { startMission } from "./start-mission.js";
import { claimTask } from "./transition-task.js";
import { checkText } from "./validate-input.js";
import { findTask } from "./find-task.js";
import { NotFoundError } from "../errors.js";
import { freshnessLine } from "../domain/freshness.js";

export interface SummonInput {
  role: Role;
  persona?: string | undefined;
  task?: string | undefined;
  objective?: string | undefined;
  assistant?: string | undefined;
  model?: string | undefined;
  template?: string | undefined;
  worktree?: boolean | undefined;
  branch?: string | undefined;
  dryRun?: boolean | undefined;
}

export interface SummonPlan {
  assistant: AssistantName;
  mission: Mission;
  launch: Launch;
  personaFile: string;
  cwd: string;
  kickoff: string;
  template: string;
}

export interface SummonResult {
  plan: SummonPlan;
  /** The assistant's exit code (null for --dry-run). */
  exitCode: number | null;
  task: Task | null;
}

/**
 * `pantheon summon`: registers the mission first, claims the task, renders the persona's
 * instructions, starts the assistant with an argv array, waits, ends the mission when it exits
 * and returns its exit code. Any failure before the assistant runs ends the mission again, so
 * none is left ACTIVE. `dryRun` changes nothing and returns the plan.
 */
export async function summon(ctx: Context, input: SummonInput): Promise<SummonResult> {
  checkText(input.objective, "--objective");
  const store = await ctx.store();
  const snap = await store.snapshot();
  const project = await snap.project();
  const code = await store.code().catch(() => null);
  const adapter = pickAssistant(ctx, { flag: input.assistant, gitConfig: safeConfig(() => code?.config("pantheon.assistant")), project, allowMissing: Boolean(input.dryRun) });
  const template = personaTemplate(ctx, store.root, input.role, input.template);
  if (input.dryRun) return dryRun(ctx, input, adapter.name, template, project, snap);

  let mission = await startMission(ctx, { role: input.role, persona: input.persona, objective: input.objective, assistant: adapter.name });
  const handle = missionHandle(mission);
  const asMission: Context = { ...ctx, actorFlags: { mission: handle } };
  let task: Task | null = null;
  try {
    if (input.worktree) mission = await recordWorktree(asMission, handle, await createPersonaWorktree(ctx, store, project, mission, input.branch));
    if (input.task !== undefined) task = (await claimTask(asMission, { id: input.task, force: false })).task;
  } catch (e) {
    await endMission(asMission, { id: handle, summary: `summon failed before the assistant started: ${(e as Error).message}`, release: true }).catch(() => undefined);
    throw e;
  }
  const fresh = await store.snapshot();
  const handoffs = await readyHandoffs(fresh, mission.role);
  const text = renderInstructions(template.text, { project, mission, task, handoffs });
  const personaFile = await writePersonaFile(store, `${handle.replace(":", "-")}.md`, text, await fresh.all("missions"));
  const kickoff = kickoffText(mission, task);
  const cwd = mission.worktree?.path ?? code?.root ?? ctx.cwd;
  const launch = adapter.launch({ projectDir: cwd, personaFile, personaText: text, kickoff, role: mission.role, model: input.model, missionHandle: handle, sessionId: nodeCrypto().randomUUID() });
  const plan: SummonPlan = { assistant: adapter.name, mission, launch, personaFile, cwd, kickoff, template: template.source };
  // The persona works on this clone's state: say when it is not in step with the remote (DESIGN §3.5).
  const stale = freshnessLine(await store.freshness().catch(() => []));
  if (stale) ctx.warn(stale);
  let exitCode: number;
  try {
    exitCode = await ctx.launcher.run(launch.command, launch.args, { cwd, env: launch.env });
  } catch (e) {
    rmSync(personaFile, { force: true });
    await endMission(asMission, { id: handle, summary: `${adapter.binary} could not start: ${(e as Error).message}` }).catch(() => undefined);
    // On PATH but not runnable (a broken install, a missing interpreter): say how to fix it.
    throw new NotFoundError(`${adapter.binary} could not be started (${(e as Error).message}); mission ${handle} was ended`, `reinstall it: ${adapter.installHint}`);
  }
  rmSync(personaFile, { force: true }); // read by the assistant at its start; nothing needs it now
  // /dismiss inside the assistant may have ended it already; that is fine.
  await endMission(asMission, { id: handle, summary: `${adapter.binary} exited with code ${exitCode}` }).catch(() => undefined);
  return { plan, exitCode, task };
}

/** READY tasks of a role, full records (their handoff notes go into the persona's instructions). */
async function readyHandoffs(snap: Snapshot, role: string): Promise<Task[]> {
  const ready = (await snap.taskSummaries()).filter((t) => t.status === "READY" && t.role === role).slice(0, 10);
  return (await Promise.all(ready.map((t) => snap.get("tasks", t.number)))).filter((t): t is Task => t !== null);
}

/**
 * Writes a rendered persona file into `<commondir>/pantheon/personas/` (never the working tree)
 * and returns its path. Files do not pile up there: summon removes its own when the assistant
 * exits, a dry run rewrites one file per role, and files of missions this snapshot knows ENDED
 * (a summon that was killed) are swept. A mission the snapshot does not know may be another
 * summon's that started a moment ago: its file is left alone.
 */
async function writePersonaFile(store: Store, name: string, text: string, missions: readonly Mission[]): Promise<string> {
  const dir = join(store.commonDir, "pantheon", "personas");
  const ended = new Set(missions.filter((m) => m.status === "ENDED").map((m) => `${missionHandle(m).replace(":", "-")}.md`));
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    // no folder yet: nothing to sweep
  }
  for (const f of files) if (ended.has(f)) rmSync(join(dir, f), { force: true });
  // In <commondir>/pantheon/personas/, with core.sharedRepository's bits (the store writes it).
  return store.writeCloneFile(`personas/${name}`, text);
}

function safeConfig(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The plan without side effects: a preview mission, the persona file in a temporary folder. */
async function dryRun(ctx: Context, input: SummonInput, assistant: AssistantName, template: { text: string; source: string }, project: Project, snap: Snapshot): Promise<SummonResult> {
  const stale = freshnessLine(await (await ctx.store()).freshness().catch(() => []));
  if (stale) ctx.warn(stale);
  const missions = await snap.all("missions");
  const persona = (input.persona === undefined ? undefined : checkPersonaName(input.persona, "--persona")) || (await defaultPersonaName(ctx, snap, input.role, missions)).name || "Persona";
  const at = ctx.now().toISOString();
  const number = (await snap.counters()).missions + 1;
  const mission: Mission = {
    uid: "dry-run", number, codename: "dry-run", persona, role: input.role, objective: input.objective ?? "", status: "ACTIVE", startedAt: at, endedAt: null,
    assistant, worktree: null, headAtStart: null, headAtEnd: null, summary: null, formerNumbers: [], createdAt: at, updatedAt: at, createdBy: persona,
  };
  // The task is shown as the real summon would show it; whether it can be claimed is checked then.
  const task = input.task !== undefined ? await findTask(snap, input.task, ctx) : null;
  const text = renderInstructions(template.text, { project, mission, task, handoffs: await readyHandoffs(snap, input.role) });
  const personaFile = await writePersonaFile(await ctx.store(), `dry-run-${input.role}.md`, text, missions);
  const kickoff = kickoffText(mission, task);
  const store = await ctx.store();
  const cwd = store.root ?? ctx.cwd;
  const launch = adapterFor(assistant).launch({ projectDir: cwd, personaFile, personaText: text, kickoff, role: input.role, model: input.model, missionHandle: missionHandle(mission), sessionId: nodeCrypto().randomUUID() });
  return { plan: { assistant, mission, launch, personaFile, cwd, kickoff, template: template.source }, exitCode: null, task };
}
