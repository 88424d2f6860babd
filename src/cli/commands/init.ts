import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import { defaultSettings, settingsFromConfig, type ProjectSettings } from "../../domain/project-config.js";
import { escapeText } from "../../render/escape.js";
import { defaultProjectName, detectProjectType, initProject } from "../../services/init-project.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { check, view } from "../view.js";
import { isInteractive } from "../interactive.js";
import { loadYaml } from "../../services/yaml-module.js";

interface InitOptions {
  config?: string;
  yes?: boolean;
  force?: boolean;
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

export function registerInitCommand(program: Command, app: App): void {
  examples(
    program
      .command("init")
      .description("Set up Pantheon in this repository: the state ref and the .pantheon/ folder")
      .option("--config <file>", "answers from a YAML file (project, features, customization, roles, assistant, worktree)")
      .option("--yes", "accept the defaults without asking")
      .option("--force", "rewrite the files Pantheon owns")
      .action(run(app, async (o: InitOptions) => {
        const ctx = app.context();
        const root = (await ctx.store()).root;
        const defaults = defaultSettings(defaultProjectName(root, ctx.cwd), detectProjectType(root));
        let settings: ProjectSettings;
        if (o.config !== undefined) settings = await settingsFromFile(app, o.config, defaults);
        else if (o.yes) settings = defaults;
        else if (isInteractive(app.io)) {
          const { askProjectSettings } = await import("../init-wizard.js");
          settings = await askProjectSettings(defaults);
        } else {
          throw new UsageError(
            "init needs answers: project name, type, description, features and roles, and there is no terminal to ask",
            "pantheon init --yes (defaults) or pantheon init --config pantheon.yaml",
          );
        }
        const r = await initProject(ctx, settings, { force: Boolean(o.force) });
        const data = { project: r.project, stateCreated: r.stateCreated, adopted: r.adopted, commit: r.commit, created: r.files.created, existing: r.files.existing };
        return view("init", data, (s) => {
          const name = escapeText(r.project.name);
          const lines = [
            r.adopted
              ? check(s, `Adopted the Pantheon state of "${name}" from ${r.adopted} (refs/coordination/main)`)
              : r.stateCreated
                ? check(s, `Initialized Pantheon for "${name}" on refs/coordination/main`)
                : check(s, `Pantheon is already set up for "${name}"; added what was missing`),
          ];
          for (const f of r.files.created) lines.push(`  created ${f}`);
          for (const f of r.files.existing) lines.push(s.paint.dim(`  kept    ${f}`));
          const toCommit = r.files.created.filter((f) => !f.endsWith("/"));
          if (toCommit.length > 0) lines.push("", `Commit these files: git add ${toCommit.join(" ")} && git commit -m "Set up Pantheon"`);
          lines.push("Next: pantheon mission start --role engineer, then pantheon task create --title ... --role engineer");
          return lines.join("\n");
        });
      })),
    ["pantheon init --yes", "pantheon init --config pantheon.yaml"],
  );
}
