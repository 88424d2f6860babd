import { describePath } from "../domain/dependency-graph.js";
import type { KeptDecisions, MergeDecisions } from "../domain/sync-decisions.js";
import { escapeText } from "./escape.js";
import type { Paint } from "./paint.js";

/** Past this many renumberings, one counted line names the first few (every one is in --json). */
const RENUMBERINGS_SHOWN = 8;

const KIND_WORDS: Record<string, [string, string]> = {
  tasks: ["task", "tasks"],
  epics: ["epic", "epics"],
  missions: ["mission", "missions"],
  reviews: ["review", "reviews"],
};

/**
 * What a merge decided (DESIGN §3.2–3.4), what needs action first: dropped claims, dependency
 * cycles, conflicts, then renumberings (counted in one line when many) and planning files: the
 * sync report's lines, and the notice a later command prints when the sync that made them
 * could not show them. Ids and persona names come from records of other clones: escaped.
 */
export function decisionLines(d: MergeDecisions, remote: string, p: Pick<Paint, "yellow">): string[] {
  const e = escapeText;
  const lines: string[] = [];
  for (const x of d.droppedClaims)
    lines.push(
      `${p.yellow("!")} ${e(x.message)}: pick another task (pantheon task next) or ask ${x.winner ? e(x.winner) : "its claimant"}`,
    );
  for (const c of d.cycles)
    lines.push(
      `${p.yellow("!")} the merge closed a dependency cycle: ${e(describePath(c))} (pantheon task undepend ${e(c[0] ?? "")} ${e(c[1] ?? "")})`,
    );
  for (const c of d.conflicts) {
    // A notice of an earlier version names no place: its conflicts were tasks', kept in their notes.
    const noted = c.notedIn === undefined ? c.record : c.notedIn;
    const yours =
      noted === c.record
        ? "yours is in its notes"
        : noted !== null
          ? `yours is in ${e(noted)}'s notes`
          : `this clone had ${e(c.yours ?? "another value")}`;
    lines.push(`conflict in ${e(c.record)} (${c.fields.map(e).join(", ")}): ${e(remote)}'s value kept; ${yours}`);
  }
  lines.push(...renumberingLines(d.renumbered, remote));
  for (const f of d.planning)
    lines.push(f.renamed ? `${e(f.from)} → ${e(f.to)} (${e(f.note)})` : `${p.yellow("!")} ${e(f.from)} ${e(f.note)}`);
  return lines;
}

/** One line per renumbering, or past RENUMBERINGS_SHOWN one line with the count per kind and the first few. */
function renumberingLines(moves: MergeDecisions["renumbered"], remote: string): string[] {
  const e = escapeText;
  const one = (n: { from: string; to: string }) => `${e(n.from)} → ${e(n.to)}`;
  if (moves.length <= RENUMBERINGS_SHOWN)
    return moves.map((n) => `renumbered ${one(n)} (the number was taken on ${e(remote)})`);
  const perKind = Object.entries(KIND_WORDS)
    .map(([kind, [a, many]]) => {
      const k = moves.filter((m) => m.kind === kind).length;
      return k === 0 ? "" : `${k} ${k === 1 ? a : many}`;
    })
    .filter(Boolean)
    .join(", ");
  return [
    `renumbered ${moves.length} records (${perKind}; their numbers were taken on ${e(remote)}): ${moves
      .slice(0, RENUMBERINGS_SHOWN)
      .map(one)
      .join(", ")} and ${moves.length - RENUMBERINGS_SHOWN} more (--json lists every one)`,
  ];
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
