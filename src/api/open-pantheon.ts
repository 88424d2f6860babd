import { configApi, type ConfigApi } from "./config-api.js";
import { ContextFactory, type ContextSeams, type PantheonOptions } from "./api-context.js";
import { epicsApi, type EpicsApi } from "./epics-api.js";
import { missionsApi, type MissionsApi } from "./missions-api.js";
import { personasApi, type PersonasApi } from "./personas-api.js";
import { reviewsApi, type ReviewsApi } from "./reviews-api.js";
import { stateApi, type StateApi } from "./state-api.js";
import { taskMutations, type TaskMutations } from "./task-mutations-api.js";
import { taskQuestions, type TaskQuestions } from "./task-questions-api.js";

/**
 * A repository's Pantheon: every mutation and question of the CLI (DESIGN §4.1a), over the same
 * services and views, so each method returns what `pantheon ... --json` carries as `data` and
 * throws the PantheonError the CLI prints as `✗`.
 */
export interface Pantheon extends StateApi {
  /** The directory it was opened in (cwd resolved). */
  readonly cwd: string;
  readonly tasks: TaskQuestions & TaskMutations;
  readonly epics: EpicsApi;
  readonly reviews: ReviewsApi;
  readonly missions: MissionsApi;
  readonly personas: PersonasApi;
  readonly config: ConfigApi;
}

/** Internal: the API with injected clock and ids (tests compare it with the CLI). */
export function createPantheon(o: PantheonOptions, seams?: ContextSeams): Pantheon {
  const contexts = new ContextFactory(o, seams);
  return {
    cwd: contexts.cwd,
    tasks: { ...taskQuestions(contexts), ...taskMutations(contexts) },
    epics: epicsApi(contexts),
    reviews: reviewsApi(contexts),
    missions: missionsApi(contexts),
    personas: personasApi(contexts),
    config: configApi(contexts),
    ...stateApi(contexts),
  };
}

/**
 * Opens the repository around `cwd` (a worktree works too), found as the CLI finds it; throws
 * PantheonError `E_NOT_A_REPO` when there is none. State is read afresh by every call.
 *
 * @example
 * const p = await openPantheon({ cwd: "/path/to/repo" });
 * const m = await p.missions.start({ role: "engineer", persona: "Hephaestus" });
 * const next = await p.tasks.next({ mission: m.id });
 */
export async function openPantheon(o: PantheonOptions = {}): Promise<Pantheon> {
  return createPantheon(o);
}
