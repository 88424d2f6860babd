import type { FieldChange } from "../../domain/field-changes.js";
import type { Freshness } from "../../domain/freshness.js";
import type { MergeOutput } from "../../domain/merge/merge-state.js";
import type { RemoteRefChange } from "../../domain/remote-ref-notice.js";
import type { CommitInfo, RecordKind } from "./record-store.js";

// Part of the port (store/store.ts): types only, importing nothing from the store's rooms.

/** How a network call of git behaves when nobody asked for it (publishing, a first use). */
export interface NetOptions {
  /** Never prompt: no terminal prompt, ssh in BatchMode, no credential manager window (DESIGN §3.5). */
  batch?: boolean;
  /** Give up after this long: the git process is killed and the call fails as unreachable. */
  timeoutMs?: number;
}

/** Where a racing command publishes (DESIGN §3.5), or why it does not. */
export type PublishTarget = { remote: string } | { skip: "disabled" | "no-remote" | "no-state"; remote: string | null };

/** What a sync merge decided (DESIGN §3.3, §3.4), from the domain's merge. */
export interface MergeReport {
  commit: string;
  /** The merge base (or, for a replay, the last synced tip). */
  base: string | null;
  output: MergeOutput;
  /** Non-record files changed on both sides; the published version was kept. */
  keptRemote: string[];
  /** What migrating an older side said (DESIGN §1.3): to be shown once, when the merge lands. */
  notices: string[];
}

/** What a sync holds while it runs: one sync at a time per clone (DESIGN §3.2). */
export interface SyncLock {
  /** Marks the lock as alive, so a long sync is not judged stale. */
  touch(): void;
  release(): void;
}

/** A record file that differs between two commits, seen from the first; `whole`: the second lacks it. */
export type RecordChange = { kind: RecordKind; n: number; whole: boolean };

/** A sync lock a killed sync left behind: it names a process of this host that is gone. */
export type StaleSyncLock = { path: string; pid: number; ageMs: number };

/** What doctor checks of where a remote keeps the state (no network). */
export interface RemoteRefStatus {
  /** The ref on the remote (null: the config's value is unusable, see `problem`). */
  ref: string | null;
  configured: boolean;
  /** The git config key that names it: `pantheon.<remote>.remoteRef`, or `pantheon.remoteRef` for every remote. */
  key: string;
  /** Why the configured value cannot hold the state (the message a command refuses with). */
  problem: string | null;
  /** Local branches named like the state's branch or tracking it: checked out, they are the state's files, not code. */
  localBranches: string[];
  /** The tracking ref's commit is not a Pantheon state (the ref holds code). */
  holdsOther: boolean;
}

