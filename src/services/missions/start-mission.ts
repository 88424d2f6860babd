import { ConflictError } from "../../errors.js";
import { personaActor } from "../../domain/actor.js";
import { makeCodename } from "../../domain/codename.js";
import { missionHandle, missionId } from "../../domain/ids.js";
import { activeMissionsOf, checkPersonaName } from "../../domain/persona-names.js";
import type { Role } from "../../domain/roles.js";
import type { Mission } from "../../domain/schemas/mission.js";
import { commitInfo } from "../kernel/commit-info.js";
import { publishedMutation } from "../sync/publish.js";
import { isoNow, type Context } from "../kernel/context.js";
import { defaultPersonaName } from "./default-persona-name.js";
import { checkText } from "../kernel/validate-input.js";
import { assistantFromEnv } from "../../assistants/assistant-env.js";
import type { AssistantName } from "../../assistants/adapter.js";
import { assistantProcess } from "../live/assistant-process.js";
import { writeSummonRecord } from "../live/summon-record.js";
import type { CloneStore, RecordStore } from "../../store/store.js";
import { newMission } from "../../domain/new-mission.js";

export interface StartMissionInput {
  role: Role;
  persona?: string | undefined;
  objective?: string | undefined;
  /** The assistant the mission runs in; by default the one this command runs inside, if any. */
  assistant?: string | null;
  /** The assistant's session id, when known. */
  sessionId?: string | null;
  worktree?: Mission["worktree"];
}

/**
 * Starts an ACTIVE mission. With no name, picks the least-used free name of the role from the
 * project's theme (and names added with `persona add`). A name is unique among ACTIVE missions;
 * two concurrent starts that pick the same name are serialised by the ref's compare-and-swap.
 */
export async function startMission(
  ctx: Context<RecordStore & Pick<CloneStore, "codeHead">>,
  input: StartMissionInput,
): Promise<Mission> {
  const objective = checkText(input.objective, "--objective");
  const given = input.persona === undefined ? undefined : checkPersonaName(input.persona, "--persona");
  const store = await ctx.store();
  const head = await store.codeHead();
  // `mission start` from /summon inside an assistant records which one (and its session).
  const inside = input.assistant === undefined ? assistantFromEnv(ctx.env) : null;
  const assistant = input.assistant !== undefined ? input.assistant : (inside?.assistant ?? null);
  const sessionId = input.sessionId !== undefined ? input.sessionId : (inside?.sessionId ?? null);
  // Others race for persona names and mission numbers: made on the remote's latest state and published (DESIGN §3.5).
  const { result } = await publishedMutation(ctx, async (tx) => {
    const missions = await tx.all("missions");
    let persona: string;
    if (given !== undefined) {
      const holder = activeMissionsOf(given, missions)[0];
      if (holder) {
        throw new ConflictError(
          `${holder.persona} is already on ACTIVE mission ${missionId(holder.number)}`,
          `choose another --persona, or end it: pantheon mission end ${missionId(holder.number)}`,
        );
      }
      persona = given;
    } else {
      const picked = await defaultPersonaName(ctx, tx, input.role, missions);
      if (!picked.name)
        throw new ConflictError(
          `Every ${input.role} name of the ${picked.theme} theme is on an ACTIVE mission`,
          `pantheon mission start --role ${input.role} --persona NAME`,
        );
      persona = picked.name;
    }
    const number = await tx.allocate("missions");
    const at = isoNow(ctx);
    const mission = newMission({
      uid: ctx.ids.uid(),
      number,
      codename: makeCodename(() => ctx.ids.random(), new Set(missions.map((m) => m.codename))),
      persona,
      role: input.role,
      objective,
      assistant,
      sessionId,
      worktree: input.worktree ?? null,
      headAtStart: head,
      at,
    });
    tx.put("missions", mission);
    return {
      result: mission,
      commit: commitInfo("mission.start", `mission ${missionId(number)}`, personaActor(persona, mission)),
    };
  });
  if (inside) recordAssistantSession(ctx, store.commonDir, result, inside.assistant);
  return result;
}

/**
 * A mission started inside a running assistant (`/summon`, `mission start`) gets the record a
 * summon keeps, naming the assistant's process: status shows it as this clone's, and the next
 * command of this clone ends it once that process is gone (DESIGN §5).
 */
function recordAssistantSession(ctx: Context<unknown>, commonDir: string, m: Mission, assistant: AssistantName): void {
  const proc = assistantProcess(assistant);
  if (!proc) return;
  try {
    writeSummonRecord(
      commonDir,
      m,
      {
        mission: missionHandle(m),
        persona: m.persona,
        assistant,
        sessionId: m.sessionId ?? null,
        since: m.startedAt,
        startedBy: "mission start",
      },
      proc,
    );
  } catch (e) {
    // The mission stands; only its automatic end is lost. Say so rather than fail the start.
    ctx.warn(
      `could not record ${missionId(m.number)}'s ${assistant} session here (${(e as Error).message}): end it with pantheon mission end ${missionId(m.number)}`,
    );
  }
}
