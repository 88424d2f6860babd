import { Command, Option } from "commander";
import type { App } from "./app.js";
import { examples } from "./command-kit.js";
import { registerDashboardCommand } from "./commands/dashboard.js";
import { registerDemoCommand } from "./commands/demo.js";
import { registerDoctorCommand } from "./commands/doctor.js";
import { registerEpicCommands } from "./commands/epic.js";
import { registerLogCommand } from "./commands/log.js";
import { registerReviewCommands } from "./commands/review.js";
import { registerSyncCommand } from "./commands/sync.js";
import { registerSummonCommand } from "./commands/summon.js";
import { registerHookCommand } from "./commands/hook.js";
import { registerInitCommand } from "./commands/init.js";
import { registerMissionCommands } from "./commands/mission.js";
import { registerPersonaCommands } from "./commands/persona.js";
import { registerTaskCommands } from "./commands/task.js";

export const VERSION = "0.1.0";

/** The whole command tree; settings are made before subcommands so they inherit them. */
export function buildProgram(app: App): Command {
  const program = new Command("pantheon")
    .description("Coordinate AI coding-assistant personas: tasks, epics, missions and reviews kept in git (refs/coordination/main).")
    .version(VERSION, "-V, --version")
    .option("-C <path>", "run as if started in <path>")
    .option("--as <persona>", "act as this persona (its ACTIVE mission)")
    .option("--mission <id>", "act under this mission (MSN-0003 or MSN-0003:codename)")
    .option("--json", "print one JSON document on stdout")
    .option("-q, --quiet", "print only the first line of results; no warnings")
    .option("-v, --verbose", "show stack traces of errors")
    .addOption(new Option("--no-color", "never colour output (also NO_COLOR=1)"))
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => app.io.stdout.write(s),
      writeErr: (s) => app.io.stderr.write(s),
      outputError: () => {}, // main() prints every error itself, as ✗ plus a hint
    });
  program.configureHelp({ sortSubcommands: false, showGlobalOptions: true });
  examples(program, [
    "pantheon demo",
    "pantheon init --yes",
    "pantheon mission start --role engineer",
    'pantheon task create --title "Add login" --role engineer --priority high',
    "pantheon task next --role engineer",
  ]);
  registerInitCommand(program, app);
  registerSummonCommand(program, app);
  registerTaskCommands(program, app);
  registerEpicCommands(program, app);
  registerReviewCommands(program, app);
  registerMissionCommands(program, app);
  registerPersonaCommands(program, app);
  registerDashboardCommand(program, app);
  registerSyncCommand(program, app);
  registerLogCommand(program, app);
  registerDoctorCommand(program, app);
  registerHookCommand(program, app);
  registerDemoCommand(program, app);
  return program;
}
