import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSISTANT_NAMES } from "../../assistants/adapter.js";
import type { Finding } from "../../domain/state-checks.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Context } from "../kernel/context.js";
import { hasGeneratedMark } from "../project/generated-mark.js";
import { projectFiles } from "../project/project-files.js";
import { installedThemes } from "../project/project-settings.js";

/**
 * What `doctor` says about the project's settings and files: a theme that is not installed
 * (every `mission start` without `--persona` would fail), a user's file where Pantheon installs
 * a command (it stands in for Pantheon's), a CLAUDE.md that hides Pantheon's AGENTS.md block.
 */
export function projectFileFindings(ctx: Context, root: string | null, project: Project): Finding[] {
  const out: Finding[] = [];
  const theme = project.customization.personasTheme;
  const themes = installedThemes(ctx);
  if (!themes.includes(theme)) {
    out.push({
      severity: "error",
      code: "E_THEME",
      subject: "project.json",
      message: `the persona theme "${theme}" is not installed (installed: ${themes.join(", ")}): mission start without --persona and summon fail`,
      fix: `pantheon config set customization.personas_theme ${themes.includes("mythology") ? "mythology" : (themes[0] ?? "mythology")}`,
      fixable: false,
    });
  }
  if (!root) return out;
  for (const [path, file] of projectFiles(project, ctx.templatesDir, ASSISTANT_NAMES)) {
    if (!file.command && !file.check) continue;
    const abs = join(root, path);
    if (!existsSync(abs)) continue;
    const text = readFileSync(abs, "utf8");
    if (file.command && !hasGeneratedMark(text) && text !== file.content) {
      out.push({
        severity: "warning",
        code: "W_SHADOWED",
        subject: path,
        message: `${path} is not Pantheon's: it stands in for Pantheon's ${file.command}`,
        fix: `rename it if you want Pantheon's, then run pantheon init`,
        fixable: false,
      });
    }
    const reason = file.check?.(text);
    if (reason)
      out.push({
        severity: "warning",
        code: "W_PROJECT_FILE",
        subject: path,
        message: `${path}: ${reason}`,
        fix: "edit the file as said",
        fixable: false,
      });
  }
  return out;
}
