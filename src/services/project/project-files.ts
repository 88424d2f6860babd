import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AssistantName } from "../../assistants/adapter.js";
import { instructionsBlock, upsertBlock } from "../../assistants/instructions-block.js";
import { adapterFor, ASSISTANTS } from "../../assistants/registry.js";
import { renderTemplate } from "../../assistants/render-template.js";
import { escapeInline } from "../../domain/control-chars.js";
import type { ProjectSettings } from "../../domain/project-config.js";
import { GENERATED, hasGeneratedMark, withGeneratedMark } from "./generated-mark.js";

export interface FileReport {
  /** Paths created now, relative to the project root. */
  created: string[];
  /** Paths Pantheon rewrote or updated (with --force, or its block in AGENTS.md). */
  updated: string[];
  /** Paths that already existed and were left as they were. */
  existing: string[];
  /** Existing files that differ from Pantheon's and were left alone, each with why. */
  leftAlone: Array<{ path: string; reason: string }>;
}

/** owned: Pantheon's own file; block: a marked block inside the user's file; once: created only if absent. */
export interface ProjectFile {
  content: string;
  kind: "owned" | "block" | "once";
  /** The assistant command a user's file at this path would stand in for (`/summon in claude`). */
  command?: string;
  /** For a `once` file the user has: why it matters that it is theirs, or null when it does not. */
  check?: (existing: string) => string | null;
}

const DIRS = [".pantheon/personas", ".pantheon/procedures", ".pantheon/planning"];

/**
 * Variables every template may use: the project's fields and `customization.variables`.
 * renderTemplate escapes control characters; the name and the variables sit inside lines
 * (headings, sentences), so their line breaks are escaped too: a value pushed to the shared
 * state cannot start a heading or a paragraph of its own in a persona's instructions.
 */
export function projectVariables(settings: ProjectSettings): Record<string, string> {
  const vars: Record<string, string> = {
    "project.name": escapeInline(settings.name),
    "project.type": settings.type,
    "project.description": settings.description,
  };
  for (const [k, v] of Object.entries(settings.customization.variables)) vars[`vars.${k}`] = escapeInline(v);
  return vars;
}

/** The files `init` installs, from `templates/`, for the included roles and chosen assistants. */
export function projectFiles(
  settings: ProjectSettings,
  templatesDir: string,
  assistants: readonly AssistantName[],
): Map<string, ProjectFile> {
  const read = (rel: string) => readFileSync(join(templatesDir, rel), "utf8");
  const vars = projectVariables(settings);
  const files = new Map<string, ProjectFile>();
  files.set(".pantheon/README.md", { kind: "owned", content: readme(settings) });
  // The description stays a placeholder too: summon quotes the current one as a fenced block
  // (project.json is shared state, and `config set` may change it later). Filled in here, a
  // description without a final stop ran into the template's next sentence.
  const { "project.description": _description, ...personaVars } = vars;
  for (const role of settings.roles) {
    // Persona and mission placeholders stay for `summon`; the project's are filled now.
    files.set(`.pantheon/personas/${role}.md`, {
      kind: "owned",
      content: renderTemplate(read(`personas/${role}.md`), { ...personaVars, role }),
    });
  }
  files.set(".pantheon/procedures/README.md", {
    kind: "owned",
    content: renderTemplate(read("procedures/README.md"), vars),
  });
  if (settings.features.commitGuidelines)
    files.set(".pantheon/procedures/commit-guidelines.md", {
      kind: "owned",
      content: renderTemplate(read("procedures/commit-guidelines.md"), vars),
    });
  for (const name of assistants)
    for (const f of adapterFor(name).commandFiles({ cli: "pantheon" }))
      files.set(f.path, { kind: "owned", content: f.content, command: `${commandName(f.path)} in ${name}` });
  files.set("AGENTS.md", { kind: "block", content: instructionsBlock({ cli: "pantheon" }) });
  // In the registry's order, whatever the order asked for: the report lists them so.
  for (const a of ASSISTANTS) {
    const own = a.instructionsFile;
    if (!own || !assistants.includes(a.name)) continue;
    files.set(own.path, {
      kind: "once",
      content: own.content,
      check: (text) => seesAgentsMd(text, own.path, own.reader),
    });
  }
  return files;
}

