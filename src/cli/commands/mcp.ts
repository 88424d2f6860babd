import type { Command } from "commander";
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
      .addHelpText(
        "after",
        "\nTools: next, show, claim, update, handoff, note, close, create, search, report, review, mission_start, mission_end.\nThe actor: a call's mission, else the mission started in the session or given with --mission/--as, else PANTHEON_MISSION.\n",
      )
      .action(
        run(app, async () => {
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
            log: (m) => app.warn(m),
          });
          return undefined; // a server prints no result: stdout carried the protocol
        }),
      ),
    ["claude mcp add pantheon -- pantheon mcp", "pantheon init --mcp"],
  );
}
