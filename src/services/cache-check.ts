import { toTaskSummary } from "../domain/task-summary.js";
import type { Finding, StateRecords } from "../domain/state-checks.js";
import type { Store } from "../store/store.js";

/**
 * The read cache must agree with the records of the commit it names; a cache of an older commit
 * is merely stale (the next read refreshes it). Disagreement means it was damaged or edited.
 */
export async function checkCache(store: Store, tip: string, records: StateRecords): Promise<Finding[]> {
  const cached = await store.cachedState();
  if (!cached || cached.commit !== tip) return [];
  const same = (a: unknown[], b: unknown[]) => canonical(a) === canonical(b);
  const wrong = [
    !same(cached.tasks, records.tasks.map(toTaskSummary)) && "tasks",
    !same(cached.epics, records.epics) && "epics",
    !same(cached.missions, records.missions) && "missions",
    !same(cached.reviews, records.reviews) && "reviews",
  ].filter(Boolean);
  if (wrong.length === 0) return [];
  return [{
    severity: "error",
    code: "E_CACHE_MISMATCH",
    subject: cached.path,
    message: `the read cache disagrees with refs/coordination/main about ${wrong.join(", ")}`,
    fix: "pantheon doctor --fix (rebuilds it; the cache is disposable)",
    fixable: true,
  }];
}

/** Key order is not meaning: the cache rebuilds objects column by column. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));
}
