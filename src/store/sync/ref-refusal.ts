/**
 * Whether a server refused a push because of the ref's name (DESIGN §3.1): the one refusal
 * after which the state may move to a branch. Only the server's own words count (the reason git
 * prints in `[remote rejected] (...)` and the `remote:` lines), never git's line naming the ref
 * it tried, and never a rejection git itself decides (non-fast-forward, stale info), which
 * transport.ts retries before coming here. Anything else (a content policy, a missing
 * permission, authentication) refuses the push as it is: trying a branch is only ever a try,
 * kept only when the branch push lands.
 */

/** Reasons git servers give for a ref they will not take by name, whatever the ref. */
const NAME_REASONS = [
  /funny refname/i, // git receive-pack: a name outside refs/
  /deny updating a hidden ref/i, // receive.hideRefs (GitLab's internal namespaces, GitHub's refs/pull)
  /prohibited by gerrit/i, // Gerrit grants create and push per ref namespace
];

/** Words of a refusal about which refs may be pushed, with or without the ref's name. */
const NAMESPACE_WORDS =
  /only (?:branch(?:es)?|tags|refs\/heads)|branches and tags|refs\/heads\/?\*? and refs\/tags|(?:not|non)[- ]branch|ref(?:erence)?s? (?:outside|not under)|(?:ref ?name|namespace) (?:is )?(?:not allowed|refused|forbidden|denied|invalid)/i;

/** Words that make a line naming the ref a refusal of it. */
const REFUSAL_WORDS =
  /refus|den(?:y|ied)|declin|reject|not (?:allowed|permitted)|prohibit|forbid|may not|(?:can ?not|cannot|can't) (?:create|update|push)|restrict|violat|invalid/i;

/** The server's words in a failed `git push --porcelain`: the reason for `ref`, and the `remote:` lines. */
export function serverWords(stdout: string, stderr: string, ref: string): { reason: string | null; said: string[] } {
  let reason: string | null = null;
  for (const line of stdout.split("\n")) {
    const cols = line.split("\t");
    if (cols[0] !== "!" || !cols[1]?.endsWith(`:${ref}`)) continue;
    reason = /\[remote rejected\]\s*\((.*)\)\s*$/.exec(cols[2] ?? "")?.[1] ?? null;
  }
  const said = stderr
    .split("\n")
    .filter((l) => l.startsWith("remote:"))
    .map((l) => l.slice(7).trim())
    .filter(Boolean);
  return { reason, said };
}

/** True when the server refused `ref` for its name, by the words of common hosts and of hooks that allow only branches and tags. */
export function refusedForName(stdout: string, stderr: string, ref: string): boolean {
  const { reason, said } = serverWords(stdout, stderr, ref);
  if (reason === null && said.length === 0) return false;
  const words = [reason ?? "", ...said];
  if (reason !== null && NAME_REASONS.some((r) => r.test(reason))) return true;
  if (words.some((w) => NAMESPACE_WORDS.test(w))) return true;
  // A line that names the ref (or its namespace) and refuses it: a hook's own message, GitHub's
  // "GH013: Repository rule violations found for refs/coordination/main", git's
  // "hook declined to update refs/coordination/main".
  const namespace = ref.split("/").slice(0, 2).join("/") + "/";
  return words.some((w) => (w.includes(ref) || w.includes(namespace)) && REFUSAL_WORDS.test(w));
}
