import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { AssistantAdapter, Launch } from "../../assistants/adapter.js";
import type { CodexSandboxChoice } from "../../domain/codex-sandbox-choice.js";
import { missionHandle } from "../../domain/ids.js";
import { priorityRank } from "../../domain/priority.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Task } from "../../domain/schemas/task.js";
import type { Snapshot } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { kickoffText, renderInstructions, type TaskRef } from "./persona-instructions.js";

/** Everything `summon` hands the assistant: the persona file, the kickoff and the argv. */
export interface SummonBrief {
  personaFile: string;
  personaText: string;
  kickoff: string;
  launch: Launch;
}

/** READY tasks of a role (the handoffs waiting for it), most urgent first, and how many there are. */
export async function readyHandoffs(
  snap: Snapshot,
  role: string,
  shown = 5,
): Promise<{ handoffs: TaskRef[]; total: number }> {
  const ready = (await snap.taskSummaries()).filter((t) => t.status === "READY" && t.role === role);
  ready.sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority) || a.number - b.number);
  return { handoffs: ready.slice(0, shown), total: ready.length };
}

/**
 * Renders the persona's brief into `sessionDir/persona.md`, builds the adapter's launch and
 * writes the files it asks for. Nothing here touches the ref.
 */
export async function writeBrief(
  ctx: Context,
  o: {
    adapter: AssistantAdapter;
    snap: Snapshot;
    project: Project;
    mission: Mission;
    task: Task | null;
    template: string;
    sessionDir: string;
    /** The folders pantheon writes in the common dir (Store.writableDirs). */
    writableDirs: readonly string[];
    /** The folder of this very Pantheon's `pantheon`, first on the session's PATH (pantheon-shim.ts). */
    pantheonDir?: string | undefined;
    /** codex: the sandbox the user chose (codex-settings.ts). */
    sandbox?: CodexSandboxChoice | null | undefined;
    cwd: string;
    model: string | undefined;
    sessionId: string;
    kickoff?: string | undefined;
    resumeSession?: string | undefined;
  },
): Promise<SummonBrief> {
  const { handoffs, total } = await readyHandoffs(o.snap, o.mission.role);
  const personaText = renderInstructions(o.template, {
    project: o.project,
    mission: o.mission,
    task: o.task,
    handoffs,
    handoffTotal: total,
  });
  const store = await ctx.store();
  // Files under <commondir>/pantheon/ go through the store, which gives them core.sharedRepository's bits.
  const own = join(store.commonDir, "pantheon");
  const write = async (path: string, text: string): Promise<void> => {
    if (path.startsWith(own + sep)) {
      await store.writeCloneFile(relative(own, path).split(sep).join("/"), text);
      return;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const personaFile = join(o.sessionDir, "persona.md");
  await write(personaFile, personaText);
  const kickoff = o.kickoff ?? kickoffText(o.mission, o.task);
  const launch = o.adapter.launch({
    projectDir: o.cwd,
    personaFile,
    personaText,
    sessionDir: o.sessionDir,
    writableDirs: o.writableDirs,
    sandbox: o.sandbox,
    pantheonDir: o.pantheonDir,
    parentEnv: ctx.env,
    kickoff,
    role: o.mission.role,
    model: o.model,
    missionHandle: missionHandle(o.mission),
    sessionId: o.sessionId,
    liveId: o.mission.uid,
    resumeSession: o.resumeSession,
  });
  for (const f of launch.files) await write(f.path, f.content);
  return { personaFile, personaText, kickoff, launch };
}
