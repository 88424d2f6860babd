import type { Command } from "commander";
import { VALUE_OPTIONS } from "./program.js";

/**
 * The commands a failed command line named, walked down the real command tree, so global
 * options before them (`pantheon --as Zeus task create`) do not lose the subcommand.
 */
export function typedCommandPath(program: Command, argv: readonly string[]): string {
  const names = [program.name()];
  let cmd = program;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) break;
    names.push(sub.name());
    cmd = sub;
  }
  return names.join(" ");
}

/**
 * Commander's message and the hint for a usage error it raised. An unknown command keeps
 * commander's suggestion in the message (`did you mean dashboard?`) and the hint points at the
 * suggested command's help, not at the mistyped one.
 */
export function commanderUsage(e: { code: string; message: string }, path: string): { message: string; hint: string } {
  const [first = "", ...rest] = e.message.replace(/^error: /, "").split("\n");
  const suggestion = rest.join(" ").match(/\(Did you mean (.+?)\?\)/)?.[1];
  const message = suggestion ? `${first} (did you mean ${suggestion}?)` : first;
  if (e.code === "commander.unknownCommand") {
    return { message, hint: suggestion ? `${path} ${suggestion} --help` : `${path} --help lists the commands` };
  }
  return { message, hint: `${path} --help` };
}
