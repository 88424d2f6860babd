import type { Kind } from "./merge/renumber.js";

/** What one landed merge decided, in ids: kept as a notice until shown (DESIGN §3.2). */
export interface MergeDecisions {
  renumbered: Array<{ kind: Kind; from: string; to: string }>;
  droppedClaims: Array<{ task: string; yours: string; winner: string | null; message: string }>;
  /**
   * Values changed on both sides where the published one won: `notedIn` is the record whose
   * notes keep this clone's value (the record itself, a review's task), or null when no record
   * could (a mission, an epic, a review of no task); then `yours` says the value (cut short).
   */
  conflicts: Array<{ record: string; fields: string[]; notedIn?: string | null; yours?: string }>;
  /** Dependency cycles the merge closed (each as ids, first repeated at the end); `doctor` shows them too. */
  cycles: string[][];
  /** Planning files of renumbered tasks: renamed to the new id, or left (with why). */
  planning: Array<{ from: string; to: string; renamed: boolean; note: string }>;
}

/** A merge's decisions as kept in this clone until shown (DESIGN §3.2). */
export interface KeptDecisions extends MergeDecisions {
  remote: string;
  /** When the merge landed here (ISO-8601). */
  at: string;
  commit: string;
}

export function noDecisions(): MergeDecisions {
  return { renumbered: [], droppedClaims: [], conflicts: [], cycles: [], planning: [] };
}

/** Appends decisions to a report (or to another set of decisions). */
export function addDecisions(into: MergeDecisions, d: MergeDecisions): void {
  into.renumbered.push(...d.renumbered);
  into.droppedClaims.push(...d.droppedClaims);
  into.conflicts.push(...d.conflicts);
  into.cycles.push(...d.cycles);
  into.planning.push(...d.planning);
}

export function hasDecisions(d: MergeDecisions): boolean {
  return d.renumbered.length + d.droppedClaims.length + d.conflicts.length + d.cycles.length + d.planning.length > 0;
}
