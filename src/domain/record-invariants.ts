import type { Mission } from "./schemas/mission.js";
import type { Review } from "./schemas/review.js";
import type { TaskSummary } from "./task-summary.js";

/**
 * Invariants every task written by a command satisfies; a merged record must satisfy them too
 * (DESIGN §3.3), and `doctor` checks them. Returns what is violated, empty when sound.
 */
export function taskViolations(t: TaskSummary): string[] {
  const out: string[] = [];
  if ((t.status === "UNDERWAY" || t.status === "REVIEW") && t.claimedBy === null)
    out.push(`${t.status} without a claimant`);
  if (t.status === "UNDERWAY" && t.mission === null) out.push("UNDERWAY without a mission");
  if ((t.status === "TODO" || t.status === "READY") && (t.claimedBy !== null || t.mission !== null))
    out.push(`${t.status} but still claimed`);
  if (t.status === "COMPLETE" && t.completedBy === null) out.push("COMPLETE without completedBy");
  if (t.status !== "COMPLETE" && t.completedBy !== null) out.push(`${t.status} but completedBy is set`);
  if (t.dependencies.includes(t.number)) out.push("depends on itself");
  // Most tasks have one dependency or none: no Set built for them (doctor asks of every task).
  if (t.dependencies.length > 1 && new Set(t.dependencies).size !== t.dependencies.length)
    out.push("lists a dependency twice");
  return out;
}

export function missionViolations(m: Mission): string[] {
  const out: string[] = [];
  if (m.status === "ENDED" && m.endedAt === null) out.push("ENDED without endedAt");
  if (m.status === "ACTIVE" && m.endedAt !== null) out.push("ACTIVE but has endedAt");
  return out;
}

export function reviewViolations(r: Review): string[] {
  const out: string[] = [];
  if ((r.status === "APPROVED" || r.status === "REJECTED") && r.reviewer === null)
    out.push(`${r.status} without a reviewer`);
  if (r.status === "PENDING" && r.reviewer !== null) out.push("PENDING but has a reviewer");
  return out;
}
