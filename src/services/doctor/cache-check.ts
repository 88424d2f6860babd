import { toTaskSummary } from "../../domain/task-summary.js";
import type { Finding, StateRecords } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";

/**
 * The read cache must agree with the records of the commit it names; a cache of an older commit
 * is merely stale (the next read refreshes it). Disagreement means it was damaged or edited.
 */
export async function checkCache(store: Store, tip: string, records: StateRecords): Promise<Finding[]> {
  const expected = {
    tasks: records.tasks.map(toTaskSummary),
    epics: records.epics,
    missions: records.missions,
    reviews: records.reviews,
  };
  const wrong = (await store.cachedState()).filter(
    (c) => c.commit === tip && canonical(c.values) !== canonical(expected[c.kind]),
  );
  return wrong.map((c) => ({
    severity: "error" as const,
    code: "E_CACHE_MISMATCH",
    subject: c.path,
    message: `the read cache of ${c.kind} disagrees with refs/coordination/main (${c.path})`,
    fix: "pantheon doctor --fix (rebuilds it; the cache is disposable)",
    fixable: true,
  }));
}

/** Key order is not meaning: the cache rebuilds objects column by column. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
}
