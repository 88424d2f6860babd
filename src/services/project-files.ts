import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ProjectSettings } from "../domain/project-config.js";

export interface FileReport {
  /** Paths created now, relative to the project root. */
  created: string[];
  /** Paths that already existed and were left as they were. */
  existing: string[];
}

const DIRS = [".pantheon/personas", ".pantheon/procedures", ".pantheon/planning"];

/**
 * Creates Pantheon's project folders and files. Never overwrites a file it did not create
 * (`force` rewrites only files Pantheon owns); re-running reports what was already there.
 */
export function ensureProjectFiles(root: string, files: ReadonlyMap<string, string>, force: boolean): FileReport {
  const report: FileReport = { created: [], existing: [] };
  for (const dir of DIRS) {
    const abs = join(root, dir);
    if (existsSync(abs)) report.existing.push(`${dir}/`);
    else {
      mkdirSync(abs, { recursive: true });
      report.created.push(`${dir}/`);
    }
  }
  for (const [rel, content] of files) {
    const abs = join(root, rel);
    if (existsSync(abs) && !force) {
      report.existing.push(rel);
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    report.created.push(rel);
  }
  return report;
}

/** The files `init` writes for a project (the persona templates join them with the wizard). */
export function projectFiles(settings: ProjectSettings): Map<string, string> {
  return new Map([
    [
      ".pantheon/README.md",
      `# Pantheon\n\nCoordination files for ${settings.name}. The state itself (tasks, epics, missions,\nreviews) lives in git on \`refs/coordination/main\`, not in this folder.\n\n- \`personas/\`: instructions per role; copy one to \`<role>-<variant>.md\` to customise it.\n- \`procedures/\`: workflow documents personas follow.\n- \`planning/\`: planning notes per task (\`pantheon task plan ID\`).\n\nSee \`pantheon --help\` and \`pantheon dashboard\`.\n`,
    ],
  ]);
}
