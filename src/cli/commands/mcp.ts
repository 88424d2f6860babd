import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { VERSION } from "../program.js";

export function registerMcpCommand(program: Command, app: App): void {
  examples(
    program
      .command("mcp")
      .description(
        "Serve the persona's workflow as Model Context Protocol tools on stdio (for assistants; see init --mcp)",
      )
      .option(
        "--director",
        "act as the Director when no mission is named (for your own client's configuration only; init never writes it)",
      )
      .addHelpText(
        "after",
        "\nTools: next, show, claim, update, handoff, unassign, note, close, create, search, report, review, mission_start, mission_end.\n" +
          "The actor: a call's mission, else the mission started in the session or given with --mission/--as, else\n" +
          "PANTHEON_MISSION, else an unidentified persona (reads and creates only): a model drives this server,\n" +
          "so it is never the Director unless --director says so.\n",
      )
      .action(
        run(app, async (o: { director?: boolean }) => {
          const director = Boolean(o.director);
          if (director && (app.globals.mission !== undefined || app.globals.as !== undefined))
            throw new UsageError(
              "--director acts as the Director, while --mission and --as name a persona: give one of them",
              "pantheon mcp --director (in your own client's configuration), or pantheon --mission <id> mcp",
            );
          if (app.io.stdinIsTTY)
            app.warn(
              "pantheon mcp speaks the Model Context Protocol on stdin/stdout, for assistants (see pantheon init --mcp); Ctrl-C stops it",
            );
          // Loaded only here: the SDK and the server never touch another command's start-up.
          const { serveMcp } = await import("../../mcp/serve.js");
          await serveMcp({
            cwd: app.cwd(),
            env: app.io.env,
            version: VERSION,
            mission: app.globals.mission,
            as: app.globals.as,
            director,
            log: (m) => app.warn(m),
          });
          return undefined; // a server prints no result: stdout carried the protocol
        }),
      ),
    [
      "claude mcp add pantheon -- pantheon mcp",
      "pantheon init --mcp",
      "claude mcp add --scope user pantheon-director -- pantheon mcp --director",
    ],
  );
}
