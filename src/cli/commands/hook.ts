import type { Command } from "commander";
import { addProvenanceTrailers } from "../../services/commit-msg-hook.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { view } from "../view.js";

export function registerHookCommand(program: Command, app: App): void {
  const hook = program.command("hook").description("Git hooks Pantheon installs (init --hooks)");
  examples(
    hook
      .command("commit-msg <file>")
      .description("Add Pantheon-Mission and Pantheon-Task trailers to a commit message when PANTHEON_MISSION is set")
      .action(run(app, async (file: string) => {
        const added = await addProvenanceTrailers(app.context(), file);
        return view("hook", { added }, () => "");
      })),
    ["PANTHEON_MISSION=MSN-0003:silent-phoenix pantheon hook commit-msg .git/COMMIT_EDITMSG"],
  );
}
