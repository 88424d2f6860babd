import type { Command } from "commander";
import { UsageError } from "../errors.js";
import { printable } from "../domain/ids.js";
import type { App } from "./app.js";
import type { View } from "./view.js";

/**
 * Wraps a command's action: applies the global flags, calls one service through `fn`, and
 * stores the View for main() to print. Commands never print or exit themselves.
 */
export function run<A extends unknown[]>(app: App, fn: (...args: A) => Promise<View | undefined>) {
  return async (...args: unknown[]): Promise<void> => {
    const cmd = args.at(-1) as Command;
    app.configure(cmd);
    app.result = await fn(...(args.slice(0, -1) as A));
  };
}

/**
 * `--force` on a command that names records: act through a number that a sync gave to another
 * record (DESIGN §1.2), which a mutation otherwise refuses. Read into Context.force.
 */
export const FORCE_RENUMBERED = "act even through a number that a sync renumbered (it names another record now)";

/** `Examples:` after the options, as gh does: personas read --help. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`);
}

/** Collects a repeatable flag that may also hold a comma-separated list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  ];
}

/** Collects a repeatable flag whose values keep their commas (`--ac "a, b"` is one criterion). */
export function repeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Parses a non-negative integer flag such as --limit. */
export function intOption(flag: string, min = 0) {
  return (value: string): number => {
    if (!/^\d{1,9}$/.test(value.trim()) || Number(value) < min)
      throw new UsageError(
        `${flag} must be a whole number${min > 0 ? ` of at least ${min}` : ""}, not "${printable(value)}"`,
        `for example: ${flag} ${Math.max(min, 10)}`,
      );
    return Number(value);
  };
}

export function list<T>(values: string[] | undefined, parse: (s: string) => T): T[] | undefined {
  return values && values.length > 0 ? [...new Set(values.map(parse))] : undefined;
}
