import type { CounterKind, Counters } from "../../domain/schemas/counters.js";
import type { Epic } from "../../domain/schemas/epic.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Persona } from "../../domain/schemas/persona.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Review } from "../../domain/schemas/review.js";
import type { TaskMap } from "../../domain/task-index.js";
import type { Task, TaskSummary } from "../../domain/schemas/task.js";

// Part of the port (store/store.ts): types only, importing nothing from the store's rooms.
// The records on the ref: what every service reads and writes.

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
 * The records of `refs/coordination/main`, what every service uses. `mutate` re-runs `fn` on a
 * fresh snapshot when it loses the compare-and-swap race, so the loser sees the winner's state
 * and fails with a domain error instead of overwriting it.
 */
export interface RecordStore {
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
  /** The state at any commit of the ref's history. */
  snapshotAt(commit: string): Promise<Snapshot>;
}
