import type { StateWriter } from "../state/state-writer.js";
import { casRef, readRef } from "../git/ref-cas.js";
import { mergeTrees } from "./state-merge.js";
import type { CommitInfo, MergeReport, StateSync } from "../store.js";
import { changedBlobs, changedPaths } from "../git/tree-diff.js";
import { readBlobs } from "../git/blob-batch.js";
import { prefetchDiffs } from "../git/object-prefetch.js";
import { decodeRecord } from "../state/record-snapshot.js";
import { mergeBase } from "./transport.js";
import { runGit } from "../repo/run-git.js";
import { CorruptRecordError } from "../../errors.js";
import { fieldChanges } from "../../domain/field-changes.js";
import { parseRecordFile, PROJECT_PATH, type RecordKind } from "../state/layout.js";
import { appendRenumberLog, withFormerIds } from "./renumber-log.js";
import { loadSchemas } from "../state/schema-loader.js";
import { ensureFetchRefspec, fetchRefspec, migrateRefspec, refspecStatus, trackingRef } from "./state-refspec.js";
import { completeObjects, isPartialClone, requireFullHistory, shallowCommits } from "./state-history.js";
import { readSyncedTip, writeSyncedTip } from "./synced-tips.js";
import { acquireSyncLock, staleSyncLock } from "./sync-lock.js";
import { recordChanges } from "../state/record-changes.js";
import { configuredRemotes, defaultRemoteOf, publishTarget } from "./publish-target.js";
import { loadGitConfig, type GitConfig } from "../repo/git-config.js";
import { readTreePath } from "../git/tree-edit.js";
import { remoteRefs } from "./remote-refs.js";

