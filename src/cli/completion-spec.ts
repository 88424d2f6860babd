import type { Command } from "commander";
import { ASSISTANT_NAMES } from "../assistants/adapter.js";
import { REVIEW_STATUSES, REVIEW_TYPES } from "../domain/constants.js";
import { PRIORITIES } from "../domain/priority.js";
import { ROLES, TASK_ROLES } from "../domain/roles.js";
import { TASK_STATUSES } from "../domain/task-status.js";
import type { IdKind } from "./id-candidates.js";

/**
 * What shell completion knows, read off the commander tree: every command path, its
 * subcommands, its options (and which take a value), its positional arguments, and for each
 * value what to offer: enum words from the domain, ids from `pantheon __complete`, files,
 * directories or git remotes. The scripts (completion-scripts.ts) are generated from this.
 */
export type ValueSpec =
  | { words: readonly string[] }
  | { ids: IdKind }
  | { files: true }
  | { dirs: true }
  | { remotes: true }
  | { free: true };

export interface OptionSpec {
  names: string[];
  description: string;
  /** null for a flag. */
  value: ValueSpec | null;
}

export interface CommandSpec {
  /** `""` for the program, `task`, `task claim`. */
  path: string;
  description: string;
  subcommands: Array<{ name: string; description: string }>;
  options: OptionSpec[];
  args: ValueSpec[];
  /** The last argument repeats (`<deps...>`). */
  variadic: boolean;
}

const FREE: ValueSpec = { free: true };

/** Values of an option, by its long name and where it is used. */
function optionValue(path: string, name: string): ValueSpec {
  const statuses = (list: readonly string[]) => ({ words: list });
  switch (name) {
    case "-C":
      return { dirs: true };
    case "--config":
      return { files: true };
    case "--as":
      return { ids: "persona" };
    case "--mission":
      return { ids: "mission-active" };
    case "--role":
      return { words: /^(mission|persona|summon)/.test(path) ? ROLES : TASK_ROLES };
    case "--priority":
      return { words: PRIORITIES };
    case "--status":
      if (path.startsWith("review")) return statuses(REVIEW_STATUSES);
      if (path === "task update") return statuses(["UNDERWAY", "REVIEW", "BLOCKED", "TODO"]);
      if (path === "task close") return statuses(["COMPLETE", "ABORTED"]);
      return statuses(TASK_STATUSES);
    case "--type":
      return { words: REVIEW_TYPES };
    case "--epic":
      return { ids: "epic" };
    case "--task":
      return { ids: path === "summon" ? "task-claimable" : "task" };
    case "--depends-on":
      return { ids: "task" };
    case "--label":
      return { ids: "label" };
    case "--assistant":
      return { words: ASSISTANT_NAMES };
    case "--resume":
      return { ids: "mission" };
    default:
      return FREE;
  }
}

/** Values of a positional argument, by its command and name. */
function argValue(path: string, name: string): ValueSpec {
  const [group, verb] = path.split(" ");
  if (name === "shell") return { words: ["bash", "zsh", "fish"] };
  if (name === "role") return { words: path === "persona suggest" ? ROLES : path === "summon" ? ROLES : TASK_ROLES };
  if (name === "priority") return { words: PRIORITIES };
  if (name === "file") return { files: true };
  if (name === "remote") return { remotes: true };
  if (group === "task") {
    if (name === "epic") return { ids: "epic" };
    if (name === "deps") return { ids: "task" };
    if (name === "labels") return { ids: "label" };
    if (name !== "id") return FREE;
    if (verb === "claim") return { ids: "task-claimable" };
    if (verb === "reopen") return { ids: "task-closed" };
    return { ids: ["show", "history", "prereqs", "note", "plan"].includes(verb!) ? "task" : "task-open" };
  }
  if (group === "epic")
    return name === "tasks" ? { ids: "task" } : name === "id" || name === "epic" ? { ids: "epic" } : FREE;
  if (group === "review" && name === "id") return { ids: verb === "show" ? "review" : "review-pending" };
  if (group === "mission" && name === "id") return { ids: verb === "end" ? "mission-active" : "mission" };
  return FREE;
}

function optionSpecs(cmd: Command, path: string): OptionSpec[] {
  return cmd.options
    .filter((o) => !o.hidden)
    .map((o) => {
      const names = [o.short, o.long].filter((n): n is string => Boolean(n));
      const takesValue = o.required || o.optional;
      return { names, description: o.description, value: takesValue ? optionValue(path, o.long ?? o.short!) : null };
    });
}

/** Every command of the tree (hidden ones left out), the program first, with `--help`. */
export function completionSpec(program: Command): CommandSpec[] {
  const out: CommandSpec[] = [];
  const walk = (cmd: Command, path: string) => {
    const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const args = cmd.registeredArguments.map((a) => argValue(path, a.name()));
    const help: OptionSpec = { names: ["-h", "--help"], description: "display help", value: null };
    out.push({
      path,
      description: cmd.description(),
      subcommands: visible.map((c) => ({ name: c.name(), description: c.description() })),
      options: [...optionSpecs(cmd, path), help],
      args,
      variadic: cmd.registeredArguments.at(-1)?.variadic ?? false,
    });
    for (const c of visible) walk(c, path === "" ? c.name() : `${path} ${c.name()}`);
  };
  walk(program, "");
  return out;
}
