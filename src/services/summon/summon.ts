import { rmSync } from "node:fs";
import { join } from "node:path";
import type { AssistantName, Launch } from "../../assistants/adapter.js";
import { nodeCrypto } from "../../lazy-require.js";
import { missionHandle, missionId, printable } from "../../domain/ids.js";
import { MODEL_NAME } from "../../domain/record-formats.js";
import { checkPersonaName } from "../../domain/persona-names.js";
import type { Role } from "../../domain/roles.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Task } from "../../domain/schemas/task.js";
import type { CodeRepo, Snapshot } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { endMission } from "../missions/end-mission.js";
import { tellCodexHookTrust } from "./hook-trust-notice.js";
import { defaultPersonaName } from "../missions/default-persona-name.js";
import { personaTemplate } from "./persona-instructions.js";
import { createPersonaWorktree, recordWorktree, refuseStateBase } from "../worktrees/persona-worktree.js";
import { pickAssistant } from "./pick-assistant.js";
import { startMission } from "../missions/start-mission.js";
import { writeBrief } from "./summon-brief.js";
import { dryRun } from "./summon-dry-run.js";
import { writePantheonShim } from "./pantheon-shim.js";
import { sessionsDir, sweepEndedSessions } from "./summon-sessions.js";
import { markSession, markSessionEnded, readLiveFile } from "../live/live-events.js";
import { planResume, resumeKickoff } from "./summon-resume.js";
import { removeSummonRecord, writeSummonRecord } from "../live/summon-record.js";
import { claimTask } from "../work/transition-task.js";
import { checkClaimable } from "../work/claim-check.js";
import { codexNotices, codexSettings, type CodexSettings } from "./codex-settings.js";
import { checkText } from "../kernel/validate-input.js";
import { NotFoundError, UsageError } from "../../errors.js";
import { freshnessLine } from "../../domain/freshness.js";

export interface SummonInput {
  /** The role; when absent, `askRole` is asked, after the assistant is known to be installed. */
  role?: Role | undefined;
  askRole?: (() => Promise<Role>) | undefined;
  persona?: string | undefined;
  task?: string | undefined;
  objective?: string | undefined;
  assistant?: string | undefined;
  model?: string | undefined;
  template?: string | undefined;
  worktree?: boolean | undefined;
  branch?: string | undefined;
  dryRun?: boolean | undefined;
  /**
   * `--resume MSN`: the same assistant on the same session, under that mission (or a new one of
   * its persona when it ENDED); its kickoff says what changed since.
   */
  resume?: string | undefined;
  /** Called once the mission is recorded, just before the assistant takes the terminal. */
  onLaunch?: ((plan: SummonPlan) => void) | undefined;
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
  /** The signal that ended the session from outside (terminal closed, kill), if any. */
  received: "SIGHUP" | "SIGTERM" | null;
  /** The command that reopens the session as this persona, when the session can be resumed. */
  resume: string | null;
}

/**
 * `pantheon summon`: checks that the assistant is installed, registers the mission, claims the
 * task, writes the persona's brief, starts the assistant with an argv array, waits, ends the
 * mission when the session ends however it ends (exit, Ctrl-C, terminal closed, SIGTERM) and
 * returns the assistant's exit code. While it runs, a summon record in the common dir lets the
 * dashboard and `doctor` see a summon that died without ending its mission. Any failure before
 * the assistant runs ends the mission again, so none is left ACTIVE. `dryRun` changes nothing.
 */
