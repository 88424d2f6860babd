import type { Finding } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";
import { gitLeftoverFindings } from "./git-leftovers-finding.js";
import { lostTipFindings } from "./lost-tip-finding.js";
import { staleSyncLockFindings } from "./stale-sync-lock-finding.js";

/**
 * Doctor's checks of this clone's own files around a healthy state, each in its own file: a
 * check is one function from the store to its findings, added to this list.
 */
const CHECKS: ReadonlyArray<(store: Store) => Promise<Finding[]>> = [
  lostTipFindings,
  staleSyncLockFindings,
  gitLeftoverFindings,
];

export async function cloneFindings(store: Store): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const check of CHECKS) out.push(...(await check(store)));
  return out;
}
