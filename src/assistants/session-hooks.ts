/**
 * The per-session hooks `summon` installs in each assistant (DESIGN §5, live status; each
 * adapter file builds its own from `hookCommand`): each runs
 * `pantheon hook event <assistant> <event>`, which reads the session's PANTHEON_LIVE from its
 * environment. The command names no mission: codex keeps its one-time trust of a hook as a
 * hash of the command, so one trust covers every later session. Nothing is written into the
 * user's own configuration: every hook is given for one session only (ASSISTANTS.md).
 */

/** The command every hook runs; byte-identical in every session (codex's trust is its hash). */
export function hookCommand(cli: string, assistant: string, event: string): string {
  return `${cli} hook event ${assistant} ${event}`;
}