export async function summon(ctx: Context, input: SummonInput): Promise<SummonResult> {
  checkText(input.objective, "--objective");
  if (input.model !== undefined && !MODEL_NAME.test(input.model))
    throw new UsageError(
      `Invalid model name "${printable(input.model)}"`,
      "a model name is letters, digits and . _ : / @ + - (e.g. --model opus, --model anthropic/claude-sonnet-4-5)",
    );
  const store = await ctx.store();
  const snap = await store.snapshot();
  const project = await snap.project();
  const code = await store.code().catch(() => null);
  const resume = input.resume !== undefined ? await planResume(snap, store.commonDir, input.resume) : null;
  // Before any question: an answer is wasted if there is no assistant to start.
  const adapter = pickAssistant(ctx, {
    flag: resume?.assistant ?? input.assistant,
    gitConfig: safeConfig(() => code?.config("pantheon.assistant")),
    project,
    allowMissing: Boolean(input.dryRun),
  });
  const role = resume?.mission.role ?? input.role ?? (input.askRole ? await input.askRole() : undefined);
  if (role === undefined) throw new UsageError("summon needs a role", "pantheon summon engineer");
  const template = personaTemplate(ctx, store.root, role, input.template);
  const sessionId = resume?.sessionId ?? nodeCrypto().randomUUID();
  if (input.dryRun) return dryRun(ctx, { ...input, role }, adapter, template, project, snap, sessionId, resume);
  if (input.worktree) await refuseStateBase(store);
  // A task the new mission could not claim is refused before any mission is registered.
  if (input.task !== undefined && !resume) await checkTaskFirst(ctx, snap, input.task, role, input.persona);

  let mission = resume?.reuse
    ? resume.mission
    : await startMission(ctx, {
        role,
        persona: resume?.mission.persona ?? input.persona,
        objective: resume?.mission.objective ?? input.objective,
        assistant: adapter.name,
        sessionId: resume ? resume.sessionId : adapter.takesSessionId ? sessionId : null,
      });
  const handle = missionHandle(mission);
  const asMission: Context = { ...ctx, actorFlags: { mission: handle } };
  const sessionDir = join(sessionsDir(store.commonDir), handle.replace(":", "-"));
  sweepEndedSessions(store.commonDir, await snap.all("missions"));
  // Written first: a summon killed at any later point leaves a record, so the mission shows as stalled.
  writeSummonRecord(store.commonDir, mission, {
    mission: handle,
    persona: mission.persona,
    assistant: adapter.name,
    sessionId: resume || adapter.takesSessionId ? sessionId : null,
    since: ctx.now().toISOString(),
  });
  if (resume?.reuse)
    markSession(
      store.commonDir,
      mission.uid,
      "starting",
      `resumed by summon (${adapter.binary} session ${sessionId})`,
      ctx.now(),
    );
  let task: Task | null = null;
  let plan: SummonPlan;
  let codex: CodexSettings | null = null;
  try {
    if (input.worktree)
      mission = await recordWorktree(
        asMission,
        handle,
        await createPersonaWorktree(ctx, store, project, mission, input.branch),
      );
    if (input.task !== undefined) task = (await claimTask(asMission, { id: input.task, force: false })).task;
    const cwd = worktreeHere(ctx, code, mission) ?? code?.root ?? ctx.cwd;
    if (adapter.name === "codex") codex = codexSettings(ctx, { cwd, commonDir: store.commonDir });
    const now = await store.snapshot();
    const kickoff = resume ? await resumeKickoff(now, resume.mission, mission, resume.since) : undefined;
    const brief = await writeBrief(ctx, {
      adapter,
      snap: now,
      project,
      mission,
      task,
      template: template.text,
      sessionDir,
      // Made now: with a writable root that does not exist, codex's sandbox runs no command at
      // all (bwrap: "Can't create file at …/pantheon: Read-only file system").
      writableDirs: await store.writableDirs({ create: true }),
      sandbox: codex?.sandbox,
      pantheonDir: ctx.self ? writePantheonShim(store.commonDir, ctx.self) : undefined,
      cwd,
      model: input.model,
      sessionId,
      kickoff,
      resumeSession: resume?.sessionId,
    });
    plan = {
      assistant: adapter.name,
      mission,
      launch: brief.launch,
      personaFile: brief.personaFile,
      cwd,
      kickoff: brief.kickoff,
      template: template.source,
    };
  } catch (e) {
    // A resumed ACTIVE mission was not ours to end: it stays as it was (stalled), to try again.
    if (!resume?.reuse)
      await endMission(asMission, {
        id: handle,
        summary: `summon failed before the assistant started: ${(e as Error).message}`,
        release: true,
      }).catch(() => undefined);
    removeSummonRecord(store.commonDir, mission.uid);
    rmSync(sessionDir, { recursive: true, force: true });
    throw e;
  }
  // The persona works on this clone's state: say when it is not in step with the remote (DESIGN §3.5).
  const stale = freshnessLine(await store.freshness().catch(() => []));
  if (stale) ctx.warn(stale);
  let end: { code: number; received: "SIGHUP" | "SIGTERM" | null };
  try {
    input.onLaunch?.(plan);
    // After the ✓ line that names the mission: what codex is about to ask.
    if (codex) for (const line of codexNotices(codex, plan.cwd)) ctx.warn(line);
    if (adapter.name === "codex") await tellCodexHookTrust(ctx, store).catch(() => false);
    end = await ctx.launcher.session(plan.launch.command, plan.launch.args, { cwd: plan.cwd, env: plan.launch.env });
  } catch (e) {
    await finish(
      asMission,
      store.commonDir,
      mission,
      sessionDir,
      `${adapter.binary} could not start: ${(e as Error).message}`,
    );
    // On PATH but not runnable (a broken install, a missing interpreter): say how to fix it.
    throw new NotFoundError(
      `${adapter.binary} could not be started (${(e as Error).message}); mission ${handle} was ended`,
      `reinstall it: ${adapter.installHint}`,
    );
  }
  const how =
    end.received === "SIGHUP"
      ? "the terminal was closed"
      : end.received === "SIGTERM"
        ? "summon was stopped (SIGTERM)"
        : null;
  const ended = await finish(
    asMission,
    store.commonDir,
    mission,
    sessionDir,
    how ? `${how}; ${adapter.binary} exited with code ${end.code}` : `${adapter.binary} exited with code ${end.code}`,
  );
  // The assistant printed its own resume line, which reopens the session without the persona.
  const resumeWith =
    ended.sessionId && end.received !== "SIGHUP" ? `pantheon summon --resume ${missionId(mission.number)}` : null;
  return { plan, exitCode: end.code, task, received: end.received, resume: resumeWith };
}

