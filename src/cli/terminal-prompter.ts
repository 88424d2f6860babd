import { CancelledError } from "../errors.js";
import { escapeText } from "../render/escape.js";
import type { Prompter } from "../services/kernel/context.js";
import { isInteractive } from "./interactive.js";
import type { IO } from "./io.js";

/**
 * The Director's answers on a terminal (@inquirer/prompts, loaded only when a question is
 * asked). The question goes to stderr: stdout stays the command's result. What the question is
 * about is printed line by line with control characters escaped: it may quote a file anyone
 * could have committed. Ctrl-C is CancelledError (exit 130).
 */
export function terminalPrompter(io: IO): Prompter {
  const interactive = isInteractive(io);
  return {
    interactive,
    async confirm(q) {
      if (!interactive) return false;
      for (const line of q.detail ?? []) io.stderr.write(`${escapeText(line)}\n`);
      const { confirm } = await import("@inquirer/prompts");
      try {
        return await confirm({ message: escapeText(q.message), default: false }, { output: process.stderr });
      } catch (e) {
        if (e instanceof Error && e.name === "ExitPromptError") throw new CancelledError();
        throw e;
      }
    },
  };
}
