import type { Command } from "commander";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { runDemo } from "../demo-script.js";
import { view } from "../view.js";

export function registerDemoCommand(program: Command, app: App): void {
  examples(
    program
      .command("demo")
      .description("Watch personas coordinate in a throwaway repository (no assistant needed)")
      .option("--keep", "keep the temporary repository and print its path")
      .action(
        run(app, async (o: { keep?: boolean }) => {
          const r = await runDemo(app, Boolean(o.keep));
          return view("demo", { repository: r.dir, steps: r.steps.length, kept: r.kept }, () => r.transcript);
        }),
      ),
    ["pantheon demo", "pantheon demo --keep"],
  );
}