/** The claim `summon --task` would make, checked as the persona summon will record (given, or the default name). */
async function checkTaskFirst(
  ctx: Context,
  snap: Snapshot,
  id: string,
  role: Role,
  given: string | undefined,
): Promise<void> {
  const persona =
    given !== undefined
      ? checkPersonaName(given, "--persona")
      : (await defaultPersonaName(ctx, snap, role, await snap.all("missions"))).name;
  // No free name: startMission says so, with its own hint.
  if (persona) await checkClaimable(ctx, snap, { id, persona, role });
}

/** Ends the mission (/dismiss inside the assistant may have done it already: fine) and forgets the session. */
async function finish(
  asMission: Context,
  commonDir: string,
  mission: Mission,
  sessionDir: string,
  summary: string,
): Promise<{ sessionId: string | null }> {
  // codex and opencode name their sessions themselves: their hooks told the live file, and the
  // mission keeps it for `summon --resume`.
  const live = readLiveFile(commonDir, mission.uid);
  markSessionEnded(commonDir, mission.uid, summary, asMission.now());
  await endMission(asMission, { id: missionHandle(mission), summary, sessionId: live?.sessionId ?? null }).catch(
    () => undefined,
  );
  removeSummonRecord(commonDir, mission.uid);
  rmSync(sessionDir, { recursive: true, force: true });
  // A session its hooks heard of exists in the assistant's own store; one that never reported
  // (quit at a first-run screen, hooks not trusted) may not, and is not offered for resume.
  return { sessionId: live ? (live.sessionId ?? mission.sessionId ?? null) : null };
}

/**
 * The mission's worktree as the folder to start in, only when git lists it as a worktree of this
 * clone: the record's path is shared data (a resumed mission may come from another clone, or
 * from anyone who can push), trusted for nothing else.
 */
function worktreeHere(ctx: Context, code: CodeRepo | null, mission: Mission): string | null {
  if (!mission.worktree) return null;
  const listed = code?.findWorktree(mission.worktree.path);
  if (listed && !listed.missing) return listed.path;
  ctx.warn(
    `${missionId(mission.number)}'s worktree ${mission.worktree.path} is not a worktree of this clone: starting in the repository instead`,
  );
  return null;
}

function safeConfig(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
