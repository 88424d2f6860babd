import { AssistantExit, UsageError } from "../errors.js";
import { App } from "./app.js";
import { exitCodeFor, isCommanderError } from "./exit-code.js";
import type { IO } from "./io.js";
import { printError, printResult } from "./output.js";
import { buildProgram } from "./program.js";
import { openStore } from "./open-store.js";
import { typedCommandPath } from "./usage-hint.js";

/**
 * Runs one command line and returns its exit code; the only place exit codes are decided.
 * Help and version print through commander and exit 0.
 */
export async function main(argv: string[], io: IO): Promise<number> {
  const app = new App(io, openStore);
  // Flags that shape error output must be known even when parsing fails.
  app.globals = { json: argv.includes("--json"), verbose: argv.includes("-v") || argv.includes("--verbose"), color: !argv.includes("--no-color"), quiet: argv.includes("-q") };
  const program = await buildProgram(app, argv);
  let commandPath = "pantheon";
  program.hook("preAction", (_root, cmd) => {
    const names: string[] = [];
    for (let c: typeof cmd | null = cmd; c; c = c.parent) names.unshift(c.name());
    commandPath = names.join(" ");
  });
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv, { from: "user" });
    if (app.result) printResult(app, app.result);
    return 0;
  } catch (e) {
    const code = exitCodeFor(e);
    if (code === 0) return 0;
    // A command may fail after producing its result (doctor's report): print both.
    if (app.result && (e as { report?: boolean }).report) {
      printResult(app, app.result);
      if (e instanceof AssistantExit) return code; // not an error of pantheon's
    }
    if (isCommanderError(e)) commandPath = typedCommandPath(program, argv);
    printError(app, e instanceof Error || typeof e === "object" ? e : new UsageError(String(e), "pantheon --help"), commandPath);
    return code;
  }
}
