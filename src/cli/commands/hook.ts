import type { Command } from "commander";
import { addProvenanceTrailers } from "../../services/project/commit-msg-hook.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { view } from "../view.js";

export function registerHookCommand(program: Command, app: App): void {
  const hook = program
    .command("hook")
    .description("Hooks Pantheon installs: git's commit-msg (init --hooks) and the assistants' session hooks (summon)");
  examples(
    hook
      .command("commit-msg <file>")
      .description("Add Pantheon-Mission and Pantheon-Task trailers to a commit message when PANTHEON_MISSION is set")
      .action(
        run(app, async (file: string) => {
          const added = await addProvenanceTrailers(app.context(), file);
          return view("hook", { added }, () => "");
        }),
      ),
    ["PANTHEON_MISSION=MSN-0003:silent-phoenix pantheon hook commit-msg .git/COMMIT_EDITMSG"],
  );
  examples(
    hook
      .command("event [assistant] [event]")
      .description(
        "Record a session-hook event of a summoned assistant in its live state (summon installs the hooks; prints nothing, always exits 0)",
      )
      .action(
        run(app, async (assistant: string | undefined, event: string | undefined) => {
          // The launcher answers this without the CLI (dist/hook-event.cjs); here only with -C or a
          // global option before it. Same code, same promise: nothing reaches the assistant.
          const { hookEvent } = await import("../hook-event-fast.js");
          const argv = [
            "hook",
            "event",
            ...(assistant === undefined ? [] : [assistant]),
            ...(event === undefined ? [] : [event]),
          ];
          await hookEvent(argv, app.context().cwd, app.context().env).catch(() => undefined);
          return view("hook", {}, () => "");
        }),
      ),
    ['echo \'{"session_id":"…"}\' | PANTHEON_LIVE=<mission uid> pantheon hook event claude Stop', "pantheon status"],
  );
}
