// Types of scripts/soak-checks.mjs, for test/unit/scripts/soak-checks.test.ts.

/** One command a persona ran, as scripts/soak-persona.mjs records it (the fields the checks read). */
export interface OutcomeRecord {
  clone: number;
  persona: string;
  seq: number;
  kind: string;
  t0: number;
  t1: number;
  outcome: "ok" | "refused" | "failed";
  published?: boolean | null;
  publishedWhy?: string | null;
  /** The product's "not published yet" line was on stderr (not in the --json result). */
  stderrUnpublished?: boolean;
  stderrWhy?: string | null;
  /** The task it was about, by title (set for task commands that succeeded). */
  task?: string;
  /** For task create: the title asked for. */
  title?: string;
  /** The unique tag inside the --notes / --reason / note text it carried. */
  textTag?: string;
  text?: string;
  review?: string;
  [field: string]: unknown;
}

export interface Classified {
  outcome: "ok" | "refused" | "failed";
  why: string | null;
  code: string | null;
  message: string | null;
  envelope: { schemaVersion: number; kind: string; data?: unknown; [k: string]: unknown } | null;
}

export interface Episode {
  task: string;
  persona: string;
  clone: number;
  claimSeq: number;
  told: number;
  published: boolean | null | undefined;
  stderrUnpublished: boolean;
  claimMs: number;
  move: string;
  moveSeq: number;
  moved: number;
}

export interface HistoryCommit {
  commit: string;
  parents: string[];
  op: string | null;
  actor: string | null;
  records: string[];
}

export interface ClaimRef {
  commit: string;
  actor: string | null;
}

export interface RawTask {
  number: number;
  title: string;
  status: string;
  claimedBy: string | null;
  notes?: Array<{ text: string }>;
}

export interface RawReview {
  number: number;
  task: number | null;
  type: string;
  status: string;
  requestedBy: string;
  reviewer: string | null;
  reason: string | null;
}

export interface ReviewProblem {
  kind:
    | "pending-missing-task"
    | "pending-not-in-review"
    | "pending-other-owner"
    | "pending-twice"
    | "approved-too-often";
  [field: string]: unknown;
}

export const DOMAIN_REFUSALS: Set<string>;
export const CONTENTION_DOCUMENTED: Record<string, Set<string>>;
export const PUBLISH_BUDGET_MS: number;

export function classifyOutcome(r: {
  kind: string;
  status: number | null;
  signal?: string | null;
  stdout: string;
  stderr: string;
  spawnError?: string | null;
}): Classified;
export function publishOutcome(
  envelope: Classified["envelope"],
  stderr: string,
): { published: boolean | null; why: string | null; stderrUnpublished: boolean; stderrWhy: string | null };
export function reasonClass(why: string | null): string;
export function claimEpisodes(records: OutcomeRecord[]): Episode[];
export function findDoubleWork(
  records: OutcomeRecord[],
): Array<{ task: string; episodes: Episode[]; personas: string[]; most: number }>;
export function confirmDoubleWork(
  found: ReturnType<typeof findDoubleWork>,
  history: HistoryCommit[],
  taskOf: (commit: string) => string | undefined,
): Array<
  ReturnType<typeof findDoubleWork>[number] & {
    inHistory: string[];
    confirmed: boolean;
    concurrent: Array<[ClaimRef, ClaimRef]>;
  }
>;
export function parseHistory(text: string): HistoryCommit[];
export function isAncestor(parentsOf: Map<string, string[]>, a: string, b: string): boolean;
export function concurrentClaims(
  history: HistoryCommit[],
  taskOf: (commit: string) => string | undefined,
): Map<string, Array<[ClaimRef, ClaimRef]>>;
export function findLostTexts(records: OutcomeRecord[], finalTexts: string[]): OutcomeRecord[];
export function findReviewProblems(
  state: { tasks: RawTask[]; reviews: RawReview[] },
  reopensOf?: (task: string | number) => number,
): ReviewProblem[];
export function findMissingCreated(records: OutcomeRecord[], finalTitles: string[]): OutcomeRecord[];
export function findUndoneCloses(records: OutcomeRecord[], tasks: RawTask[]): OutcomeRecord[];
export function claimPublishCounts(records: OutcomeRecord[]): {
  run: number;
  ok: number;
  refused: number;
  failed: number;
  published: number;
  notPublished: number;
  notSaid: number;
  notSaidButWarned: number;
  overBudget: number;
  unpublished: Record<string, number>;
  p50: number;
  p90: number;
  max: number;
};
