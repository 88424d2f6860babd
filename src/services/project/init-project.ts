import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { DIRECTOR } from "../../domain/actor.js";
import type { ProjectSettings } from "../../domain/project-config.js";
import { SCHEMA_VERSION } from "../../domain/constants.js";
import type { Project } from "../../domain/schemas/project.js";
import { isoNow, type Context } from "../kernel/context.js";
import { ensureProjectFiles, projectFiles, type FileReport } from "./project-files.js";
import { commitActor } from "../kernel/resolve-actor.js";
import { ASSISTANT_NAMES, type AssistantName } from "../../assistants/adapter.js";
import type { HookInstall, StateSync, Store } from "../../store/store.js";
import type { SettingChange } from "../../domain/config-keys.js";
import { changeSettings, checkTheme } from "./project-settings.js";
import { adoptRemoteState, pantheonCommitted } from "../sync/adopt-state.js";
import { ForkRefusedError } from "../../errors.js";

export interface InitResult {
  project: Project;
  /** False when the state already existed (or was adopted) and was left untouched. */
  stateCreated: boolean;
  /** The remote whose existing state was adopted, if any. */
  adopted: string | null;
  /** The remote whose config got the state's fetch refspec now (so git fetch brings the state), if any. */
  refspecAdded: string | null;
  /** That refspec. */
  refspec: string | null;
  /** The ref the adopted state came from on the remote (refs/coordination/main, or the branch git config names). */
  adoptedRef: string | null;
  /** What `--hooks` did to the commit-msg hook. */
  hook: HookInstall | null;
  commit: string | null;
  files: FileReport;
  root: string | null;
  /** What `--config` changed on a project that was already set up (one commit); empty when nothing. */
  changes: SettingChange[];
  /**
   * When codex's files were installed: the folders of the git common dir pantheon writes, which
   * a codex session the user starts must have among its writable roots (summon passes them
   * itself); made here, as codex's sandbox runs nothing with a writable root that is missing.
   */
  codexWritableRoots: string[] | null;
}

/** Guesses the project type from the files at the root, for `init --yes`. */
export function detectProjectType(root: string | null): Project["type"] {
  if (!root) return "other";
  const has = (f: string) => existsSync(join(root, f));
  if (has("tsconfig.json") || has("package.json")) return "typescript";
  if (has("pyproject.toml") || has("setup.py") || has("requirements.txt")) return "python";
  if (has("go.mod")) return "go";
  if (has("Cargo.toml")) return "rust";
  return "other";
}

export function defaultProjectName(root: string | null, cwd: string): string {
  return basename(root ?? cwd) || "project";
}

/**
 * Writes the root commit of refs/coordination/main and the project folders. Re-running adds
 * what is missing and leaves the rest (the state is never replaced by init); with `apply` (a
 * config file) on a project already set up, the file's settings are applied as one commit.
 */
