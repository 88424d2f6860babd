import { REF } from "./layout.js";
import type { GitStore } from "./git-store.js";
import { mergeTrees } from "./state-merge.js";
import type { CommitInfo, MergeReport, StateSync } from "./store.js";
import { changedPaths } from "./tree-diff.js";
import { ensureFetchRefspec, fetchRefspec, fetchState, isAncestor, listRemotes, mergeBase, pushState, runGit, trackingRef } from "./transport.js";
import { parseCommit } from "./commit-codec.js";
import { CorruptRecordError } from "../errors.js";
import { parseRecordFile, type RecordKind } from "./layout.js";
import { appendRenumberLog } from "./renumber-log.js";

/** StateSync for a GitStore: transport and ancestry through system git, the merge in-process. */
export function gitSync(store: GitStore, env: NodeJS.ProcessEnv): StateSync {
  const paths = store.paths;
  const treeOf = async (commit: string) => parseCommit((await store.db.read(commit)).content).tree;
  return {
    async remotes() {
      return listRemotes(paths, env);
    },
    async defaultRemote() {
      const remotes = listRemotes(paths, env);
      const branch = runGit(paths, ["symbolic-ref", "--quiet", "--short", "HEAD"], env).stdout.trim();
      const upstream = branch ? runGit(paths, ["config", "--get", `branch.${branch}.remote`], env).stdout.trim() : "";
      if (upstream && remotes.includes(upstream)) return upstream;
      if (remotes.includes("origin")) return "origin";
      return remotes.length === 1 ? remotes[0]! : null;
    },
    async fetch(remote) {
      return fetchState(paths, remote, env);
    },
    async push(remote, commit) {
      return pushState(paths, remote, commit, env);
    },
    async relation(local, remote) {
      if (local === remote) return "equal";
      if (isAncestor(paths, local, remote, env)) return "behind";
      if (isAncestor(paths, remote, local, env)) return "ahead";
      return "diverged";
    },
    async merge(local, remote, remoteName, info: CommitInfo): Promise<MergeReport> {
      const base = mergeBase(paths, local, remote, env);
      const [baseTree, localTree, remoteTree] = await Promise.all([base ? treeOf(base) : null, treeOf(local), treeOf(remote)]);
      const snaps = { base: base ? await store.snapshotAt(base) : null, local: await store.snapshotAt(local), remote: await store.snapshotAt(remote) };
      const r = await mergeTrees(store.db, { base: baseTree, local: localTree, remote: remoteTree }, snaps, remoteName);
      // Parents: local first (as `git merge` would record it), built over the published tree.
      const commit = await store.writeCommit([local, remote], remoteTree, r.changes, info);
      appendRenumberLog(paths.commonDir, r.output.renumbered);
      return { commit, base, output: r.output, keptRemote: r.keptRemote };
    },
    async advance(expected, next) {
      // Through the store: the reflog line and the objects check after the swap (DESIGN §2.3).
      const r = await store.moveRef(expected, next);
      return r.ok;
    },
    async ensureFetchRefspec(remote) {
      return ensureFetchRefspec(paths, remote, env);
    },
    async refspecStatus(remote) {
      const hasState = runGit(paths, ["rev-parse", "--verify", "--quiet", trackingRef(remote)], env).status === 0;
      const configured = runGit(paths, ["config", "--get-all", `remote.${remote}.fetch`], env).stdout.split("\n").map((s) => s.trim()).includes(fetchRefspec(remote));
      return { hasState, configured };
    },
    async checkVersion(commit) {
      await (await store.snapshotAt(commit)).checkVersion();
    },
    async inspect(from, to) {
      const [a, b] = [from ? await treeOf(from) : null, await treeOf(to)];
      const snap = await store.snapshotAt(to);
      const out: string[] = [];
      for (const path of await changedPaths(store.db, a, b)) {
        if (out.length >= 50) {
          out.push("... and more: pantheon doctor");
          break;
        }
        const m = /^(tasks|epics|missions|reviews)\/(\d\d)\/([^/]+)$/.exec(path);
        const n = m ? parseRecordFile(m[2]!, m[3]!) : null;
        if (m && n !== null) {
          try {
            await snap.get(m[1] as RecordKind, n);
          } catch (e) {
            if (e instanceof CorruptRecordError) out.push(e.message);
            else throw e;
          }
        } else if (!/^(project|counters)\.json$|^personas\/[^/]+\.json$/.test(path)) {
          out.push(`stray entry ${path} (not part of the layout; ignored)`);
        }
      }
      return out;
    },
    async changedRecords(from, to) {
      const [a, b] = [from ? await treeOf(from) : null, await treeOf(to)];
      return (await changedPaths(store.db, a, b)).filter((p) => /^(tasks|epics|missions|reviews)\/\d\d\/[1-9]\d*\.json$/.test(p)).length;
    },
  };
}
