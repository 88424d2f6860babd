import type { Finding } from "../domain/state-checks.js";
import { escapeText } from "./escape.js";
import type { Paint } from "./paint.js";

/** What doctor's text is made from (its JSON view keeps every finding). */
export interface DoctorText {
  findings: readonly Finding[];
  fixed: readonly string[];
  commit: string | null;
  counts: { tasks: number; epics: number; missions: number; reviews: number };
  validated: number;
}

/** Each kind of finding as a group names it ("3 corrupt records"); other codes are named by their code. */
const GROUPS: Record<string, string> = {
  E_CORRUPT_RECORD: "corrupt records",
  W_STRAY_ENTRY: "stray entries (not part of the state layout; ignored)",
  E_CACHE_MISMATCH: "read cache files not as Pantheon wrote them",
  E_COUNTER_BEHIND: "counters below the highest number in use",
  E_COUNTER_EXHAUSTED: "counters at the largest number an id can name",
  E_DANGLING_DEPENDENCY: "dependencies on tasks that do not exist",
  E_DANGLING_EPIC: "tasks linked to epics that do not exist",
  E_DANGLING_MISSION: "tasks naming missions that do not exist",
  E_DANGLING_REVIEW: "reviews about tasks that do not exist",
  E_TASK_INVARIANT: "tasks breaking an invariant",
  E_REVIEW_INVARIANT: "reviews breaking an invariant",
  E_MISSION_INVARIANT: "missions breaking an invariant",
  E_UNSUPPORTED_REPOSITORY: "repository settings Pantheon does not implement",
  W_ORPHANED_CLAIM: "tasks UNDERWAY or BLOCKED on ENDED missions (their work stopped)",
  I_AWAITING_REVIEW: "tasks wait in REVIEW after their implementers' missions ended",
  W_CYCLE: "dependency cycles",
  W_STALE_MISSION: "ACTIVE missions with nothing done for days",
  W_DUPLICATE_PERSONA: "personas on two ACTIVE missions",
  W_SUMMON_GONE: "ACTIVE missions whose summon in this clone is gone",
  W_REFSPEC: "remotes whose fetch does not bring the state",
  W_REFSPEC_EXACT: "remotes with the exact state refspec of an earlier version",
  W_SHADOWED: "project files standing in for Pantheon's",
  W_PROJECT_FILE: "project files with a problem",
  W_SHARED_PERMISSIONS: "paths that do not honour core.sharedRepository",
  W_NOT_IN_STEP: "remotes out of step with this clone",
};

/** Subjects named on a group's line before "… and N more". */
const NAMED = 5;
const RANK = { error: 0, warning: 1, info: 2 } as const;

/**
 * Doctor's human report: what was fixed, then one line per kind of finding with its count (the
 * first subjects named) and its fix, errors first; a kind found once is shown whole. With
 * `verbose`, every finding with its own fix. A team run's 60 tasks waiting for review are one
 * line, not 60.
 */
export function doctorText(r: DoctorText, p: Paint, verbose: boolean): string {
  const lines: string[] = [];
  for (const f of r.fixed) lines.push(`${p.green("✓")} ${escapeText(f)}`);
  if (r.commit) lines.push(p.dim(`  repairs committed as ${r.commit.slice(0, 12)}`));
  const c = r.counts;
  if (!r.findings.some((f) => f.severity !== "info"))
    lines.push(
      `${p.green("✓")} State is healthy: ${c.tasks} tasks, ${c.epics} epics, ${c.missions} missions, ${c.reviews} reviews`,
    );
  const mark = (f: Finding) =>
    f.severity === "error" ? p.red("✗") : f.severity === "warning" ? p.yellow("!") : p.dim("i");
  const whole = (f: Finding) => [`${mark(f)} ${escapeText(f.message)}`, `  ${p.dim("fix:")} ${escapeText(f.fix)}`];
  const groups = new Map<string, Finding[]>();
  for (const f of [...r.findings].sort((a, b) => RANK[a.severity] - RANK[b.severity])) {
    const list = groups.get(f.code);
    if (list) list.push(f);
    else groups.set(f.code, [f]);
  }
  for (const [code, list] of groups) {
    const first = list[0]!;
    if (verbose || list.length === 1) {
      for (const f of list) lines.push(...whole(f));
      continue;
    }
    const named = list.slice(0, NAMED).map((f) => escapeText(f.subject));
    const more = list.length > NAMED ? `, … and ${list.length - NAMED} more` : "";
    lines.push(`${mark(first)} ${list.length} ${GROUPS[code] ?? `× ${code}`}: ${named.join(", ")}${more}`);
    const same = list.every((f) => f.fix === first.fix);
    lines.push(
      `  ${p.dim("fix:")} ${same ? escapeText(first.fix) : `each its own, e.g. ${escapeText(first.fix)} (pantheon doctor --verbose lists them)`}`,
    );
  }
  if (verbose) {
    const total = c.tasks + c.epics + c.missions + c.reviews;
    lines.push(
      p.dim(
        `  ${r.validated} of ${total} records read from git and validated now; the others' very blobs were validated before (sealed read cache)`,
      ),
    );
  }
  return lines.join("\n");
}
