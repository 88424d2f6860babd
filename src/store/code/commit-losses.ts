import { GitError } from "../../errors.js";
import { patchIds } from "./patch-ids.js";
import type { RepoPaths } from "../repo/repo.js";
import { runCodeGit } from "../repo/run-git.js";

/** What a removal drops: a branch (deleted) and a worktree's HEAD (gone with the worktree). */
export interface Dropped {
  /** The branch that is deleted, without `refs/heads/` (null: no branch is deleted). */
  branch: string | null;
  /** The worktree's HEAD commit (null when unborn). */
  head: string | null;
  /** HEADs of the other live worktrees: they keep their commits reachable. */
  otherHeads: string[];
}

/** Clock skew allowed between the machine that made a commit and the one that copied it. */
const SKEW_SECONDS = 86_400;
/** More fork points than this (a branch that merged main in many times): rule 4 is not tried. */
const MAX_BASES = 8;
const DIFF = ["-p", "--binary", "--full-index"];

/**
 * The commits a removal would lose, newest first. A commit of the dropped branch or HEAD is safe
 * only when one of these holds, and nothing weaker: "merging the branch into some branch changes
 * nothing" is not enough, since a branch whose commits cancel out (a change and its revert)
 * merges as a no-op while those commits exist nowhere else.
 *
 * 1. It is reachable from another ref: a branch other than the dropped one, a tag, a
 *    remote-tracking ref, or another live worktree's HEAD.
 * 2. Its own change is on such a ref by patch identity (it was rebased or cherry-picked). Each
 *    copy vouches for one commit. `patch-id --verbatim` with `--binary` diffs: a whitespace
 *    change or a binary change is matched only by the same one.
 * 3. It is a merge whose tree is exactly what merging its parents gives: it holds no change of
 *    its own (a merge that resolved conflicts does, and is never safe this way).
 * 4. The whole change of its tip since the fork point (diff fork..tip: what `git merge --squash`
 *    commits) is ONE commit on such a ref by patch identity: it was squash-merged. An empty
 *    change has no patch id, so a change and its revert never count as squash-merged.
 *
 * Rules 2 and 4 compare only with commits on the other refs that the dropped ones lack, made
 * after the oldest dropped commit less a day of clock skew (a copy is made after its original).
 * A match missed makes the removal refuse, never lose.
 */
export function unsavedCommits(paths: RepoPaths, env: NodeJS.ProcessEnv, d: Dropped): string[] {
  const git = (args: string[]) => {
    const r = runCodeGit(paths, args, env);
    if (r.status !== 0)
      throw new GitError(
        "E_GIT_WORKTREE",
        `git ${args[0]} failed while checking what the removal would lose: ${r.stderr.trim().split("\n")[0]}`,
        "git fsck; git worktree list",
      );
    return r.stdout.split("\n").filter(Boolean);
  };
  const branchTip =
    d.branch &&
    runCodeGit(paths, ["rev-parse", "--verify", "--quiet", `refs/heads/${d.branch}^{commit}`], env).stdout.trim();
  const tips = [...new Set([branchTip || "", d.head ?? ""].filter(Boolean))];
  if (tips.length === 0) return [];
  // --exclude applies to the --branches that follows, matched without "refs/heads/".
  const others = [...(d.branch ? [`--exclude=${d.branch}`] : []), "--branches", "--tags", "--remotes", ...d.otherHeads];
  const commits = git(["rev-list", "--timestamp", "--parents", ...tips, "--not", ...others]).map((line) => {
    const [time, oid, ...parents] = line.split(" ");
    return { oid: oid!, time: Number(time), parents };
  });
  if (commits.length === 0) return [];
  const unsafe = new Set(commits.map((c) => c.oid));

  const since = Math.min(...commits.map((c) => c.time)) - SKEW_SECONDS;
  const elsewhere = git(["rev-list", "--no-merges", `--since=${since}`, ...others, "--not", ...tips]);
  const elsewhereIds = patchIds(paths, env, ["diff-tree", "--stdin", "--root", ...DIFF], elsewhere).map(([pid]) => pid);

  // Rule 2, oldest first.
  const copies = new Map<string, number>();
  for (const pid of elsewhereIds) copies.set(pid, (copies.get(pid) ?? 0) + 1);
  const single = commits.filter((c) => c.parents.length <= 1).reverse();
  for (const [pid, oid] of patchIds(
    paths,
    env,
    ["diff-tree", "--stdin", "--root", ...DIFF],
    single.map((c) => c.oid),
  )) {
    const left = copies.get(pid) ?? 0;
    if (left > 0) {
      copies.set(pid, left - 1);
      unsafe.delete(oid);
    }
  }
  // Rule 3.
  for (const c of commits.filter((x) => x.parents.length === 2 && unsafe.has(x.oid))) {
    const merged = runCodeGit(paths, ["merge-tree", "--write-tree", c.parents[0]!, c.parents[1]!], env);
    if (merged.status === 0 && merged.stdout.split("\n")[0]?.trim() === git(["rev-parse", `${c.oid}^{tree}`])[0])
      unsafe.delete(c.oid);
  }

  // Rule 4, per tip: the commits that tip alone would lose, and its fork points.
  const squashTargets = new Set(elsewhereIds);
  const dropped = new Set(commits.map((c) => c.oid));
  for (const tip of tips) {
    if (unsafe.size === 0) break;
    const own = git(["rev-list", "--parents", tip, "--not", ...others]).map((l) => l.split(" "));
    if (!own.some(([oid]) => unsafe.has(oid!))) continue;
    const bases = [...new Set(own.flatMap(([, ...parents]) => parents.filter((p) => !dropped.has(p))))];
    if (bases.length === 0 || bases.length > MAX_BASES) continue;
    const squashed = bases.some((base) =>
      patchIds(paths, env, ["diff-tree", ...DIFF, base, tip], null).some(([pid]) => squashTargets.has(pid)),
    );
    if (squashed) for (const [oid] of own) unsafe.delete(oid!);
  }
  return commits.map((c) => c.oid).filter((oid) => unsafe.has(oid));
}