/** StateSync over the git store (a StateWriter): transport and ancestry through system git, the merge in-process. */
export function gitSync(store: StateWriter, env: NodeJS.ProcessEnv): StateSync {
  const paths = store.paths;
  const treeOf = async (commit: string) => (await store.db.readCommit(commit)).tree;
  /** `git merge-base --is-ancestor`: exit 1 is "no"; anything else (an object missing) is "cannot tell". */
  const contains = (a: string, b: string): boolean | null => {
    if (a === b) return true;
    const status = runGit(paths, ["merge-base", "--is-ancestor", a, b], env).status;
    return status === 0 ? true : status === 1 ? false : null;
  };
  const known = new Map<string, string | null>();
  /** `git merge-base a b`, remembered: commits never change, so neither does their base. */
  const bases = (a: string, b: string): string | null => {
    const key = `${a} ${b}`;
    if (!known.has(key)) known.set(key, mergeBase(paths, a, b, env));
    return known.get(key)!;
  };
  /**
   * Three-way merge of the records over the remote tree, committed with the parents `parentsOf`
   * picks from the two (migrated) tips; the ref is not moved. A merge is a write of this
   * version: a side of an older schema is migrated first, by its own commit, which the merge
   * carries (the same migration on both sides gives one blob). Neither side may be newer (a
   * local state a newer version wrote, in a clone that went back).
   */
  const threeWay = async (
    base: string | null,
    tipLocal: string,
    tipRemote: string,
    remoteName: string,
    parentsOf: (local: string, remote: string) => string[],
    info: CommitInfo,
    o: { renumberAll?: boolean } = {},
  ): Promise<MergeReport> => {
    for (const tip of [tipLocal, tipRemote]) await (await store.snapshotAt(tip)).checkVersion();
    const schemas = await loadSchemas();
    const migrated = [await store.migrationOver(tipLocal, schemas), await store.migrationOver(tipRemote, schemas)];
    const local = migrated[0]?.commit ?? tipLocal;
    const remote = migrated[1]?.commit ?? tipRemote;
    const [baseTree, localTree, remoteTree] = await Promise.all([
      base ? treeOf(base) : null,
      treeOf(local),
      treeOf(remote),
    ]);
    const snaps = {
      base: base ? await store.snapshotAt(base) : null,
      local: await store.snapshotAt(local),
      remote: await store.snapshotAt(remote),
    };
    const r = await mergeTrees(
      store.db,
      { base: baseTree, local: localTree, remote: remoteTree },
      snaps,
      remoteName,
      o,
    );
    const commit = await store.writeCommit(parentsOf(local, remote), remoteTree, r.changes, info);
    appendRenumberLog(paths.commonDir, await withFormerIds(snaps.local, r.output.renumbered));
    store.noteOwnRenumbering(r.output.renumbered);
    const notices = [...new Set(migrated.flatMap((m) => m?.notices ?? []))];
    return { commit, base, output: r.output, keptRemote: r.keptRemote, notices };
  };
  const projectJson = async (commit: string): Promise<unknown> => {
    const entry = await readTreePath(store.db, await treeOf(commit), PROJECT_PATH).catch(() => null);
    if (!entry) return undefined;
    try {
      return JSON.parse((await store.db.read(entry.oid)).content.toString("utf8")) as unknown;
    } catch {
      return undefined; // unreadable: inspect() names it
    }
  };
  // The remotes and the default one, read from git config in-process as publishing reads them
  // (publish-target.ts): one rule for both, and three `git` spawns fewer per sync.
  let config: GitConfig | undefined;
  const gitConfig = () => (config ??= loadGitConfig(paths.commonDir, env, paths.gitDir));
  // Where each remote keeps the state (DESIGN §3.1), and where this sync moved it.
  const refs = remoteRefs(store, env, gitConfig);
  return {
    async remotes() {
      // In `git remote`'s order: by name.
      return configuredRemotes(gitConfig()).sort();
    },
    async defaultRemote() {
      return defaultRemoteOf(gitConfig(), paths);
    },
    async lock(o = {}) {
      const wait = Number(env.PANTHEON_SYNC_WAIT_MS);
      if (o.waitMs !== undefined) return acquireSyncLock(paths.commonDir, { waitMs: o.waitMs });
      return acquireSyncLock(
        paths.commonDir,
        Number.isFinite(wait) && wait >= 0 && env.PANTHEON_SYNC_WAIT_MS !== "" ? { waitMs: wait } : {},
      );
    },
    async staleLock() {
      return staleSyncLock(paths.commonDir);
    },
    async publishTarget() {
      return publishTarget(paths, env);
    },
    async migrateRefspec(remote) {
      const r = await migrateRefspec(paths, remote, env, refs.of(remote).ref);
      // An earlier version kept no last synced tip; its tracking ref held the tip its last sync
      // fetched, and when the state here contains it, that tip was merged or pushed.
      const local = await store.tip();
      if (r.legacyTip && local && !readSyncedTip(paths.commonDir, remote) && contains(r.legacyTip, local))
        writeSyncedTip(paths.commonDir, remote, r.legacyTip);
      return { migrated: r.migrated, configured: r.configured, replaced: r.replaced };
    },
    async fetch(remote, net = {}) {
      const tip = await refs.fetch(remote, shallowCommits(paths).size > 0, net);
      const local = await store.tip();
      if (tip && isPartialClone(paths, remote, env))
        completeObjects(paths, remote, tip, local, env, net, refs.of(remote).ref);
      // What the sync will read next, in one go (object-prefetch.ts): a partial clone is left
      // out, since git would fetch each object it lacks from the remote, one at a time.
      else if (tip && local && tip !== local) {
        const base = bases(local, tip);
        // A merge reads the base's version of each record changed here (a push alone does not).
        if (base)
          await prefetchDiffs(store.db, paths.commonDir, env, [
            { from: base, to: local, oldBlobs: base !== tip },
            { from: base, to: tip, oldBlobs: false },
          ]);
      }
      return tip;
    },
    async requireHistory(remote, tips) {
      requireFullHistory(paths, remote, tips, env);
    },
    async push(remote, commit, net = {}) {
      const pushed = await refs.push(remote, commit, net);
      // As git does for a branch: the tracking ref follows a push that landed. Until the next
      // fetch it would otherwise say the remote has no state (after a first publication), and a
      // racing command would not publish (publish-target.ts) and reads would call this stale.
      if (pushed === "ok") {
        const ref = trackingRef(remote);
        const seen = await readRef(paths.commonDir, ref).catch(() => null);
        if (seen !== commit) await casRef(paths.commonDir, ref, seen, commit).catch(() => undefined);
      }
      return pushed;
    },
    async relation(local, remote) {
      if (local === remote) return "equal";
      // One `git merge-base` answers both ancestries and the merge that follows (a sync under
      // contention repeats this for every attempt: each spawn widens its window).
      const base = bases(local, remote);
      return base === local ? "behind" : base === remote ? "ahead" : "diverged";
    },
    async contains(ancestor, descendant) {
      return contains(ancestor, descendant);
    },
    async mergeBase(a, b) {
      return bases(a, b);
    },
    async merge(base, local, remote, remoteName, info: CommitInfo): Promise<MergeReport> {
      // Parents: local first (as `git merge` would record it), built over the published tree.
      return threeWay(base, local, remote, remoteName, (l, r) => [l, r], info);
    },
    async replay(base, local, remote, remoteName, info: CommitInfo): Promise<MergeReport> {
      // One parent: the history the remote dropped is no longer reachable from the state ref.
      return threeWay(base, local, remote, remoteName, (_l, r) => [r], info);
    },
    async join(local, remote, remoteName, info: CommitInfo): Promise<MergeReport> {
      // No base: every local record counts as created here, and all of them move (renumberAll).
      return threeWay(null, local, remote, remoteName, (l, r) => [r, l], info, { renumberAll: true });
    },
    async complete(commit) {
      const r = runGit(paths, ["rev-list", "--objects", "--no-walk", "--missing=print", commit], env);
      // A missing object is a line "?<oid>": looked for in the text, not a string per object
      // (a state of 100,000 records lists as many).
      return r.status === 0 && !r.stdout.startsWith("?") && !r.stdout.includes("\n?");
    },
    async countCommits(from, to) {
      return Number(runGit(paths, ["rev-list", "--count", to, `^${from}`], env).stdout.trim()) || 0;
    },
    async syncedTip(remote) {
      return readSyncedTip(paths.commonDir, remote);
    },
    async recordSynced(remote, tip) {
      writeSyncedTip(paths.commonDir, remote, tip);
    },
    async projectChanges(from, to) {
      return fieldChanges(await projectJson(from), await projectJson(to), ["updatedAt"]);
    },
    async advance(expected, next) {
      // Through the store: the reflog line and the objects check after the swap (DESIGN §2.3).
      const r = await store.moveRef(expected, next);
      return r.ok;
    },
    async ensureFetchRefspec(remote) {
      return ensureFetchRefspec(paths, remote, env, refs.of(remote).ref);
    },
    async remoteRef(remote) {
      const at = refs.of(remote);
      return { ...at, refspec: fetchRefspec(remote, at.ref) };
    },
    remoteRefChanges() {
      return refs.takeChanges();
    },
    async remoteRefStatus(remote) {
      return refs.status(remote);
    },
    async refspecStatus(remote) {
      const s = await refspecStatus(paths, remote, env, refs.of(remote).ref);
      return {
        hasState:
          (await readRef(paths.commonDir, trackingRef(remote)).catch(() => null)) !== null || s.legacyTip !== null,
        configured: s.configured,
        legacy: s.legacy || s.legacyTip !== null,
        stale: s.stale.length > 0,
      };
    },
    async checkVersion(commit) {
      await (await store.snapshotAt(commit)).checkVersion();
    },
    async inspect(from, to) {
      const [a, b] = [from ? await treeOf(from) : null, await treeOf(to)];
      const out: string[] = [];
      const records: Array<{ path: string; kind: RecordKind; n: number; oid: string }> = [];
      for (const { path, oid } of await changedBlobs(store.db, a, b)) {
        const m = /^(tasks|epics|missions|reviews)\/(\d\d)\/([^/]+)$/.exec(path);
        const n = m ? parseRecordFile(m[2]!, m[3]!) : null;
        if (m && n !== null) {
          if (oid) records.push({ path, kind: m[1] as RecordKind, n, oid });
        } else if (!/^(project|counters)\.json$|^personas\/[^/]+\.json$/.test(path)) {
          out.push(`stray entry ${path} (not part of the layout; ignored)`);
        }
      }
      // An adoption checks every record: read them in one `git cat-file --batch` (10,000 records
      // one by one through the object db took seconds), then decode each as a read would.
      const blobs = await readBlobs(
        store.db,
        paths.commonDir,
        records.map((r) => r.oid),
      );
      const schemas = await loadSchemas();
      for (const r of records) {
        if (out.length >= 50) {
          out.push("... and more: pantheon doctor");
          break;
        }
        try {
          const bytes = blobs.get(r.oid);
          if (!bytes) throw new CorruptRecordError(r.path, to, "missing blob");
          const record = decodeRecord(schemas[r.kind] as never, bytes, r.path, to) as { number: number };
          if (record.number !== r.n)
            throw new CorruptRecordError(r.path, to, `number is ${record.number}, but the path says ${r.n}`);
        } catch (e) {
          if (e instanceof CorruptRecordError) out.push(e.message);
          else throw e;
        }
      }
      return out;
    },
    async recordChanges(from, to) {
      return recordChanges(store.db, await treeOf(from), to ? await treeOf(to) : null);
    },
    async changedRecords(from, to) {
      const [a, b] = [from ? await treeOf(from) : null, await treeOf(to)];
      return (await changedPaths(store.db, a, b)).filter((p) =>
        /^(tasks|epics|missions|reviews)\/\d\d\/[1-9]\d*\.json$/.test(p),
      ).length;
    },
  };
}
