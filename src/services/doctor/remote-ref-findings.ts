import type { Finding } from "../../domain/state-checks.js";
import type { RemoteRefStatus } from "../../store/store.js";

/**
 * What doctor says of where a remote keeps the state (DESIGN §3.1), without network: a git
 * config value no command can use, a configured ref whose commit (as last fetched) is not a
 * Pantheon state (a branch of code), and a local branch of the state branch's name (checked out,
 * its files are the state's; committed to and pushed, it becomes the state).
 */
export function remoteRefFindings(remote: string, at: RemoteRefStatus): Finding[] {
  // The key that names it: this remote's own, or pantheon.remoteRef for every remote.
  const key = at.key;
  const own = `pantheon.${remote}.remoteRef`;
  const fix =
    key === own
      ? `git config ${own} refs/heads/pantheon-state (a branch of its own), or git config --unset ${own}`
      : `git config ${own} refs/heads/pantheon-state (or refs/coordination/main) for ${remote} alone, or git config --unset ${key} (git config --show-origin ${key} says which file sets it)`;
  const out: Finding[] = [];
  if (at.problem)
    out.push({
      severity: "error",
      code: "E_REMOTE_REF",
      subject: key,
      message: at.problem,
      fix,
      fixable: false,
    });
  else if (at.holdsOther)
    out.push({
      severity: "error",
      code: "E_REMOTE_REF",
      subject: key,
      message: `git config ${key} names ${at.ref}, whose commit on ${remote} (as last fetched) is not a Pantheon state: it holds code, and a sync would refuse it or, worse, push the state onto it`,
      fix,
      fixable: false,
    });
  for (const branch of at.localBranches)
    out.push({
      severity: "warning",
      code: "W_STATE_BRANCH",
      subject: `refs/heads/${branch}`,
      message: `the local branch ${branch} is ${remote}'s Pantheon state branch (${at.ref}) here: checked out, its files are the state's records, not code, and what is committed there and pushed becomes state`,
      fix: `git switch to a code branch, then git branch -D ${branch} (Pantheon reads the state from refs/coordination/main, never from a branch here)`,
      fixable: false,
    });
  return out;
}