export async function initProject(
  ctx: Context,
  settings: ProjectSettings,
  o: {
    force: boolean;
    assistants?: readonly AssistantName[];
    hooks?: string[] | null;
    apply?: (current: ProjectSettings) => ProjectSettings;
    newState?: boolean;
    /** The `--config` file the settings came from: a refusal says to fix it there. */
    configFile?: string;
  },
): Promise<InitResult> {
  checkTheme(ctx, settings.customization.personasTheme, o.configFile === undefined ? {} : { file: o.configFile });
  const store = await ctx.store();
  let project: Project;
  let commit: string | null = null;
  let changes: SettingChange[] = [];
  let adopted: { remote: string; ref: string } | null = null;
  if (!(await store.exists())) adopted = await adoptOrRefuse(ctx, store, Boolean(o.newState));
  const added = await addFetchRefspec(store);
  const stateCreated = !adopted && !(await store.exists());
  if (stateCreated) {
    const at = isoNow(ctx);
    project = {
      ...settings,
      schemaVersion: SCHEMA_VERSION,
      uid: ctx.ids.uid(),
      createdAt: at,
      updatedAt: at,
      createdBy: "Director",
    };
    commit = await store.initialize(project, {
      summary: `project ${settings.name} init by Director`,
      op: "project.init",
      ...commitActor(DIRECTOR),
    });
  } else if (o.apply && !adopted) {
    const applied = await changeSettings(ctx, o.apply);
    ({ project, changes } = applied);
    commit = applied.commit;
  } else {
    project = await (await store.snapshot()).project();
    // The remote's project was set up by someone else: its settings win over a local file.
    if (o.apply && adopted)
      ctx.warn(`kept the settings adopted from ${adopted.remote}; change them with pantheon config set KEY VALUE`);
  }
  const assistants = o.assistants ?? ASSISTANT_NAMES;
  const files = store.root
    ? ensureProjectFiles(store.root, projectFiles(project, ctx.templatesDir, assistants), o.force)
    : { created: [], updated: [], existing: [], leftAlone: [] };
  const hook = o.hooks ? (await store.code()).installCommitMsgHook(o.hooks) : null;
  return {
    project,
    stateCreated,
    adopted: adopted?.remote ?? null,
    adoptedRef: adopted?.ref ?? null,
    refspecAdded: added?.remote ?? null,
    refspec: added?.refspec ?? null,
    commit,
    files,
    root: store.root,
    hook,
    changes,
    codexWritableRoots: assistants.includes("codex") ? await store.writableDirs({ create: true }) : null,
  };
}

/**
 * A clone of a project that already uses Pantheon takes the remote's state instead of starting
 * an unrelated history (DESIGN §3.5). When the project's `.pantheon/` is committed, its state was
 * started in another clone: starting a second one here would fork it, so unless `--new-state`
 * init refuses (exit 3) when no reachable remote has it. Otherwise an unreachable remote is
 * only a warning: sync merges later.
 */
async function adoptOrRefuse(
  ctx: Context,
  store: Store,
  newState: boolean,
): Promise<{ remote: string; ref: string } | null> {
  const found = await adoptRemoteState(ctx, store, { batch: false });
  if (found.adopted !== null) return { remote: found.adopted, ref: found.ref };
  if (newState) return null;
  if (await pantheonCommitted(store)) {
    const r = found.remote ?? "the remote";
    const why =
      found.reason === "no-state"
        ? `${r} has no Pantheon state yet`
        : found.reason === "no-remote"
          ? "this repository has no remote to take the state from"
          : found.reason === "offline"
            ? `${r} was not asked (${found.detail})`
            : `${r} could not be reached (${found.detail})`;
    throw new ForkRefusedError(
      `This project's .pantheon/ is committed, so its Pantheon state was started in another clone, but ${why}; a new state here would be a second, unrelated history (nothing was written)`,
      found.reason === "no-state"
        ? `whoever ran pantheon init publishes it with pantheon sync; then any pantheon command here takes it. To start a separate state anyway: pantheon init --new-state`
        : found.reason === "no-remote"
          ? "git remote add origin <url>, then pantheon sync; to start a separate state anyway: pantheon init --new-state"
          : `pantheon sync ${found.remote ?? ""} once it can be reached; to start a separate state anyway: pantheon init --new-state`.replace(
              "  ",
              " ",
            ),
      { remote: found.remote, reason: found.reason },
    );
  }
  if (found.reason === "unreachable")
    ctx.warn(
      `could not look for existing state on ${found.remote ?? "the remote"} (${found.detail}); starting a new state, pantheon sync will merge it later`,
    );
  return null;
}

/** The default remote gets the glob refspec (DESIGN §3.1): harmless while it has no state, and git fetch brings it once it does. */
async function addFetchRefspec(store: Store): Promise<{ remote: string; refspec: string } | null> {
  let sync: StateSync;
  try {
    sync = await store.sync();
  } catch {
    return null; // no transport here: nothing to configure
  }
  const remote = await sync.defaultRemote();
  if (!remote) return null;
  // An unusable git config pantheon.<remote>.remoteRef (or pantheon.remoteRef) refuses init (exit 2) before any state is written.
  const { refspec } = await sync.remoteRef(remote);
  return (await sync.ensureFetchRefspec(remote)) ? { remote, refspec } : null;
}
