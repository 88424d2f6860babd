import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import { defaultSettings, settingsFromConfig, type ProjectSettings } from "../../domain/project-config.js";
import { initText } from "../../render/init-text.js";
import { defaultProjectName, detectProjectType, initProject } from "../../services/project/init-project.js";
import { detectProjectDescription } from "../../services/project/project-description.js";
import type { App } from "../app.js";
import { collect, examples, run } from "../command-kit.js";
import { adapterFor } from "../../assistants/registry.js";
import { codexWritableRootsLine } from "../../assistants/codex.js";
import { view } from "../view.js";
import { isInteractive } from "../interactive.js";
import { parseYamlFile } from "../../services/kernel/yaml-module.js";
import { registerMcp } from "../../services/project/register-mcp.js";
import { ASSISTANT_NAMES } from "../../assistants/adapter.js";

interface InitOptions {
  config?: string;
  yes?: boolean;
  force?: boolean;
  assistant?: string[];
  hooks?: boolean;
  mcp?: boolean;
  newState?: boolean;
}

/** How the installed hook runs this very pantheon when `pantheon` is not on PATH. */
function hookCommand(): string[] {
  return [process.execPath, process.argv[1] ?? "pantheon"];
}

/** Reads --config (validated by settingsFromConfig before anything is written: a refused init writes nothing). */
async function configFromFile(app: App, file: string): Promise<unknown> {
  const path = resolve(app.io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(
      `Cannot read config file ${file}`,
      "pantheon init --config pantheon.yaml (see docs/cli.md for its keys)",
    );
  }
  return parseYamlFile(text, file, "check the file's indentation and quoting");
}

export function registerInitCommand(program: Command, app: App): void {
  examples(
    program
      .command("init")
      .description("Set up Pantheon in this repository: the state ref and the .pantheon/ folder")
      .option(
        "--config <file>",
        "answers from a YAML file (project, features, customization, roles, assistant, worktree)",
      )
      .option("--yes", "accept the defaults without asking")
      .option("--force", "rewrite the files Pantheon wrote (marked pantheon:generated); never a file of yours")
      .option(
        "--assistant <name>",
        `install commands for this assistant only: ${ASSISTANT_NAMES.join(", ")} (repeatable)`,
        collect,
      )
      .option("--hooks", "install the commit-msg hook that adds Pantheon-Mission/Pantheon-Task trailers")
      .option("--mcp", "register `pantheon mcp` in each assistant's project MCP configuration (merged only when safe)")
      .option(
        "--new-state",
        "start a new state even though .pantheon/ is committed and no reachable remote has its state (a second, separate history)",
      )
      .action(
        run(app, async (o: InitOptions) => {
          const ctx = app.context();
          const root = (await ctx.store()).root;
          // The manifest's description (package.json, Cargo.toml, pyproject.toml) is the default.
          const defaults = defaultSettings(
            defaultProjectName(root, ctx.cwd),
            detectProjectType(root),
            detectProjectDescription(root),
          );
          let settings: ProjectSettings;
          const fromFile = o.config !== undefined ? await configFromFile(app, o.config) : undefined;
          // On a project already set up, the file's keys are laid over the current settings.
          const apply =
            o.config !== undefined
              ? (current: ProjectSettings) => settingsFromConfig(fromFile, current, o.config!)
              : undefined;
          if (apply) settings = apply(defaults);
          else if (o.yes || (await (await ctx.store()).exists()))
            settings = defaults; // re-running: the answers are on the ref already
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
          const r = await initProject(ctx, settings, {
            force: Boolean(o.force),
            ...(assistants && { assistants }),
            hooks: o.hooks ? hookCommand() : null,
            ...(apply && { apply }),
            ...(o.config !== undefined && { configFile: o.config }),
            newState: Boolean(o.newState),
          });
          const mcp = o.mcp && r.root ? registerMcp(ctx, r.root, assistants ?? ASSISTANT_NAMES) : [];
          const data = {
            project: r.project,
            stateCreated: r.stateCreated,
            adopted: r.adopted,
            refspecAdded: r.refspecAdded,
            refspec: r.refspec,
            adoptedRef: r.adoptedRef,
            commit: r.commit,
            created: r.files.created,
            updated: r.files.updated,
            existing: r.files.existing,
            leftAlone: r.files.leftAlone,
            changes: r.changes,
            hook: r.hook?.result ?? null,
            hookFile: r.hook?.file ?? null,
            hookLine: r.hook?.line ?? null,
            mcp,
            codexWritableRoots: r.codexWritableRoots,
          };
          const text = {
            configFile: o.config ?? null,
            codexLine: r.codexWritableRoots ? codexWritableRootsLine(r.codexWritableRoots) : null,
          };
          return view("init", data, (s) => initText(s, data, text));
        }),
      ),
    [
      "pantheon init --yes",
      "pantheon init --config pantheon.yaml",
      "pantheon init --yes --new-state   # .pantheon/ is committed but its state was never published: start over",
      "pantheon init --force   # refresh Pantheon's own files after an upgrade",
      "pantheon init --mcp --assistant claude",
      "pantheon init --yes --hooks   # with husky (core.hooksPath in the repo): prints the line to add",
    ],
  );
}
