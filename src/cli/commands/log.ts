import type { Command } from "commander";
import { escapeText } from "../../render/escape.js";
import { fitLine } from "../../render/fit-line.js";
import { logEntryView } from "../../render/log-view.js";
import { readLog } from "../../services/views/read-log.js";
import type { App } from "../app.js";
import { examples, intOption, run } from "../command-kit.js";
import { view } from "../view.js";

export function registerLogCommand(program: Command, app: App): void {
  examples(
    program
      .command("log")
      .description("Who did what: the newest commits of refs/coordination/main")
      .option("-n <count>", "how many (default 20)", intOption("-n", 1))
      .action(
        run(app, async (o: { n?: number }) => {
          const entries = await readLog(app.context(), { ...(o.n !== undefined && { limit: o.n }) });
          const data = entries.map(logEntryView);
          return view("log", data, (s) =>
            data
              .map((d) =>
                fitLine(s, [
                  { text: d.commit.slice(0, 9), color: s.paint.yellow },
                  " ",
                  { text: d.date.replace("T", " ").slice(0, 16), color: s.paint.dim },
                  " ",
                  d.merge ? "(merge) " : "",
                  escapeText(d.summary),
                ]),
              )
              .join("\n"),
          );
        }),
      ),
    ["pantheon log -n 5", "pantheon log --json | jq -r '.data[] | .actor + \" \" + .op'"],
  );
}
