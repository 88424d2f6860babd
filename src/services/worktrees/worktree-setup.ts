import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { nodeCrypto } from "../../lazy-require.js";
import type { CodeRepo, Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";

/** The set-up file, committed and reviewed like code (DESIGN §1.3). */
export const SETUP_FILE = ".pantheon/worktree-setup";
/** This clone's own set-up command; it wins over the file (an empty value turns set-up off here). */
export const SETUP_CONFIG = "pantheon.worktreeSetup";
const MAX_BYTES = 64 * 1024;
/** In `<commondir>/pantheon/`: the hash of the last command the Director confirmed in this clone. */
const CONFIRMED_FILE = "worktree-setup-confirmed";

export interface SetupCommand {
  command: string;
  /** Where it came from, as shown to the Director. */
  source: string;
}

export type SetupOutcome = "none" | "ran" | "failed" | "declined" | "unconfirmed";

/**
 * The worktree's set-up command: git config `pantheon.worktreeSetup` of this clone, else the
 * worktree's own `.pantheon/worktree-setup` (what the branch's commit holds). Never anything
 * from the shared state: anyone who can push to the remote can write that.
 */
export function findSetupCommand(ctx: Context, code: CodeRepo, worktree: string): SetupCommand | null {
  const configured = safe(() => code.config(SETUP_CONFIG));
  if (configured !== undefined)
    return configured.trim() ? { command: configured.trim(), source: `git config ${SETUP_CONFIG}` } : null;
  const file = join(worktree, SETUP_FILE);
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  // A symbolic link could make any file on this machine the "command": only a regular file counts.
  if (!st.isFile() || st.size > MAX_BYTES) {
    ctx.warn(`${SETUP_FILE} is not a regular file of at most 64 KiB; the worktree set-up was not run`);
    return null;
  }
  const command = readFileSync(file, "utf8").trimEnd();
  return command.trim() ? { command, source: SETUP_FILE } : null;
}

/**
 * Runs the set-up command in a new worktree only once the Director has confirmed this exact
 * command on a terminal in this clone: the first time, and again whenever it changes. Without
 * a terminal (an assistant, CI) an unconfirmed command is skipped with a warning. The hash of
 * the last confirmed command is kept in `<commondir>/pantheon/`, never shared.
 */
export async function runWorktreeSetup(
  ctx: Context,
  code: CodeRepo,
  store: Pick<Store, "commonDir" | "writeCloneFile">,
  worktree: string,
): Promise<SetupOutcome> {
  const setup = findSetupCommand(ctx, code, worktree);
  if (!setup) return "none";
  const hash = nodeCrypto().createHash("sha256").update(setup.command).digest("hex");
  const record = join(store.commonDir, "pantheon", CONFIRMED_FILE);
  const confirmed = readConfirmed(record);
  if (confirmed !== hash) {
    if (!ctx.prompter?.interactive) {
      ctx.warn(
        `worktree set-up not run: the command from ${setup.source} has not been confirmed in this clone${confirmed ? " since it changed" : ""}; run "pantheon summon --worktree" once from a terminal to confirm it, or run it yourself in ${worktree}`,
      );
      return "unconfirmed";
    }
    const yes = await ctx.prompter.confirm({
      message: `Run this set-up command in the new worktree ${worktree}?`,
      detail: [
        `${confirmed ? "The worktree set-up command changed" : "A worktree set-up command"} (from ${setup.source}) will run with sh -c:`,
        ...setup.command.split("\n").map((l) => `    ${l}`),
      ],
    });
    if (!yes) {
      ctx.warn(`worktree set-up not run (declined); it will be asked again next time`);
      return "declined";
    }
    // Through the store: with core.sharedRepository, the group's other members confirm here too.
    await store.writeCloneFile(CONFIRMED_FILE, `${hash}\n`);
  }
  const exit = await ctx.launcher.run("sh", ["-c", setup.command], { cwd: worktree, env: {} });
  if (exit !== 0) {
    ctx.warn(`worktree set-up (from ${setup.source}) exited ${exit} in ${worktree}`);
    return "failed";
  }
  return "ran";
}

function readConfirmed(file: string): string | null {
  try {
    return readFileSync(file, "utf8").trim() || null;
  } catch {
    return null;
  }
}

function safe(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
