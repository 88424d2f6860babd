import { freshnessLine } from "../../domain/freshness.js";
import type { Finding } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";
import { remoteRefFindings } from "./remote-ref-findings.js";

/** What doctor says about the remotes: out of step as last fetched, and their fetch refspecs. */
export async function remoteFindings(store: Store): Promise<Finding[]> {
  const out: Finding[] = [];
  // Not in step with a remote as last fetched (DESIGN §3.5): no network, as every read says it.
  for (const f of await store.freshness().catch(() => [])) {
    const line = freshnessLine([f]);
    if (line)
      out.push({
        severity: "warning",
        code: "W_NOT_IN_STEP",
        subject: `refs/coordination/remotes/${f.remote}/main`,
        message: line.replace(/: pantheon sync$/, ""),
        fix: `pantheon sync ${f.remote}`,
        fixable: false,
      });
  }
  try {
    const sync = await store.sync();
    const fallback = await sync.defaultRemote();
    for (const remote of await sync.remotes()) {
      const at = await sync.remoteRefStatus(remote);
      out.push(...remoteRefFindings(remote, at));
      if (at.problem) continue; // its refspecs cannot be judged against a ref it cannot use
      const s = await sync.refspecStatus(remote);
      if (s.legacy) {
        out.push({
          severity: "warning",
          code: "W_REFSPEC_EXACT",
          subject: `remote.${remote}`,
          message: `remote.${remote}.fetch has the exact state refspec of an earlier version (or its old tracking ref): git fetch and git pull fail once ${remote} loses refs/coordination/main`,
          fix: `pantheon doctor --fix (or pantheon sync ${remote}) replaces it with the glob`,
          fixable: true,
        });
      } else if (s.stale) {
        out.push({
          severity: "warning",
          code: "W_REFSPEC_OTHER",
          subject: `remote.${remote}`,
          message: `remote.${remote}.fetch still brings another ref of ${remote} into its state's tracking ref, but ${remote} keeps the state on ${at.ref}: git fetch and git pull fail once ${remote} has both`,
          fix: `pantheon doctor --fix (or pantheon sync ${remote}) replaces it with the glob of ${at.ref}`,
          fixable: true,
        });
      } else if (!s.configured && (s.hasState || remote === fallback)) {
        out.push({
          severity: "warning",
          code: "W_REFSPEC",
          subject: `remote.${remote}`,
          message: `git fetch does not bring ${remote}'s Pantheon state (no fetch refspec for ${at.ref}*)`,
          fix: `pantheon sync ${remote} (adds it), or pantheon doctor --fix`,
          fixable: true,
        });
      }
    }
  } catch {
    // No transport (a store without remotes): nothing to check.
  }
  return out;
}
