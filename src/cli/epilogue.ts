import type { App } from "./app.js";

/** Reads: after them, one line when the state is behind or ahead of a remote as last fetched (DESIGN §3.5). */
const READS =
  /^pantheon (task (show|list|search|next|report|blocked|mine|prereqs|history)|epic (show|list)|review (list|show)|mission (list|show)|persona (list|suggest|activity)|dashboard|log|config show|status)$/;

/**
 * What a command says on stderr after its result, in human mode only (never with --json, -q):
 * what earlier syncs decided and nobody saw (DESIGN §3.2), and for reads whether the state is
 * in step with the remotes as last fetched. Only a command that opened the store pays for it;
 * a failure here never fails the command.
 */
export async function epilogue(
  app: App,
  commandPath: string,
  succeeded: boolean,
  o: { watch?: boolean } = {},
): Promise<void> {
  const opened = app.openedStore();
  if (!opened || app.json || app.globals.quiet) return;
  try {
    await opened;
    // Loaded only by commands that opened the store: --version and --help pay nothing.
    const [{ freshnessNotice, unseenDecisions }, { keptLines }] = await Promise.all([
      import("../services/sync/clone-status.js"),
      import("../render/decision-lines.js"),
    ]);
    const ctx = app.context();
    const paint = app.style(app.io.stderr).paint;
    for (const k of await unseenDecisions(ctx)) app.note(keptLines(k, paint));
    if (succeeded && !o.watch && READS.test(commandPath)) {
      const line = await freshnessNotice(ctx);
      if (line) app.warn(line);
    }
  } catch {
    // the store could not be opened, or a notice could not be read: the command's own output stands
  }
}

/** Commands that, in a clone without state, take the remote's first (a teammate's first command). */
export const TAKES_STATE_ON_FIRST_USE =
  /^pantheon (task|epic|review|mission|persona|dashboard|log|summon|config|status)\b/;
