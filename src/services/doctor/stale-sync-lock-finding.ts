import type { Finding } from "../../domain/state-checks.js";
import { formatAge, PantheonError } from "../../errors.js";
import type { StaleSyncLock, Store } from "../../store/store.js";

/** Doctor: a sync lock that names a process of this host that is gone (a sync killed while it held it). */
export async function staleSyncLockFindings(store: Store): Promise<Finding[]> {
  let lock: StaleSyncLock | null;
  try {
    lock = await (await store.sync()).staleLock();
  } catch (e) {
    if (e instanceof PantheonError) return []; // a store without transport keeps no sync lock
    throw e;
  }
  if (!lock) return [];
  return [
    {
      severity: "warning",
      code: "W_STALE_SYNC_LOCK",
      subject: lock.path,
      message: `${lock.path} (${formatAge(lock.ageMs)} old) names process ${lock.pid}, which no longer runs: a sync was killed while it held the lock`,
      fix: `nothing to do: the next pantheon sync takes it over at once (or remove ${lock.path})`,
      fixable: false,
    },
  ];
}
