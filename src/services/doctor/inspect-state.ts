import type { Finding, StateRecords } from "../../domain/state-checks.js";
import type { ScanProblem, Snapshot, Store } from "../../store/store.js";

const KNOWN_ROOT = new Set(["project.json", "counters.json", "tasks", "epics", "missions", "reviews", "personas"]);

/** What `doctor` found in one commit's records, and the records (task summaries) its checks read. */
export interface Inspection {
  records: StateRecords;
  findings: Finding[];
  /** Records read and validated from git (the others the sealed read cache vouched for). */
  validated: number;
}

/**
 * Everything `doctor` looks at in one snapshot: records, strays, corrupt entries, and a read
 * cache that says what Pantheon did not write. The records come through the store's check
 * (DESIGN §2.5: streamed from git, validated, except what the sealed cache validated already).
 */
export async function inspectState(
  store: Store,
  snap: Snapshot,
  o: { trustCache?: boolean } = {},
): Promise<Inspection> {
  const check = await store.checkState(snap.commit!, o);
  const findings: Finding[] = [];
  for (const p of [check.tasks, check.epics, check.missions, check.reviews].flatMap((s) => s.problems))
    findings.push(problemFinding(p));
  for (const t of check.tampered)
    findings.push({
      severity: "error",
      code: "E_CACHE_MISMATCH",
      subject: t.path,
      message: `the read cache of ${t.kind} is not what Pantheon wrote (${t.path}): it was edited or damaged, and is not believed`,
      fix: "pantheon doctor --fix (rebuilds it; the cache is disposable)",
      fixable: true,
    });
  for (const name of await snap.rootEntries()) {
    if (!KNOWN_ROOT.has(name))
      findings.push({
        severity: "warning",
        code: "W_STRAY_ENTRY",
        subject: name,
        message: `${name} is not part of the state layout; it is ignored`,
        fix: "pantheon doctor --fix (removes it)",
        fixable: true,
      });
  }
  let counters: StateRecords["counters"] = null;
  try {
    counters = await snap.counters();
  } catch (e) {
    findings.push({
      severity: "error",
      code: "E_CORRUPT_RECORD",
      subject: "counters.json",
      message: (e as Error).message,
      fix: "pantheon doctor --fix (rebuilds it from the records)",
      fixable: true,
    });
  }
  return {
    records: {
      tasks: check.tasks.records,
      epics: check.epics.records,
      missions: check.missions.records,
      reviews: check.reviews.records,
      counters,
    },
    findings,
    validated: check.validated,
  };
}

function problemFinding(p: ScanProblem): Finding {
  return p.kind === "corrupt"
    ? {
        severity: "error",
        code: "E_CORRUPT_RECORD",
        subject: p.path,
        message: p.message,
        fix: "pantheon doctor --fix (removes it; its history stays in git log)",
        fixable: true,
      }
    : {
        severity: "warning",
        code: "W_STRAY_ENTRY",
        subject: p.path,
        message: `${p.message}; it is ignored`,
        fix: "pantheon doctor --fix (removes it)",
        fixable: true,
      };
}
