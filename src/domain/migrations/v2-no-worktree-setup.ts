import type { MigrationStep, RawRecord } from "./migration-step.js";

/** How much of the old command a notice shows; the whole of it stays in the state's history. */
const SHOWN = 500;

/**
 * Schema 1 → 2: `project.json` loses `worktree.setup`. A command in the shared state runs on
 * every teammate's machine and anyone who can push can write it (DESIGN §1.3): the set-up
 * command now lives in `.pantheon/worktree-setup` (committed, reviewed) or in this clone's git
 * config. The old value is shown once, escaped, and never suggested as a command line to paste.
 * Idempotent: a project without the field only gets its new version.
 */
export const V2_NO_WORKTREE_SETUP: MigrationStep = {
  to: 2,
  migrate(project) {
    const worktree = project.worktree;
    if (
      worktree === null ||
      typeof worktree !== "object" ||
      Array.isArray(worktree) ||
      !Object.hasOwn(worktree, "setup")
    ) {
      return { project, notices: [] };
    }
    const { setup, ...rest } = worktree as RawRecord;
    const notices = typeof setup === "string" && setup.trim() !== "" ? [notice(setup)] : [];
    return { project: { ...project, worktree: rest }, notices };
  },
};

function notice(setup: string): string {
  const shown =
    setup.length > SHOWN
      ? `${quoted(setup.slice(0, SHOWN))}… (${setup.length - SHOWN} more characters)`
      : quoted(setup);
  return (
    `the shared project settings held a worktree set-up command, removed by the migration to schemaVersion 2 because Pantheon no longer runs commands from the shared state: ${shown} ` +
    `(in full: git log -p refs/coordination/main -- project.json). To keep one, review it, then commit it as .pantheon/worktree-setup or set it for this clone with git config pantheon.worktreeSetup`
  );
}

/** As a JSON string, with the C1 controls, DEL and bidirectional marks JSON leaves raw also escaped. */
function quoted(s: string): string {
  return JSON.stringify(s).replace(
    /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
