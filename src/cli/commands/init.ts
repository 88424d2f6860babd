import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import { defaultSettings, settingsFromConfig, type ProjectSettings } from "../../domain/project-config.js";
import { escapeText } from "../../render/escape.js";
import { defaultProjectName, detectProjectType, initProject } from "../../services/init-project.js";
import type { App } from "../app.js";
import { collect, examples, run } from "../command-kit.js";
import { adapterFor } from "../../assistants/registry.js";
import { codexWritableRootsLine } from "../../assistants/codex.js";
import { check, view } from "../view.js";
import { isInteractive } from "../interactive.js";
import { loadYaml } from "../../services/yaml-module.js";

interface InitOptions {
  config?: string;
  yes?: boolean;
  force?: boolean;
  assistant?: string[];
  hooks?: boolean;
}

/** How the installed hook runs this very pantheon when `pantheon` is not on PATH. */
function hookCommand(): string[] {
  return [process.execPath, process.argv[1] ?? "pantheon"];
}

/** Reads and validates --config before anything is written: a refused init writes nothing. */
async function settingsFromFile(app: App, file: string, defaults: ProjectSettings): Promise<ProjectSettings> {
  const path = resolve(app.io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`Cannot read config file ${file}`, "pantheon init --config pantheon.yaml (see docs/cli.md for its keys)");
  }
  const { parseDocument } = await loadYaml();
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const line = err.linePos?.[0]?.line;
    throw new UsageError(`Invalid YAML in ${file}${line ? ` at line ${line}` : ""}: ${err.message.split("\n")[0]}`, "check the file's indentation and quoting");
  }
  return settingsFromConfig(doc.toJS(), defaults, file);
}

/** `.pantheon/ (11 files), .claude/ (3), AGENTS.md`: one line however many files. */
function groupPaths(paths: string[]): string {
  const groups = new Map<string, number>();
  for (const p of paths) {
    if (p.endsWith("/") && p.split("/").length > 2) {
      groups.set(p, 0);
      continue;
    }
    const top = p.includes("/") ? `${p.split("/")[0]}/` : p;
    groups.set(top, (groups.get(top) ?? 0) + 1);
  }
  return [...groups].map(([top, n]) => (top.endsWith("/") && n > 0 ? `${top} (${n} file${n === 1 ? "" : "s"})` : top)).join(", ");
}

export function registerInitCommand(program: Command, app: App): void {
  examples(
    program
      .command("init")
      .description("Set up Pantheon in this repository: the state ref and the .pantheon/ folder")
      .option("--config <file>", "answers from a YAML file (project, features, customization, roles, assistant, worktree)")
      .option("--yes", "accept the defaults without asking")
      .option("--force", "rewrite the files Pantheon owns")
      .option("--assistant <name>", "install commands for this assistant only: claude, opencode, codex, gemini (repeatable)", collect)
      .option("--hooks", "install the commit-msg hook that adds Pantheon-Mission/Pantheon-Task trailers")
      .action(run(app, async (o: InitOptions) => {
        const ctx = app.context();
        const root = (await ctx.store()).root;
        const defaults = defaultSettings(defaultProjectName(root, ctx.cwd), detectProjectType(root));
        let settings: ProjectSettings;
        if (o.config !== undefined) settings = await settingsFromFile(app, o.config, defaults);
        else if (o.yes || (await (await ctx.store()).exists())) settings = defaults; // re-running: the answers are on the ref already
        else if (isInteractive(app.io)) {
          const { askProjectSettings } = await import("../init-wizard.js");
          settings = await askProjectSettings(defaults);
        } else {
          throw new UsageError(
            "init needs answers: project name, type, description, features and roles, and there is no terminal to ask",
            "pantheon init --yes (defaults) or pantheon init --config pantheon.yaml",
          );
        }
        const assistants = o.assistant?.map((a) => adapterFor(a).name);
        const r = await initProject(ctx, settings, { force: Boolean(o.force), ...(assistants && { assistants }), hooks: o.hooks ? hookCommand() : null });
        const data = { project: r.project, stateCreated: r.stateCreated, adopted: r.adopted, commit: r.commit, created: r.files.created, updated: r.files.updated, existing: r.files.existing, hook: r.hook, codexWritableRoot: r.codexWritableRoot };
        return view("init", data, (s) => {
          const name = escapeText(r.project.name);
          const lines = [
            r.adopted
              ? check(s, `Adopted the Pantheon state of "${name}" from ${r.adopted} (refs/coordination/main)`)
              : r.stateCreated
                ? check(s, `Initialized Pantheon for "${name}" on refs/coordination/main`)
                : check(s, `Pantheon is already set up for "${name}"; added what was missing`),
          ];
          const files = (list: string[]) => list.filter((f) => !f.endsWith("/"));
          // A folder is worth naming only when nothing inside it is named (an empty planning/).
          const shown = (list: string[]) => list.filter((f) => !f.endsWith("/") || !list.some((g) => g !== f && g.startsWith(f)));
          for (const [label, list] of [["created", shown(r.files.created)], ["updated", shown(r.files.updated)], ["kept", shown(r.files.existing)]] as const) {
            if (list.length === 0) continue;
            const text = `  ${label.padEnd(7)} ${groupPaths(list)}`;
            lines.push(label === "kept" ? s.paint.dim(text) : text);
          }
          const toCommit = [...new Set([...files(r.files.created), ...files(r.files.updated)].map((f) => f.split("/")[0]!))];
          if (toCommit.length > 0) lines.push("", `Commit these files: git add ${toCommit.join(" ")} && git commit -m "Set up Pantheon"`);
          if (r.hook) lines.push(`  ${r.hook} the commit-msg hook (adds Pantheon-Mission/Pantheon-Task trailers on a mission)`);
          if (r.codexWritableRoot && (r.stateCreated || r.adopted)) {
            // codex's sandbox keeps .git read-only; summon adds it, a session the user starts needs this.
            lines.push("", "For codex sessions you start yourself (summon does this for its own), add to ~/.codex/config.toml:", "  [sandbox_workspace_write]", `  ${escapeText(codexWritableRootsLine(r.codexWritableRoot))}`, "");
          }
          lines.push("Next: pantheon mission start --role engineer, then pantheon task create --title ... --role engineer");
          return lines.join("\n");
        });
      })),
    ["pantheon init --yes", "pantheon init --config pantheon.yaml"],
  );
}
