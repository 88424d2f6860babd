import type { Finding } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";
import { listRecords, recordRefs } from "../kernel/record-ids.js";

/**
 * Doctor: a state a reflog names that holds commits the healthy ref lacks (DESIGN §3.2), left
 * when the ref was deleted or moved back outside Pantheon and something took its place (an
 * earlier version adopted the remote's state over a deleted ref). A missing ref is
 * `E_REF_MISSING`'s; this is the case where nothing looks wrong.
 */
export async function lostTipFindings(store: Store): Promise<Finding[]> {
  if (!(await store.tip())) return [];
  const out: Finding[] = [];
  for (const tip of await store.lostTips()) {
    const brings = await recordRefs(await store.snapshotAt(tip.commit), tip.records);
    const what = brings.length > 0 ? `: ${listRecords(brings)}` : " (no record differs)";
    out.push({
      severity: "warning",
      code: "W_LOST_TIP",
      subject: tip.commit,
      message: `a reflog names ${tip.commit.slice(0, 12)} (${tip.date.slice(0, 19).replace("T", " ")}: ${tip.summary}), with ${tip.commits} commit${tip.commits === 1 ? "" : "s"} refs/coordination/main lacks${what}; the ref was deleted or moved back outside Pantheon`,
      fix: `pantheon doctor --recover ${tip.commit.slice(0, 12)}`,
      fixable: false,
    });
  }
  return out;
}
