import type { Command } from "commander";
import { statusText, statusView } from "../../render/status-view.js";
import { liveStatus } from "../../services/live/live-status.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { view } from "../view.js";
import { watchStatus } from "../watch.js";

export function registerStatusCommand(program: Command, app: App): void {
  examples(
    program
      .command("status")
      .description(
        "Live state of every ACTIVE persona summoned here (starting, working, needs-input, idle, stalled, ended), who waits longest first",
      )
      .option(
        "--watch",
        "redraw within a second of a change and ring the terminal when a persona needs you, until Ctrl-C",
      )
      .action(
        run(app, async (o: { watch?: boolean }) => {
          if (o.watch) await watchStatus(app);
          const data = statusView(await liveStatus(app.context()));
          const now = app.context().now();
          return view("status", data, (s) => statusText(data, s, now));
        }),
      ),
    ["pantheon status", "pantheon status --json", "pantheon status --watch"],
  );
}
