import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { DIRECTOR } from "../domain/actor.js";
import type { ProjectSettings } from "../domain/project-config.js";
import { SCHEMA_VERSION } from "../domain/constants.js";
import type { Project } from "../domain/schemas/project.js";
import { isoNow, type Context } from "./context.js";
import { ensureProjectFiles, projectFiles, type FileReport } from "./project-files.js";
import { commitActor } from "./resolve-actor.js";
import { ASSISTANT_NAMES, type AssistantName } from "../assistants/adapter.js";
import type { Store } from "../store/store.js";

export interface InitResult {
  project: Project;
  /** False when the state already existed (or was adopted) and was left untouched. */
  stateCreated: boolean;
  /** The remote whose existing state was adopted, if any. */
  adopted: string | null;
  /** What `--hooks` did to the commit-msg hook. */
  hook: "installed" | "updated" | "chained" | null;
  commit: string | null;
  files: FileReport;
  root: string | null;
  /**
   * When codex's files were installed: the git common dir, which a codex session the user starts
   * must have among its writable roots for `pantheon` to write there (summon passes it itself).
   */
  codexWritableRoot: string | null;
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
 * what is missing and leaves the rest (the state is never replaced by init).
 */
export async function initProject(ctx: Context, settings: ProjectSettings, o: { force: boolean; assistants?: readonly AssistantName[]; hooks?: string[] | null }): Promise<InitResult> {
  const store = await ctx.store();
  let project: Project;
  let commit: string | null = null;
  let adopted: string | null = null;
  if (!(await store.exists())) adopted = await adoptRemoteState(ctx, store);
  const stateCreated = !adopted && !(await store.exists());
  if (stateCreated) {
    const at = isoNow(ctx);
    project = { ...settings, schemaVersion: SCHEMA_VERSION, uid: ctx.ids.uid(), createdAt: at, updatedAt: at, createdBy: "Director" };
    commit = await store.initialize(project, { summary: `project ${settings.name} init by Director`, op: "project.init", ...commitActor(DIRECTOR) });
  } else {
    project = await (await store.snapshot()).project();
  }
  const assistants = o.assistants ?? ASSISTANT_NAMES;
  const files = store.root ? ensureProjectFiles(store.root, projectFiles(project, ctx.templatesDir, assistants), o.force) : { created: [], updated: [], existing: [] };
  const hook = o.hooks ? (await store.code()).installCommitMsgHook(o.hooks) : null;
  return { project, stateCreated, adopted, commit, files, root: store.root, hook, codexWritableRoot: assistants.includes("codex") ? store.commonDir : null };
}

/**
 * A clone of a project that already uses Pantheon takes the remote's state instead of starting
 * an unrelated history. An unreachable remote is only a warning: sync merges later.
 */
async function adoptRemoteState(ctx: Context, store: Store): Promise<string | null> {
  const sync = await store.sync();
  let remote: string | null = null;
  try {
    remote = await sync.defaultRemote();
    if (!remote) return null;
    const tip = await sync.fetch(remote);
    if (!tip || !(await sync.advance(null, tip))) return null;
    await sync.ensureFetchRefspec(remote);
    return remote;
  } catch (e) {
    ctx.warn(`could not look for existing state on ${remote ?? "the remote"} (${(e as Error).message}); starting a new state, pantheon sync will merge it later`);
    return null;
  }
}
