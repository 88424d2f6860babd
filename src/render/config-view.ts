import { configDocumentOf, type SettingChange } from "../domain/config-keys.js";
import type { Project } from "../domain/schemas/project.js";
import { UNSAFE_CHARS } from "../domain/control-chars.js";
import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";

export type ConfigDocument = ReturnType<typeof configDocumentOf>;

/**
 * A double-quoted string that is valid YAML and JSON. JSON.stringify escapes C0 controls only;
 * DEL, C1 controls (U+009B is a CSI on many terminals) and bidirectional marks are escaped too,
 * as `\uXXXX`, which both read back to the same text.
 */
function quoted(v: string): string {
  return JSON.stringify(v).replace(UNSAFE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A YAML scalar: plain when it reads back as the same string, else a quoted string (control characters escaped). */
function scalar(v: unknown): string {
  if (typeof v !== "string") return JSON.stringify(v);
  const plain = /^[A-Za-z_./][\w./ -]*$/.test(v) && !/ $/.test(v) && !/^(true|false|yes|no|on|off|null|~)$/i.test(v);
  return plain ? v : quoted(v);
}

function flow(items: readonly unknown[]): string {
  return `[${items.map(scalar).join(", ")}]`;
}

/**
 * The settings as the YAML file `init --config` reads (so `pantheon config show > pantheon.yaml`
 * round-trips), then this clone's own settings from git config as comments.
 */
export function configText(doc: ConfigDocument, clone: Record<string, string>, style: Style): string {
  const vars = Object.entries(doc.customization.variables);
  const lines = [
    style.paint.dim("# Project settings, shared through refs/coordination/main: pantheon config set KEY VALUE"),
    "project:",
    `  name: ${scalar(doc.project.name)}`,
    `  type: ${doc.project.type}`,
    `  description: ${scalar(doc.project.description)}`,
    "features:",
    ...Object.entries(doc.features).map(([k, v]) => `  ${k}: ${v}`),
    "customization:",
    `  personas_theme: ${scalar(doc.customization.personas_theme)}`,
    vars.length === 0 ? "  variables: {}" : "  variables:",
    ...vars.map(([k, v]) => `    ${scalar(k)}: ${scalar(v)}`),
    `roles: ${flow(doc.roles)}`,
    `assistant: ${doc.assistant === null ? "null" : scalar(doc.assistant)}`,
    "worktree:",
    `  copy: ${flow(doc.worktree.copy)}`,
  ];
  const own = Object.entries(clone);
  lines.push(
    style.paint.dim(
      own.length === 0
        ? "# This clone's own settings (git config pantheon.*): none set"
        : "# This clone's own settings (git config; change with git config KEY VALUE):",
    ),
  );
  for (const [k, v] of own) lines.push(style.paint.dim(`#   ${k} = ${quoted(v).slice(1, -1)}`));
  return lines.join("\n");
}

/** `customization.personas_theme: mythology → constellations`. */
export function changeLine(c: SettingChange): string {
  return `${c.key}: ${escapeText(c.from)} → ${escapeText(c.to)}`;
}

/** The settings of a project record (what `init --config` reads), without its record fields. */
function settingsDocument(project: Project): ConfigDocument {
  const { uid: _u, createdAt: _c, updatedAt: _up, createdBy: _b, schemaVersion: _v, ...settings } = project;
  return configDocumentOf(settings);
}

export interface ConfigShowView {
  settings: ConfigDocument;
  clone: Record<string, string>;
}

/** `config show`: the project's settings and this clone's git config settings. */
export function configShowView(r: { project: Project; clone: Record<string, string> }): ConfigShowView {
  return { settings: settingsDocument(r.project), clone: r.clone };
}

export interface ConfigSetView {
  settings: ConfigDocument;
  changes: SettingChange[];
  commit: string | null;
  /** Project files the change created (a new role's persona file). */
  created: string[];
}

/** `config set`: the settings after the change, what changed, and the files it created. */
export function configSetView(r: {
  project: Project;
  changes: SettingChange[];
  commit: string | null;
  files: { created: string[] } | null;
}): ConfigSetView {
  return {
    settings: settingsDocument(r.project),
    changes: r.changes,
    commit: r.commit,
    created: (r.files?.created ?? []).filter((f) => !f.endsWith("/")),
  };
}
