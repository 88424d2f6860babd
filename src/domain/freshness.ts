import { escapeInline } from "./control-chars.js";

/** How this clone's state compares with a remote's as last fetched (DESIGN §3.5). */
export interface Freshness {
  remote: string;
  /** Commits of this clone's state that the remote (as last fetched) lacks. */
  ahead: number;
  /** Commits of the remote's state (as last fetched) that this clone lacks. */
  behind: number;
}

const changes = (n: number) => `${n} change${n === 1 ? "" : "s"}`;

/**
 * The one line a read prints on stderr when this clone and a remote (as last fetched) differ
 * (DESIGN §3.5); null when they do not. "Changes" are commits: one per command.
 */
export function freshnessLine(list: readonly Freshness[]): string | null {
  const parts = list
    .filter((f) => f.ahead > 0 || f.behind > 0)
    .map((f) => {
      const r = escapeInline(f.remote);
      if (f.ahead > 0 && f.behind > 0)
        return `this clone and ${r} have both moved (${changes(f.ahead)} here not on ${r}, ${changes(f.behind)} there not here, as last fetched)`;
      if (f.behind > 0) return `${r} has ${changes(f.behind)} this clone lacks (as last fetched)`;
      return `this clone has ${changes(f.ahead)} not on ${r} yet`;
    });
  if (parts.length === 0) return null;
  return `${parts.join("; ")}: pantheon sync`;
}
