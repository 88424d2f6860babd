import { describePath } from "../domain/dependency-graph.js";
import type { KeptDecisions, MergeDecisions } from "../domain/sync-decisions.js";
import { escapeText } from "./escape.js";
import type { Paint } from "./paint.js";

/**
 * What a merge decided, one line each (DESIGN §3.2–3.4): the sync report's lines, and the
 * notice a later command prints when the sync that made them could not show them. Ids and
 * persona names come from records of other clones: escaped.
 */
export function decisionLines(d: MergeDecisions, remote: string, p: Pick<Paint, "yellow">): string[] {
  const e = escapeText;
  const lines: string[] = [];
  for (const n of d.renumbered)
    lines.push(`renumbered ${e(n.from)} → ${e(n.to)} (the number was taken on ${e(remote)})`);
  for (const x of d.droppedClaims)
    lines.push(
      `${p.yellow("!")} ${e(x.message)}: pick another task (pantheon task next) or ask ${x.winner ? e(x.winner) : "its claimant"}`,
    );
  for (const c of d.conflicts)
    lines.push(
      `conflict in ${e(c.record)} (${c.fields.map(e).join(", ")}): ${e(remote)}'s value kept; yours is in its notes`,
    );
  for (const c of d.cycles)
    lines.push(
      `${p.yellow("!")} the merge closed a dependency cycle: ${e(describePath(c))} (pantheon task undepend ${e(c[0] ?? "")} ${e(c[1] ?? "")})`,
    );
  for (const f of d.planning)
    lines.push(f.renamed ? `${e(f.from)} → ${e(f.to)} (${e(f.note)})` : `${p.yellow("!")} ${e(f.from)} ${e(f.note)}`);
  return lines;
}

/** A notice from an earlier sync, introduced by when and with whom. */
export function keptLines(k: KeptDecisions, p: Pick<Paint, "yellow">): string[] {
  const when = /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(k.at) ? k.at.slice(0, 16).replace("T", " ") : "earlier";
  const lines = decisionLines(k, k.remote || "the remote", p);
  return lines.length === 0
    ? []
    : [
        `what a sync with ${escapeText(k.remote || "the remote")} decided (${when} UTC, not shown until now):`,
        ...lines.map((l) => `  ${l}`),
      ];
}
