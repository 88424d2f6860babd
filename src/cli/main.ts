import { AssistantExit, PantheonError, RenumberedError, UsageError } from "../errors.js";
import { epilogue, TAKES_STATE_ON_FIRST_USE } from "./epilogue.js";
import { App } from "./app.js";
import { exitCodeFor, isCommanderError } from "./exit-code.js";
import type { IO } from "./io.js";
import { printError, printResult } from "./output.js";
import { buildProgram } from "./program.js";
import { openStore } from "./open-store.js";
import { renumberedHint } from "./renumbered-hint.js";
import { typedCommandPath } from "./usage-hint.js";

/**
 * Commands that first end this clone's missions whose assistant session is gone (DESIGN §5).
 * Not `doctor`, which reports them (and `--fix` ends them), nor the hooks, completion and servers.
 */
const ENDS_GONE_SESSIONS = /^pantheon (task|epic|review|mission|persona|dashboard|log|summon|config|status|sync)\b/;

/**
 * Runs one command line and returns its exit code; the only place exit codes are decided.
 * Help and version print through commander and exit 0.
 */
export async function main(argv: string[], io: IO, o: { afterFirstUse?: boolean } = {}): Promise<number> {
  const app = new App(io, openStore);
  // Flags that shape error output must be known even when parsing fails.
  app.globals = {
    json: argv.includes("--json"),
    verbose: argv.includes("-v") || argv.includes("--verbose"),
    color: !argv.includes("--no-color"),
    quiet: argv.includes("-q"),
  };
  const program = await buildProgram(app, argv);
  let commandPath = "pantheon";
  program.hook("preAction", (_root, cmd) => {
    const names: string[] = [];
    for (let c: typeof cmd | null = cmd; c; c = c.parent) names.unshift(c.name());
    commandPath = names.join(" ");
    app.endsGoneSessions = ENDS_GONE_SESSIONS.test(commandPath);
  });
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv, { from: "user" });
    if (app.result) printResult(app, app.result);
    await epilogue(app, commandPath, true, { watch: argv.includes("--watch") });
    return 0;
  } catch (caught) {
    let e = caught;
    // A teammate's first command in a fresh clone: take the remote's state, then run it again.
    if (
      !o.afterFirstUse &&
      e instanceof PantheonError &&
      e.code === "E_NOT_INITIALIZED" &&
      TAKES_STATE_ON_FIRST_USE.test(commandPath) &&
      !app.result
    ) {
      try {
        const { stateOnFirstUse } = await import("../services/sync/clone-status.js");
        const first = await stateOnFirstUse(app.context());
        if ("adopted" in first) {
          app.warn(`this clone had no Pantheon state (a git clone does not bring it): took ${first.adopted}'s`);
          return main(argv, io, { afterFirstUse: true });
        }
        e = first.error;
      } catch (failed) {
        e = failed;
      }
    }
    const code = exitCodeFor(e);
    if (code === 0) return 0;
    // A command may fail after producing its result (doctor's report): print both.
    if (app.result && (e as { report?: boolean }).report) {
      printResult(app, app.result);
      if (e instanceof AssistantExit) return code; // not an error of pantheon's
    }
    if (isCommanderError(e)) commandPath = typedCommandPath(program, argv);
    const shown =
      e instanceof RenumberedError
        ? renumberedHint(e, argv)
        : e instanceof Error || typeof e === "object"
          ? e
          : new UsageError(String(e), "pantheon --help");
    printError(app, shown, commandPath);
    await epilogue(app, commandPath, false);
    return code;
  }
}
