import { readdirSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { configSetDocument, settingChanges, type SettingChange } from "../../domain/config-keys.js";
import { settingsFromConfig, type ProjectSettings } from "../../domain/project-config.js";
import type { Project } from "../../domain/schemas/project.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { ensureProjectFiles, projectFiles, type FileReport } from "./project-files.js";
import { resolveActor } from "../kernel/resolve-actor.js";

/** The persona themes installed with this pantheon (`templates/themes/<name>.yaml`). */
export function installedThemes(ctx: Context): string[] {
  try {
    return readdirSync(join(ctx.templatesDir, "themes"))
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

/**
 * A theme must be installed: an unknown one was once accepted, and then every `mission start`
 * without `--persona` and every `summon` failed.
 */
export function checkTheme(ctx: Context, name: string, o: { key?: string; file?: string } = {}): void {
  const themes = installedThemes(ctx);
  if (themes.includes(name)) return;
  // An installation without its templates (a bundle copied alone) lists no theme: naming an
  // empty list and hinting the refused name again would send the user round in a circle.
  if (themes.length === 0)
    throw new UsageError(
      `No persona theme is installed with this pantheon (nothing in ${join(ctx.templatesDir, "themes")})`,
      "the installation is incomplete: install pantheon again (npm ci), with its templates/ folder beside dist/",
    );
  const key = o.key ?? "customization.personas_theme";
  const pick = themes.includes("mythology") ? "mythology" : (themes[0] ?? "mythology");
  throw new UsageError(
    `${key} must be an installed theme: ${themes.join(", ")} (not "${name}")`,
    // From init's config file, before any state exists: the fix is in the file, not `config set`.
    o.file !== undefined
      ? `in ${o.file}, set personas_theme (under customization:) to an installed theme (${themes.join(", ")}), then run pantheon init --config ${o.file} again`
      : `pantheon config set customization.personas_theme ${pick}`,
  );
}

/** The part of a project record a person chooses. */
export function settingsOf(project: Project): ProjectSettings {
  const { uid: _u, createdAt: _c, updatedAt: _up, createdBy: _b, schemaVersion: _v, ...settings } = project;
  return settings;
}

export interface SettingsResult {
  project: Project;
  /** Keys that changed, by YAML path; empty when the settings were already so (no commit). */
  changes: SettingChange[];
  commit: string | null;
  /** Project files the new settings call for (a new role's persona file), created if missing. */
  files: FileReport | null;
}

/**
 * Applies `change` to the project's settings as one commit, validated as `init` validates them
 * (the theme against the installed ones). Unchanged settings make no commit. Fields this
 * version does not know are kept: the record is the stored one with the settings laid over it.
 */
export async function changeSettings(
  ctx: Context,
  change: (current: ProjectSettings) => ProjectSettings,
): Promise<SettingsResult> {
  const store = await ctx.store();
  const { result, commit } = await store.mutate(async (tx) => {
    const project = await tx.project();
    const before = settingsOf(project);
    const after = change(before);
    if (after.customization.personasTheme !== before.customization.personasTheme)
      checkTheme(ctx, after.customization.personasTheme);
    const changes = settingChanges(before, after);
    const actor = await resolveActor(ctx, tx);
    const next: Project = changes.length === 0 ? project : { ...project, ...after, updatedAt: isoNow(ctx) };
    if (changes.length > 0) tx.putProject(next);
    return {
      result: { project: next, changes },
      commit: commitInfo("project.set", `settings ${changes.map((c) => c.key).join(", ")}`, actor),
    };
  });
  return {
    ...result,
    commit,
    files: result.changes.length > 0 ? settingsFiles(ctx, store.root, result.project) : null,
  };
}

/**
 * The files in `.pantheon/` that settings choose (a role's persona file, the commit guidelines),
 * created when missing and never rewritten; the assistants' command files are `init`'s business.
 */
function settingsFiles(ctx: Context, root: string | null, project: Project): FileReport | null {
  if (!root) return null;
  const own = new Map(
    [...projectFiles(project, ctx.templatesDir, [])].filter(([path]) => path.startsWith(".pantheon/")),
  );
  return ensureProjectFiles(root, own, false);
}

/** `pantheon config set KEY VALUE`. */
export async function setSetting(ctx: Context, key: string, value: string): Promise<SettingsResult> {
  // Checked first so that any bad theme, even one that is not a name, is answered with the installed ones.
  if (key === "customization.personas_theme") checkTheme(ctx, value.trim());
  return changeSettings(ctx, (current) => settingsFromConfig(configSetDocument(key, value, current), current, "value"));
}

/** `pantheon config show`: the project's settings and this clone's own (git config). */
export async function showSettings(ctx: Context): Promise<{ project: Project; clone: Record<string, string> }> {
  const store = await ctx.store();
  const project = await (await store.snapshot()).project();
  const clone: Record<string, string> = {};
  const code = await store.code().catch(() => null);
  for (const key of CLONE_KEYS) {
    let value: string | undefined;
    try {
      value = code?.config(key);
    } catch {
      value = undefined;
    }
    if (value !== undefined) clone[key] = value;
  }
  return { project, clone };
}

/** Settings of one clone, kept in git config (DESIGN §4.1), never shared. */
export const CLONE_KEYS = [
  "pantheon.assistant",
  "pantheon.autoSync",
  "pantheon.worktreeSetup",
  "pantheon.notify",
  "pantheon.stallAfter",
] as const;
