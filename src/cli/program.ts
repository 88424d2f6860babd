import { Command, Option } from "commander";
import type { App } from "./app.js";
import { examples } from "./command-kit.js";

export const VERSION = "0.1.0";

type Register = (program: Command, app: App) => void;

/**
 * Each top-level command's module is reached by a dynamic import: the bundle is one file
 * (scripts/build.mjs), but a dynamic import inside it stays lazy, so a command line evaluates
 * only the group it runs (personas call the CLI hundreds of times; start-up is most of a
 * command's cost).
 */
const GROUPS: Record<string, () => Promise<Register>> = {
  init: async () => (await import("./commands/init.js")).registerInitCommand,
  summon: async () => (await import("./commands/summon.js")).registerSummonCommand,
  task: async () => (await import("./commands/everyday.js")).EVERYDAY.task!,
  epic: async () => (await import("./commands/everyday.js")).EVERYDAY.epic!,
  review: async () => (await import("./commands/everyday.js")).EVERYDAY.review!,
  mission: async () => (await import("./commands/everyday.js")).EVERYDAY.mission!,
  persona: async () => (await import("./commands/everyday.js")).EVERYDAY.persona!,
  dashboard: async () => (await import("./commands/everyday.js")).EVERYDAY.dashboard!,
  sync: async () => (await import("./commands/sync.js")).registerSyncCommand,
  log: async () => (await import("./commands/everyday.js")).EVERYDAY.log!,
  doctor: async () => (await import("./commands/doctor.js")).registerDoctorCommand,
  status: async () => (await import("./commands/status.js")).registerStatusCommand,
  hook: async () => (await import("./commands/hook.js")).registerHookCommand,
  demo: async () => (await import("./commands/demo.js")).registerDemoCommand,
  config: async () => (await import("./commands/config.js")).registerConfigCommand,
  mcp: async () => (await import("./commands/mcp.js")).registerMcpCommand,
  web: async () => (await import("./commands/web.js")).registerWebCommand,
  completion: async () => (await import("./commands/completion.js")).registerCompletionCommand,
  __complete: async () => (await import("./commands/completion.js")).registerCompleteCommand,
};

/** Global options that take a value: their value is never a command word. */
export const VALUE_OPTIONS: ReadonlySet<string> = new Set(["-C", "--as", "--mission"]);

/** The top-level command a command line names, skipping global options and their values. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return argv[i + 1];
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (!a.startsWith("-")) return a;
  }
  return undefined;
}

/** The command tree for this command line; settings are made before subcommands so they inherit them. */
export async function buildProgram(app: App, argv: readonly string[]): Promise<Command> {
  const program = new Command("pantheon")
    .description(
      "Coordinate AI coding-assistant personas: tasks, epics, missions and reviews kept in git (refs/coordination/main).",
    )
    .version(VERSION, "-V, --version")
    .option("-C <path>", "run as if started in <path>")
    .option("--as <persona>", "act as this persona (its ACTIVE mission)")
    .option("--mission <id>", "act under this mission (MSN-0003 or MSN-0003:codename)")
    .option("--json", "print one JSON document on stdout")
    .option("-q, --quiet", "print only the first line of results; no warnings")
    .option("-v, --verbose", "show stack traces of errors, and every finding of doctor")
    .option(
      "--offline",
      "no network call of its own: claims, mission start/end, review decisions and summon are not published (pantheon sync later)",
    )
    .addOption(new Option("--no-color", "never colour output (also NO_COLOR=1)"))
    .addOption(new Option("--no-headers", "print tables without their header row (piped output has one too)"))
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
  const word = commandWord(argv);
  if (word === undefined && argv.some((a) => a === "-V" || a === "--version")) return program; // nothing else is needed
  // An unknown word or no command (help): everything, so help and suggestions are complete.
  const names = word !== undefined && word in GROUPS ? [word] : Object.keys(GROUPS);
  for (const register of await Promise.all(names.map((n) => GROUPS[n]!()))) register(program, app);
  return program;
}
