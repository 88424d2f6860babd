import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import { defaultSettings, settingsFromConfig, type ProjectSettings } from "../../domain/project-config.js";
import { displayWidth, escapeText } from "../../render/escape.js";
import type { Style } from "../../render/paint.js";
import { wrapLine } from "../../render/wrap-text.js";
import { changeLine } from "../../render/config-view.js";
import { defaultProjectName, detectProjectType, initProject } from "../../services/project/init-project.js";
import { detectProjectDescription } from "../../services/project/project-description.js";
import type { App } from "../app.js";
import { collect, examples, run } from "../command-kit.js";
import { adapterFor } from "../../assistants/registry.js";
import { codexWritableRootsLine } from "../../assistants/codex.js";
import { check, view } from "../view.js";
import { isInteractive } from "../interactive.js";
import { parseYamlFile } from "../../services/kernel/yaml-module.js";
import { registerMcp, type McpRegistration } from "../../services/project/register-mcp.js";
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

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

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
  return [...groups]
    .map(([top, n]) => (top.endsWith("/") && n > 0 ? `${top} (${n} file${n === 1 ? "" : "s"})` : top))
    .join(", ");
}

/**
 * The report on a terminal: prose wrapped at words to its width, each continuation under the
 * text it continues (file lists after their label, a command's description after the command);
 * lines to copy (`verbatim`: commands, a hook line, TOML, JSON) are never broken.
 */
function wrapReport(s: Style, lines: string[], verbatim: ReadonlySet<string>): string {
  return lines
    .map((line) => {
      if (verbatim.has(line)) return line;
      const plain = line.replace(ANSI, "");
      const hang = /^ {2}(created|updated|kept|mcp) /.test(plain)
        ? 10
        : /^ {2}! /.test(plain)
          ? 4
          : /^ {2}pantheon \S.*? {2,}(?=\S)/.exec(plain)?.[0].length;
      const lead = /^ */.exec(plain)![0].length;
      return wrapLine(s, line, hang ?? (lead > 0 ? lead + 2 : 0));
    })
    .join("\n");
}

/** `mcp     claude .mcp.json (created), ...`, then what to add by hand where merging was not safe. */
function mcpLines(mcp: McpRegistration[], keep: (line: string) => string): string[] {
  if (mcp.length === 0) return [];
  const lines = [`  ${"mcp".padEnd(7)} ${mcp.map((m) => `${m.assistant} ${m.path} (${m.action})`).join(", ")}`];
  for (const m of mcp) {
    if (m.note) lines.push(`  ${m.assistant}: ${escapeText(m.note)}`);
    if (m.add && m.action !== "existing")
      lines.push(
        ...m.add
          .trimEnd()
          .split("\n")
          .map((l) => keep(`      ${escapeText(l)}`)),
      );
  }
  return lines;
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
          return view("init", data, (s) => {
            const verbatim = new Set<string>();
            const keep = (line: string) => {
              verbatim.add(line);
              return line;
            };
            const name = escapeText(r.project.name);
            const lines = [
              r.adopted
                ? check(s, `Adopted the Pantheon state of "${name}" from ${r.adopted} (${r.adoptedRef})`)
                : r.stateCreated
                  ? check(s, `Initialized Pantheon for "${name}" on refs/coordination/main`)
                  : o.config === undefined
                    ? check(s, `Pantheon is already set up for "${name}"; added what was missing`)
                    : check(
                        s,
                        `Pantheon is already set up for "${name}"; ${r.changes.length === 0 ? `${escapeText(o.config)} changes no setting` : `applied ${escapeText(o.config)}:`}`,
                      ),
              ...r.changes.map((c) => `  ${changeLine(c)}`),
            ];
            const files = (list: string[]) => list.filter((f) => !f.endsWith("/"));
            // A folder is worth naming only when nothing inside it is named (an empty planning/).
            const shown = (list: string[]) =>
              list.filter((f) => !f.endsWith("/") || !list.some((g) => g !== f && g.startsWith(f)));
            for (const [label, list] of [
              ["created", shown(r.files.created)],
              ["updated", shown(r.files.updated)],
              ["kept", shown(r.files.existing)],
            ] as const) {
              if (list.length === 0) continue;
              const text = `  ${label.padEnd(7)} ${groupPaths(list)}`;
              lines.push(label === "kept" ? s.paint.dim(text) : text);
            }
            for (const f of r.files.leftAlone)
              lines.push(`  ${s.paint.yellow("!")} ${escapeText(f.path)}: ${escapeText(f.reason)}`);
            lines.push(...mcpLines(mcp, keep));
            const mcpFiles = mcp.filter((m) => m.action === "created" || m.action === "updated").map((m) => m.path);
            const toCommit = [
              ...new Set(
                [...files(r.files.created), ...files(r.files.updated), ...mcpFiles].map((f) => f.split("/")[0]!),
              ),
            ];
            if (toCommit.length > 0) {
              // A command is never broken inside: on a narrow terminal it gets a line of its own.
              const command = `git add ${toCommit.join(" ")} && git commit -m "Set up Pantheon"`;
              const one = `Commit these files: ${command}`;
              if (!s.tty || displayWidth(one) <= s.width) lines.push("", keep(one));
              else lines.push("", "Commit these files:", keep(`  ${command}`));
            }
            if (r.refspecAdded)
              lines.push(
                `  ${escapeText(`added to remote.${r.refspecAdded}.fetch: ${r.refspec}`)} (git fetch brings the state too)`,
              );
            if (r.hook?.result === "manual") {
              lines.push(
                `  the commit-msg hook is yours to edit: git runs hooks from the working tree (${r.hook.file} is shared code), so Pantheon writes nothing there. Add this line to ${r.hook.file}:`,
                keep(`    ${r.hook.line}`),
              );
            } else if (r.hook)
              lines.push(
                `  ${r.hook.result} the commit-msg hook (adds Pantheon-Mission/Pantheon-Task trailers on a mission)`,
              );
            if (r.codexWritableRoots && (r.stateCreated || r.adopted)) {
              // codex's sandbox keeps .git read-only; summon adds pantheon's folders of it, a
              // session the user starts needs this line (never the whole common dir).
              lines.push(
                "",
                "For codex sessions you start yourself (summon does this for its own), add to ~/.codex/config.toml:",
                "  [sandbox_workspace_write]",
                keep(`  ${escapeText(codexWritableRootsLine(r.codexWritableRoots))}`),
              );
            }
            // The first day only: a re-run is about files and settings.
            if (r.stateCreated || r.adopted) {
              const role = r.project.roles.includes("engineer")
                ? "engineer"
                : (r.project.roles.find((x) => x !== "administrator") ?? "engineer");
              lines.push(
                "",
                "Next:",
                `  pantheon summon ${role.padEnd(13)} start an AI assistant as a${/^[aeio]/.test(role) ? "n" : ""} ${role} persona (or /summon inside one)`,
                keep(`  pantheon task create --title "..." --role ${role}`),
                "  pantheon dashboard            who works on what, what is blocked, what waits for review",
                r.adopted
                  ? `  pantheon sync                 share your changes; claims, mission starts and ends and reviews publish themselves`
                  : "  pantheon sync                 share the state with teammates through your git remote (publish it once now)",
                "",
                r.adopted
                  ? `Teammates get the state the same way: git clone, then any pantheon command (it takes ${r.adopted}'s state).`
                  : "Teammates: after your first pantheon sync, they git clone and run any pantheon command: it takes the state from the remote (a plain git clone or pull brings none).",
              );
            }
            return wrapReport(s, lines, verbatim);
          });
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
