import { Argument, type Command } from "commander";
import { UsageError } from "../../errors.js";
import { recordRows } from "../../services/views/record-rows.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { completionScript, type Shell } from "../completion-scripts.js";
import { completionSpec } from "../completion-spec.js";
import { ID_KINDS, idCandidates, recordKind, type CandidateRow, type IdKind } from "../id-candidates.js";
import { buildProgram, VERSION } from "../program.js";
import { view } from "../view.js";

export function registerCompletionCommand(program: Command, app: App): void {
  examples(
    program
      .command("completion")
      .description("Print the shell completion script: commands, options, values and ids (from the read cache)")
      .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(["bash", "zsh", "fish"]))
      .action(
        run(app, async (shell: Shell) => {
          // The whole tree, whatever this command line loaded.
          const tree = await buildProgram(app, []);
          const script = completionScript(shell, completionSpec(tree), VERSION);
          return view("completion", { shell, script }, () => script.trimEnd());
        }),
      ),
    [
      "source <(pantheon completion bash)    # in ~/.bashrc",
      "source <(pantheon completion zsh)     # in ~/.zshrc, after compinit",
      "pantheon completion fish > ~/.config/fish/completions/pantheon.fish",
    ],
  );
}

/**
 * `pantheon __complete KIND [PREFIX]` (hidden): the ids a completion script offers. The launcher
 * answers it from the read cache without loading this bundle (complete-fast.ts); this is the
 * same answer read through the store, when the cache could not give it (and it saves the cache).
 */
export function registerCompleteCommand(program: Command, app: App): void {
  program.command("__complete <kind> [prefix]", { hidden: true }).action(
    run(app, async (kind: string, prefix: string | undefined) => {
      if (!(ID_KINDS as readonly string[]).includes(kind))
        throw new UsageError(`Unknown kind "${kind}"`, `kinds: ${ID_KINDS.join(", ")}`);
      const rows = (await recordRows(app.context(), recordKind(kind as IdKind))) as CandidateRow[];
      const ids = idCandidates(kind as IdKind, rows, prefix ?? "");
      return view("completions", ids, () => ids.join("\n"));
    }),
  );
}
