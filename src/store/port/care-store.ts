import type { Epic } from "../../domain/schemas/epic.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Review } from "../../domain/schemas/review.js";
import type { TaskSummary } from "../../domain/schemas/task.js";
import type { CommitInfo, RecordKind, ScanResult } from "./record-store.js";
import type { RecordChange } from "./sync-store.js";

// Part of the port (store/store.ts): types only, importing nothing from the store's rooms.

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

/** The repository's care, as doctor and its repairs use it (DESIGN §2.2, §2.3). */
export interface CareStore {
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
  /** Lists Pantheon's keep dir in objects/info/alternates again (doctor --fix); false when it was listed. */
  listKeepDir(): Promise<boolean>;
  /** Starts the reflog of a ref made before reflogs were kept; false when it exists. */
  startReflog(): Promise<boolean>;
  /** Applies core.sharedRepository's bits to what Pantheon created; returns the paths changed and those it could not. */
  fixPermissions(): Promise<{ fixed: string[]; failed: string[] }>;
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