/** Sharing the state with the repository's remotes (DESIGN §3), through the system git. */
export interface StateSync {
  remotes(): Promise<string[]>;
  /** The current branch's upstream remote, else `origin` when it exists, else the only remote. */
  defaultRemote(): Promise<string | null>;
  /** Waits (within a budget: `waitMs`, else PANTHEON_SYNC_WAIT_MS or 30 s) for any other sync of this clone, then holds the sync lock. */
  lock(o?: { waitMs?: number }): Promise<SyncLock>;
  /** The sync lock when it names a process of this host that no longer runs (a killed sync), else null. */
  staleLock(): Promise<StaleSyncLock | null>;
  /**
   * Where a racing command publishes (DESIGN §3.5): the default remote when this clone has seen
   * state there and `pantheon.autoSync` is not false; decided without spawning git.
   */
  publishTarget(): Promise<PublishTarget>;
  /**
   * Replaces the exact fetch refspec of earlier versions by the glob and deletes its old tracking
   * ref, whose value becomes the last synced tip when none is kept and the state contains it;
   * replaces a glob of another ref of the remote (before its state ref moved): `replaced`.
   */
  migrateRefspec(remote: string): Promise<{ migrated: boolean; configured: boolean; replaced: boolean }>;
  /**
   * Fetches into refs/coordination/remotes/<remote>/main; null when the remote has no state.
   * Ignores partial-clone filters (fetching any blob of the state a filtered fetch left out) and
   * deepens the state's history in a shallow clone.
   */
  fetch(remote: string, net?: NetOptions): Promise<string | null>;
  /** Refuses (SyncError) when the history of these commits is cut by a shallow graft. */
  requireHistory(remote: string, tips: string[]): Promise<void>;
  push(remote: string, commit: string, net?: NetOptions): Promise<"ok" | "rejected">;
  relation(local: string, remote: string): Promise<"equal" | "ahead" | "behind" | "diverged">;
  /** Whether `ancestor` is in the history of `descendant`; null when git cannot tell (an object is missing). */
  contains(ancestor: string, descendant: string): Promise<boolean | null>;
  /** The best common ancestor; null when the histories are unrelated. */
  mergeBase(a: string, b: string): Promise<string | null>;
  /** Writes the two-parent merge commit of local and remote over `base` (the ref is not moved). */
  merge(base: string, local: string, remote: string, remoteName: string, info: CommitInfo): Promise<MergeReport>;
  /** Writes ONE commit on `remote` (its only parent) carrying what `local` changed since `base` (the ref is not moved). */
  replay(base: string, local: string, remote: string, remoteName: string, info: CommitInfo): Promise<MergeReport>;
  /**
   * `sync --adopt-remote`: ONE commit joining two unrelated histories (parents: remote, local):
   * the remote's state as it is, with every record of `local` re-created on it under a new
   * number (the ref is not moved).
   */
  join(local: string, remote: string, remoteName: string, info: CommitInfo): Promise<MergeReport>;
  /** Whether every object of the state at `commit` (its whole tree) is in this clone. */
  complete(commit: string): Promise<boolean>;
  /** How many commits `to` has that `from` does not. */
  countCommits(from: string, to: string): Promise<number>;
  /** The last tip a sync of this clone merged from or pushed to the remote, or null. */
  syncedTip(remote: string): Promise<string | null>;
  recordSynced(remote: string, tip: string): Promise<void>;
  /** The fields of project.json that differ between two commits (updatedAt left out). */
  projectChanges(from: string, to: string): Promise<FieldChange[]>;
  /** Compare-and-swap of refs/coordination/main. */
  advance(expected: string | null, next: string): Promise<boolean>;
  /** Adds the fetch refspec (the glob) to the remote's config; true when added now. */
  ensureFetchRefspec(remote: string): Promise<boolean>;
  /**
   * The ref the remote keeps the state on (git config `pantheon.<remote>.remoteRef`, else
   * `pantheon.remoteRef`, else refs/coordination/main), the key that names it and the fetch
   * refspec of it; UsageError (exit 2) naming the key when the configured value cannot hold it.
   */
  remoteRef(remote: string): Promise<{ ref: string; configured: boolean; key: string; refspec: string }>;
  /** Where this object's fetches and pushes moved a remote's state ref (and recorded it): returned once. */
  remoteRefChanges(): RemoteRefChange[];
  /** What doctor reports of a remote's state ref: an unusable value, a local branch of its name, a ref holding code. */
  remoteRefStatus(remote: string): Promise<RemoteRefStatus>;
  /**
   * Whether the remote has state here, whether the glob is configured, whether the exact form of
   * earlier versions (or its old tracking ref) remains, and whether a glob of another source
   * (the remote's state ref before it moved) still maps into the tracking ref.
   */
  refspecStatus(remote: string): Promise<{ hasState: boolean; configured: boolean; legacy: boolean; stale: boolean }>;
  /** Refuses a commit written by a newer Pantheon (SchemaVersionError), before anything is merged or adopted. */
  checkVersion(commit: string): Promise<void>;
  /** Problems in what changed from `from` to `to`: unreadable records and entries outside the layout. */
  inspect(from: string | null, to: string): Promise<string[]>;
  /** How many record files differ between two commits. */
  changedRecords(from: string | null, to: string): Promise<number>;
  /** The records whose files differ between two commits, seen from `from` (`whole`: `to` lacks the record). */
  recordChanges(from: string, to: string | null): Promise<RecordChange[]>;
}

/** Sharing with remotes, as sync, publishing, adoption and the staleness line use it. */
export interface SyncStore {
  /** Sharing with remotes; refused by stores that have none. */
  sync(): Promise<StateSync>;
  /**
   * How the state compares with each remote's as last fetched (DESIGN §3.5): no network, the
   * ancestry answer cached per pair of tips; empty when no remote's state was ever fetched.
   */
  freshness(): Promise<Freshness[]>;
}

/** What a sync decided, kept until a later command shows it (DESIGN §3.2). */
export interface NoticeStore {
  /** Keeps what a sync decided (any JSON value) until a later command shows it (DESIGN §3.2); returns its id. */
  keepNotice(value: unknown, tag: string): Promise<string>;
  /** The notices kept and not yet shown, oldest first. */
  notices(): Promise<Array<{ id: string; value: unknown }>>;
  /** Drops notices once shown. */
  dropNotices(ids: readonly string[]): Promise<void>;
}