/** `.claude/commands/summon.md` → `/summon`; a codex skill `.agents/skills/summon/SKILL.md` → `$summon`. */
function commandName(path: string): string {
  const parts = path.split("/");
  const file = parts.at(-1)!;
  return file === "SKILL.md" ? `$${parts.at(-2)}` : `/${file.replace(/\.[^.]+$/, "")}`;
}

/** An assistant that reads its own file (CLAUDE.md, GEMINI.md), not AGENTS.md: Pantheon's block reaches it only through an import. */
function seesAgentsMd(text: string, file: string, assistant: string): string | null {
  return /^\s*@(\.\/)?AGENTS\.md\s*$/m.test(text)
    ? null
    : `your ${file} does not import AGENTS.md, so ${assistant} will not see Pantheon's block: add a line @AGENTS.md to it`;
}

/**
 * Writes the project files without ever overwriting a user's file: missing ones are created
 * (with the generated mark), Pantheon's own are rewritten only with `force`, AGENTS.md gets its
 * marked block, and an assistant's own instructions file (CLAUDE.md, GEMINI.md) is created only when the project has none. A file is Pantheon's
 * when it carries the mark or is exactly what Pantheon writes; any other file at one of these
 * paths is the user's, left alone and named with why (it may stand in for a Pantheon command).
 */
export function ensureProjectFiles(root: string, files: ReadonlyMap<string, ProjectFile>, force: boolean): FileReport {
  const report: FileReport = { created: [], updated: [], existing: [], leftAlone: [] };
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
    const next =
      file.kind === "block"
        ? upsertBlock(before, file.content)
        : file.kind === "owned"
          ? withGeneratedMark(rel, file.content)
          : file.content;
    if (before !== null && before !== next) {
      const reason = leftAloneBecause(file, before, force);
      if (reason !== undefined) {
        report.existing.push(rel);
        if (reason) report.leftAlone.push({ path: rel, reason });
        continue;
      }
    }
    if (before !== null && before === next) {
      report.existing.push(rel);
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, next);
    (before === null ? report.created : report.updated).push(rel);
  }
  return report;
}

/** Why an existing file that differs from Pantheon's is not written ("" says nothing), or undefined to write it. */
function leftAloneBecause(file: ProjectFile, before: string, force: boolean): string | undefined {
  if (file.kind === "block") return undefined;
  if (file.kind === "once") return file.check?.(before) ?? "";
  if (hasGeneratedMark(before))
    return force ? undefined : "Pantheon's, from another version or edited: pantheon init --force rewrites it";
  // Exactly what Pantheon writes, from before files were marked: Pantheon's, nothing to say.
  if (before === file.content) return force ? undefined : "";
  const stands = file.command ? `; it stands in for Pantheon's ${file.command} (rename it to get Pantheon's)` : "";
  return `yours (no ${GENERATED} line): never overwritten${stands}`;
}

function readme(settings: ProjectSettings): string {
  return `# Pantheon

Coordination files for ${escapeInline(settings.name)}. The state itself (tasks, epics, missions, reviews)
lives in git on \`refs/coordination/main\`, not in this folder.

- \`personas/\`: instructions per role; copy one to \`<role>-<variant>.md\`, edit it, and start it
  with \`pantheon summon <role> --template <variant>\`.
- \`procedures/\`: workflow documents personas follow.
- \`planning/\`: planning notes per task (\`pantheon task plan ID\`).

See \`pantheon --help\` and \`pantheon dashboard\`.
`;
}
