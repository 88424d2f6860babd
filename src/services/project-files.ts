import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AssistantName } from "../assistants/adapter.js";
import { claudeMdImport, geminiMdImport, instructionsBlock, upsertBlock } from "../assistants/instructions-block.js";
import { adapterFor } from "../assistants/registry.js";
import { renderTemplate } from "../assistants/render-template.js";
import type { ProjectSettings } from "../domain/project-config.js";

export interface FileReport {
  /** Paths created now, relative to the project root. */
  created: string[];
  /** Paths Pantheon rewrote or updated (with --force, or its block in AGENTS.md). */
  updated: string[];
  /** Paths that already existed and were left as they were. */
  existing: string[];
}

/** owned: Pantheon's own file; block: a marked block inside the user's file; once: created only if absent. */
export interface ProjectFile {
  content: string;
  kind: "owned" | "block" | "once";
}

const DIRS = [".pantheon/personas", ".pantheon/procedures", ".pantheon/planning"];

/** Variables every template may use: the project's fields and `customization.variables`. */
export function projectVariables(settings: ProjectSettings): Record<string, string> {
  const vars: Record<string, string> = { "project.name": settings.name, "project.type": settings.type, "project.description": settings.description };
  for (const [k, v] of Object.entries(settings.customization.variables)) vars[`vars.${k}`] = v;
  return vars;
}

/** The files `init` installs, from `templates/`, for the included roles and chosen assistants. */
export function projectFiles(settings: ProjectSettings, templatesDir: string, assistants: readonly AssistantName[]): Map<string, ProjectFile> {
  const read = (rel: string) => readFileSync(join(templatesDir, rel), "utf8");
  const vars = projectVariables(settings);
  const files = new Map<string, ProjectFile>();
  files.set(".pantheon/README.md", { kind: "owned", content: readme(settings) });
  for (const role of settings.roles) {
    // Persona and mission placeholders stay for `summon`; the project's are filled now.
    files.set(`.pantheon/personas/${role}.md`, { kind: "owned", content: renderTemplate(read(`personas/${role}.md`), { ...vars, role }) });
  }
  files.set(".pantheon/procedures/README.md", { kind: "owned", content: renderTemplate(read("procedures/README.md"), vars) });
  if (settings.features.commitGuidelines) files.set(".pantheon/procedures/commit-guidelines.md", { kind: "owned", content: renderTemplate(read("procedures/commit-guidelines.md"), vars) });
  for (const name of assistants) for (const f of adapterFor(name).commandFiles({ cli: "pantheon" })) files.set(f.path, { kind: "owned", content: f.content });
  files.set("AGENTS.md", { kind: "block", content: instructionsBlock({ cli: "pantheon" }) });
  if (assistants.includes("claude")) files.set("CLAUDE.md", { kind: "once", content: claudeMdImport() });
  if (assistants.includes("gemini")) files.set("GEMINI.md", { kind: "once", content: geminiMdImport() });
  return files;
}

/**
 * Writes the project files without ever overwriting a user's file: missing ones are created,
 * Pantheon's own are rewritten only with `force`, AGENTS.md gets its marked block, and
 * CLAUDE.md and GEMINI.md are created only when the project has none.
 */
export function ensureProjectFiles(root: string, files: ReadonlyMap<string, ProjectFile>, force: boolean): FileReport {
  const report: FileReport = { created: [], updated: [], existing: [] };
  for (const dir of DIRS) {
    if (existsSync(join(root, dir))) report.existing.push(`${dir}/`);
    else {
      mkdirSync(join(root, dir), { recursive: true });
      report.created.push(`${dir}/`);
    }
  }
  for (const [rel, file] of files) {
    const abs = join(root, rel);
    const before = existsSync(abs) ? readFileSync(abs, "utf8") : null;
    const next = file.kind === "block" ? upsertBlock(before, file.content) : file.content;
    if (before !== null && (file.kind === "once" || before === next || (file.kind === "owned" && !force))) {
      report.existing.push(rel);
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, next);
    (before === null ? report.created : report.updated).push(rel);
  }
  return report;
}

function readme(settings: ProjectSettings): string {
  return `# Pantheon

Coordination files for ${settings.name}. The state itself (tasks, epics, missions, reviews)
lives in git on \`refs/coordination/main\`, not in this folder.

- \`personas/\`: instructions per role; copy one to \`<role>-<variant>.md\`, edit it, and start it
  with \`pantheon summon <role> --template <variant>\`.
- \`procedures/\`: workflow documents personas follow.
- \`planning/\`: planning notes per task (\`pantheon task plan ID\`).

See \`pantheon --help\` and \`pantheon dashboard\`.
`;
}
