import type { configDocumentOf, SettingChange } from "../domain/config-keys.js";
import { escapeText } from "./escape.js";
import type { Style } from "./paint.js";

export type ConfigDocument = ReturnType<typeof configDocumentOf>;

/** A YAML scalar: plain when it reads back as the same string, else a JSON string (valid YAML, control characters escaped). */
function scalar(v: unknown): string {
  if (typeof v !== "string") return JSON.stringify(v);
  const plain = /^[A-Za-z_./][\w./ -]*$/.test(v) && !/ $/.test(v) && !/^(true|false|yes|no|on|off|null|~)$/i.test(v);
  return plain ? v : JSON.stringify(v);
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
  lines.push(style.paint.dim(own.length === 0 ? "# This clone's own settings (git config pantheon.*): none set" : "# This clone's own settings (git config; change with git config KEY VALUE):"));
  for (const [k, v] of own) lines.push(style.paint.dim(`#   ${k} = ${JSON.stringify(v).slice(1, -1)}`));
  return lines.join("\n");
}

/** `customization.personas_theme: mythology → constellations`. */
export function changeLine(c: SettingChange): string {
  return `${c.key}: ${escapeText(c.from)} → ${escapeText(c.to)}`;
}
