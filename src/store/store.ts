import type { FieldChange } from "../domain/field-changes.js";
import type { MergeOutput } from "../domain/merge/merge-state.js";
import type { CounterKind, Counters } from "../domain/schemas/counters.js";
import type { Epic } from "../domain/schemas/epic.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Persona } from "../domain/schemas/persona.js";
import type { Project } from "../domain/schemas/project.js";
import type { Review } from "../domain/schemas/review.js";
import type { TaskMap } from "../domain/task-index.js";
import type { Task, TaskSummary } from "../domain/schemas/task.js";
import type { Freshness } from "../domain/freshness.js";
import type { HistoryFacts } from "../domain/history-charts.js";
import type { RemoteRefChange } from "../domain/remote-ref-notice.js";

export type { Freshness } from "../domain/freshness.js";
export type { RemoteRefChange } from "../domain/remote-ref-notice.js";

// The port: what services see of the store. It holds interfaces and the types they name, and
// imports nothing from the store's rooms (test/helpers/architecture-rules.ts): the rooms import it.

/** The kinds of numbered records, each a directory of the state's tree (DESIGN §2.1). */
export type RecordKind = CounterKind;

/** The record type of each kind. */
export interface RecordTypes {
  tasks: Task;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

/** A record a scan could not take: a path that is not part of the layout, or a corrupt record. */
export interface ScanProblem {
  kind: "stray" | "corrupt";
  path: string;
  message: string;
}

/** Every record of a kind, and what was wrong on the way. */
export interface ScanResult<T> {
  records: T[];
  problems: ScanProblem[];
}

/** What list-type reads hold of each kind: task summaries, whole records of the others. */
export interface RecordSummaries {
  tasks: TaskSummary;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

/**
 * Every record of a commit as doctor checks it (DESIGN §2.5): each kind's records (summaries
 * for tasks) and what is wrong, every record validated from git unless the sealed read cache
 * shows it validated that very blob.
 */
export type StateCheck = { [K in RecordKind]: ScanResult<RecordSummaries[K]> } & {
  /** Records read and validated from git by this check. */
  validated: number;
  /** Cache files that say what Pantheon did not write there (a broken seal, or values git contradicts). */
  tampered: Array<{ kind: RecordKind; path: string }>;
};

/** How a network call of git behaves when nobody asked for it (publishing, a first use). */
export interface NetOptions {
  /** Never prompt: no terminal prompt, ssh in BatchMode, no credential manager window (DESIGN §3.5). */
  batch?: boolean;
  /** Give up after this long: the git process is killed and the call fails as unreachable. */
  timeoutMs?: number;
}

/** Where a racing command publishes (DESIGN §3.5), or why it does not. */
export type PublishTarget = { remote: string } | { skip: "disabled" | "no-remote" | "no-state"; remote: string | null };

/** One commit of the state ref, as `pantheon log` and `task history` read it. */
export interface CommitEntry {
  oid: string;
  parents: string[];
  author: string;
  /** ISO-8601 author date. */
  date: string;
  summary: string;
  trailers: Record<string, string[]>;
}

/** A linked worktree as git records it in this clone. */
export interface LinkedWorktree {
  path: string;
  /** The branch checked out there (null when its HEAD is detached). */
  branch: string | null;
  head: string | null;
  /** Its folder is gone (git still lists it until pruned). */
  missing: boolean;
}

/** What removing a persona worktree would lose; empty lists mean nothing. */
export interface LossReport {
  /** Commits kept nowhere else (see store/code/commit-losses.ts for the rule): removal refuses. */
  commits: string[];
  /** Uncommitted changes and untracked files that differ from the main worktree's: removal refuses. */
  files: string[];
  /** Ignored files Pantheon copied in (`worktree.copy`) that were edited since: removal keeps a copy. */
  copies: string[];
}

/** What `init --hooks` did; "manual": the hooks folder is in the working tree, add `line` to `file` yourself. */
export interface HookInstall {
  result: "installed" | "updated" | "chained" | "manual";
  /** The hook file written, or (manual) the project's own hook, relative to the worktree. */
  file: string;
  line: string | null;
}

/** The code side of the repository: persona worktrees, provenance commits, hooks. */
export interface CodeRepo {
  /** This worktree's top (null in a bare repository). */
  root: string | null;
  /** The main worktree as git records it (null in a bare repository). */
  mainWorktree(): string | null;
  addWorktree(path: string, branch: string, base: string): void;
  /** The linked worktree of this clone at `path` (never the main one), or null: a record's path is trusted only if git lists it. */
  findWorktree(path: string): LinkedWorktree | null;
  /** What removing `worktree` and deleting `deleteBranch` would lose; `copied` are the paths Pantheon copied in. */
  worktreeLosses(worktree: LinkedWorktree, deleteBranch: string | null, copied: readonly string[]): LossReport;
  removeWorktree(path: string, deleteBranch: string | null): void;
  /** Whether a path is tracked by git (tracked files need no copying into a worktree). */
  isTracked(relPath: string): boolean;
  missionCommits(
    number: string,
    codename: string,
  ): Array<{ oid: string; date: string; author: string; summary: string }>;
  /** `cli` runs this Pantheon when `pantheon` is not on PATH; never written into the working tree. */
  installCommitMsgHook(cli: string[]): HookInstall;
  /** A git config value (repository, then global and system), e.g. `pantheon.assistant`. */
  config(key: string): string | undefined;
}

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

/** The repository itself, as doctor checks it (DESIGN §2.2, §2.3). */
export interface RepositoryStatus {
  /** Settings whose format Pantheon does not implement: every command refuses the repository. */
  unsupported: Array<{ key: string; value: string; why: string }>;
  /** core.sharedRepository as git reads it, and why git itself would refuse it (null: valid or unset). */
  sharedRepository: { value: string | null; problem: string | null };
  /** Paths Pantheon creates whose mode does not honour core.sharedRepository. */
  permissions: Array<{ path: string; mode: string; want: string }>;
  /** The state ref: absent, readable, or naming something that is not a readable commit. */
  ref: { state: "ok" | "missing" | "damaged"; oid: string | null; detail: string | null };
  /** Whether git's reflog of the state ref exists. */
  reflog: boolean;
  /** Whether objects/info/alternates lists Pantheon's keep dir (objects/pantheon) where it holds objects. */
  keepListed: boolean;
  /** Who commits are made as here, and whether git had an identity or the Director placeholder is used. */
  identity: { who: string; source: "git" | "fallback" };
}

/** An earlier state of the ref that `doctor --recover` can restore (its objects all present). */
export interface RecoveryCandidate {
  commit: string;
  /** When the ref was moved to it (reflog), else the commit's date; ISO-8601. */
  date: string;
  summary: string;
  /** Where it was named: git's reflog, Pantheon's copy of it, or the read cache's journal. */
  source: "reflog" | "pantheon-reflog" | "journal";
}

/** Where a sync moved a record of this clone from a number: its new number, and its id before (null if not kept). */
export interface MovedTo {
  to: number;
  id: string | null;
  /** Made by a merge of this very command (a publishing command's own fetch), not by an earlier sync. */
  own?: boolean;
}

/** A record of this clone that a sync renumbered, as it is now, with the id it had before (null if not kept). */
export interface FormerOwner<T> {
  record: T;
  formerId: string | null;
  /** Renumbered by a merge of this very command (see MovedTo.own). */
  own?: boolean;
}

/**
 * A state a reflog names that holds commits the ref lacks (DESIGN §3.2): the ref was deleted or
 * moved by something other than Pantheon (a state Pantheon moved away from is never one).
 */
export interface LostTip extends RecoveryCandidate {
  /** How many commits it has that the ref lacks (its whole history when the ref is missing). */
  commits: number;
  /** The records it changed since it parted from the ref, seen from the tip (empty when the ref is missing). */
  records: RecordChange[];
}

/** A temporary file git left in the object store (a killed fetch or repack); `path` relative to the common dir. */
export type GitLeftover = { path: string; bytes: number; ageMs: number };

/** A read-only view of `refs/coordination/main` at one commit; records load lazily by path. */
export interface Snapshot {
  readonly commit: string | null;
  project(): Promise<Project>;
  counters(): Promise<Counters>;
  /** One record by number (one path read); null when absent; CorruptRecordError when invalid. */
  get<K extends RecordKind>(kind: K, n: number): Promise<RecordTypes[K] | null>;
  /** Every task without its texts, for list-type questions (served by the read cache). */
  taskSummaries(): Promise<TaskSummary[]>;
  /** Task summaries by number; from the read cache, a lookup builds one task and questions over every task read its columns. */
  taskMap(): Promise<TaskMap>;
  /** Every record of a kind; corrupt ones are skipped with a warning naming path and commit. */
  all<K extends RecordKind>(kind: K): Promise<RecordTypes[K][]>;
  persona(name: string): Promise<Persona | null>;
  personas(): Promise<Persona[]>;
  /** Every entry of a kind with what is wrong with the ones that are not records (doctor). */
  scan<K extends RecordKind>(kind: K): Promise<ScanResult<RecordTypes[K]>>;
  /** Records of a kind that had number `n` here before a sync renumbered them (this clone's renumber log). */
  formerOwners<K extends RecordKind>(kind: K, n: number): Promise<FormerOwner<RecordTypes[K]>[]>;
  /** Names at the top of the state tree. */
  rootEntries(): Promise<string[]>;
}

/** A snapshot plus the writes of one mutation; reads see the writes made so far. */
export interface Tx extends Snapshot {
  put<K extends RecordKind>(kind: K, record: RecordTypes[K]): void;
  putPersona(persona: Persona): void;
  putProject(project: Project): void;
  /** Removes any path of the state tree (doctor --fix only). */
  removePath(path: string): void;
  putCounters(counters: Counters): void;
  /** Takes the next number of a kind from counters.json, inside this mutation. */
  allocate(kind: RecordKind): Promise<number>;
}

/** What the commit of a mutation says: summary line and the trailers of DESIGN §2.2. */
export interface CommitInfo {
  summary: string;
  op: string;
  actor: string;
  /** Author name, e.g. `Hephaestus (engineer)`; the Director commits as the git identity. */
  authorName: string | null;
  mission: string | null;
}

export interface MutationResult<R> {
  result: R;
  commit: CommitInfo;
}

/** What publishing a mutation's commit came to (DESIGN §3.5). */
export type PublishOutcome = "published" | "rejected" | "unpublished";

export interface MutateOptions {
  /**
   * Called with the mutation's commit before the local compare-and-swap: "published" (the
   * remote's ref now names it), "rejected" (the remote moved: nothing lands here, and the
   * caller re-runs the mutation on a fresh merge), "unpublished" (the remote could not take
   * it: it lands here only).
   */
  publish?: (commit: string) => Promise<PublishOutcome>;
}

export interface MutateOutcome<R> {
  result: R;
  /** The commit made, or null when nothing changed (or the push was rejected). */
  commit: string | null;
  /** Set when `publish` was called. */
  published?: PublishOutcome;
  /**
   * False when the commit was published but another local command moved the ref first: the
   * remote has it and this clone does not yet (a sync merges it in).
   */
  landed?: boolean;
}

/**
 * The storage port services see. `mutate` re-runs `fn` on a fresh snapshot when it loses the
 * compare-and-swap race, so the loser sees the winner's state and fails with a domain error
 * instead of overwriting it.
 */
export interface Store {
  readonly root: string | null;
  readonly commonDir: string;
  snapshot(): Promise<Snapshot>;
  mutate<R>(fn: (tx: Tx) => Promise<MutationResult<R>>, o?: MutateOptions): Promise<MutateOutcome<R>>;
  /** Writes the root commit (init); refuses when the ref already exists. */
  initialize(project: Project, info: CommitInfo): Promise<string>;
  /** The commit refs/coordination/main names now (null before init); cheap: one ref read. */
  tip(): Promise<string | null>;
  /** Whether refs/coordination/main exists. */
  exists(): Promise<boolean>;
  /**
   * Commits of the state ref, newest first (all parents, by date, as `git log` orders them);
   * `record` keeps those that touched it (`tasks/7`): named by their Pantheon-Records trailer,
   * or, for a merge, changed against its first parent. Served by the history index
   * (DESIGN §2.4a): the cost follows the commits returned, not the history's length.
   */
  log(o: { limit?: number; record?: string | readonly string[] }): Promise<CommitEntry[]>;
  /** What the charts read of the whole history (closings per day, each task's facts), from the history index. */
  historyFacts(): Promise<HistoryFacts>;
  /**
   * Every record at `commit` checked (doctor), streaming from git what the read cache cannot
   * vouch for; `trustCache: false` reads and validates every record.
   */
  checkState(commit: string, o?: { trustCache?: boolean }): Promise<StateCheck>;
  /** Deletes the read cache (it is disposable: the next read rebuilds it). */
  dropCache(): Promise<void>;
  /** The ref's lock file, if one is held (git's protocol leaves no owner in it, only an age). */
  lockStatus(): Promise<{ path: string; ageMs: number } | null>;
  /** Removes a held lock; returns what it removed. */
  breakLock(): Promise<{ path: string; ageMs: number } | null>;
  /** Worktrees, code commits and hooks; refused by stores that have none. */
  code(): Promise<CodeRepo>;
  /** Sharing with remotes; refused by stores that have none. */
  sync(): Promise<StateSync>;
  /**
   * How the state compares with each remote's as last fetched (DESIGN §3.5): no network, the
   * ancestry answer cached per pair of tips; empty when no remote's state was ever fetched.
   */
  freshness(): Promise<Freshness[]>;
  /** Keeps what a sync decided (any JSON value) until a later command shows it (DESIGN §3.2); returns its id. */
  keepNotice(value: unknown, tag: string): Promise<string>;
  /** The notices kept and not yet shown, oldest first. */
  notices(): Promise<Array<{ id: string; value: unknown }>>;
  /** Drops notices once shown. */
  dropNotices(ids: readonly string[]): Promise<void>;
  /** The state at any commit of the ref's history. */
  snapshotAt(commit: string): Promise<Snapshot>;
  /** The commit the current worktree's HEAD names (code, not state); null on an unborn branch. */
  codeHead(): Promise<string | null>;
  /**
   * Whether a commit is a Pantheon state (project.json and counters.json at its root): a HEAD
   * there is the state's branch checked out (a host that takes only branches), never code.
   */
  holdsState(commit: string): Promise<boolean>;
  /** The repository's format, permissions, state ref and reflog (never refuses: doctor reports). */
  repository(): Promise<RepositoryStatus>;
  /** Earlier states the ref can be restored to, newest first (complete commits only, at most `limit`). */
  recoveryCandidates(limit: number): Promise<{ candidates: RecoveryCandidate[]; incomplete: number }>;
  /** States the reflogs name that hold commits the ref lacks, newest first (complete states only). */
  lostTips(): Promise<LostTip[]>;
  /** git's temporary files in the object store untouched for an hour (nothing still writes them). */
  gitLeftovers(): Promise<GitLeftover[]>;
  /**
   * Restores a missing or damaged ref to `commit`'s state, as a new commit (parent `commit`)
   * compare-and-swapped over whatever the ref holds; refuses a healthy ref or an incomplete commit.
   */
  recover(commit: string, info: (from: string) => CommitInfo): Promise<{ from: string; commit: string }>;
  /**
   * Writes a file of this clone's own in `<commondir>/pantheon/<relPath>` (a summoned persona's
   * instructions), honouring core.sharedRepository; returns its absolute path.
   */
  writeCloneFile(relPath: string, text: string): Promise<string>;
  /**
   * The folders of the common dir Pantheon writes (refs/coordination/, logs/refs/coordination/,
   * objects/, pantheon/), absolute; made first when `create`. A sandboxed assistant gets exactly
   * these writable, never the common dir (DESIGN §5); empty for a store without one.
   */
  writableDirs(o: { create: boolean }): Promise<string[]>;
  /** Lists Pantheon's keep dir in objects/info/alternates again (doctor --fix); false when it was listed. */
  listKeepDir(): Promise<boolean>;
  /** Starts the reflog of a ref made before reflogs were kept; false when it exists. */
  startReflog(): Promise<boolean>;
  /** Applies core.sharedRepository's bits to what Pantheon created; returns the paths changed and those it could not. */
  fixPermissions(): Promise<{ fixed: string[]; failed: string[] }>;
}
