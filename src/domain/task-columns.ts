import { PRIORITIES } from "./priority.js";
import { TASK_ROLES } from "./roles.js";
import type { TaskSummary } from "./schemas/task.js";
import { tooSparse, type TaskMap } from "./task-index.js";
import { CLAIMED_STATUSES, TASK_STATUSES } from "./task-status.js";

/**
 * Every task of a map as columns, by position in number order, without building the tasks:
 * questions over every task (blocked, next, report, filtered lists, the dashboard) loop over
 * these and build only the tasks they answer with. At 50,000 tasks, building every task to ask
 * each its status cost ~25 ms, most of it garbage collection, and even a method call per task
 * costs ~10 ms in code that runs once (it never gets optimised); a loop over typed arrays is
 * ~1 ms. The read cache hands over its own arrays.
 *
 * Codes are positions in the domain's lists: TASK_STATUSES, TASK_ROLES, PRIORITIES (so a
 * priority's code is its rank).
 */
export interface TaskColumns {
  readonly count: number;
  /** Ascending. */
  readonly number: ArrayLike<number>;
  readonly status: ArrayLike<number>;
  readonly role: ArrayLike<number>;
  readonly priority: ArrayLike<number>;
  /** 0 for none. */
  readonly epic: ArrayLike<number>;
  readonly mission: ArrayLike<number>;
  /** The claimant's index in `names` plus one, 0 for none. */
  readonly claimedBy: ArrayLike<number>;
  readonly names: readonly string[];
  /** The dependencies of position i are depValues[depStart[i]] … depValues[depStart[i + 1] − 1]. */
  readonly depStart: ArrayLike<number>;
  readonly depValues: ArrayLike<number>;
  /** The labels of position i are labelNames[labelValues[labelStart[i]]] … (up to labelStart[i + 1]). */
  readonly labelStart: ArrayLike<number>;
  readonly labelValues: ArrayLike<number>;
  readonly labelNames: readonly string[];
  /**
   * Each createdAt as a number that orders exactly as the strings do (createdKey), so ordering
   * by age reads no text; null when some createdAt is not in the canonical form (the strings
   * are then compared).
   */
  readonly created: ArrayLike<number> | null;
  /** The task at position i, built now. */
  task(i: number): TaskSummary;
}

export const STATUS_CODE = codes(TASK_STATUSES);
export const ROLE_CODE = codes(TASK_ROLES);
export const PRIORITY_CODE = codes(PRIORITIES);
const CLAIMED = new Set(CLAIMED_STATUSES.map((s) => STATUS_CODE[s]));

function codes<T extends string>(list: readonly T[]): Record<T, number> {
  return Object.fromEntries(list.map((v, i) => [v, i])) as Record<T, number>;
}

/** A map's columns: the map's own when it has them (the read cache), else read off its tasks. */
export function columnsOf(map: TaskMap): TaskColumns {
  const own = map.columns?.();
  if (own) return own;
  const list = [...map.values()];
  // A plain Map iterates in insertion order; positions are in number order.
  if (list.some((t, i) => i > 0 && list[i - 1]!.number > t.number)) list.sort((a, b) => a.number - b.number);
  return listColumns(list);
}

/** Columns over tasks already built, in number order. */
export function listColumns(tasks: readonly TaskSummary[]): TaskColumns {
  const N = tasks.length;
  const [number, epic, mission, claimedBy, depStart] = [
    new Float64Array(N),
    new Float64Array(N),
    new Float64Array(N),
    new Uint32Array(N),
    new Uint32Array(N + 1),
  ];
  const [status, role, priority] = [new Uint8Array(N), new Uint8Array(N), new Uint8Array(N)];
  const names: string[] = [];
  const nameAt = new Map<string, number>();
  const depValues: number[] = [];
  const [labelStart, labelValues, labelNames] = [new Uint32Array(N + 1), [] as number[], [] as string[]];
  const labelAt = new Map<string, number>();
  let created: Float64Array | null = new Float64Array(N);
  tasks.forEach((t, i) => {
    number[i] = t.number;
    status[i] = STATUS_CODE[t.status];
    role[i] = ROLE_CODE[t.role];
    priority[i] = PRIORITY_CODE[t.priority];
    epic[i] = t.epic ?? 0;
    mission[i] = t.mission ?? 0;
    if (t.claimedBy !== null && !nameAt.has(t.claimedBy)) nameAt.set(t.claimedBy, names.push(t.claimedBy));
    claimedBy[i] = t.claimedBy === null ? 0 : nameAt.get(t.claimedBy)!;
    depStart[i] = depValues.length;
    depValues.push(...t.dependencies);
    labelStart[i] = labelValues.length;
    for (const l of t.labels) {
      if (!labelAt.has(l)) labelAt.set(l, labelNames.push(l) - 1);
      labelValues.push(labelAt.get(l)!);
    }
    if (created) created[i] = createdKey(t.createdAt);
    if (created && Number.isNaN(created[i])) created = null;
  });
  depStart[N] = depValues.length;
  labelStart[N] = labelValues.length;
  return {
    count: N,
    number,
    status,
    role,
    priority,
    epic,
    mission,
    claimedBy,
    names,
    depStart,
    depValues,
    labelStart,
    labelValues,
    labelNames,
    created,
    task: (i) => tasks[i]!,
  };
}

/**
 * A timestamp in the form isoNow writes (`2026-11-22T06:29:01.123Z`) as a number ordering exactly
 * as the strings do; NaN for any other form. Not Date.parse: it rolls 30 February over into
 * March, which the strings do not, and checking by a round trip cost ~60 ms at 50,000. Each
 * field is fixed-width and within its range, so string order is this mixed-radix order.
 */
export function createdKey(s: string): number {
  if (s.length !== 24 || !ISO_MS.test(s)) return NaN;
  const f = (from: number, to: number) => Number(s.slice(from, to));
  const [month, day, hour, minute, second] = [f(5, 7), f(8, 10), f(11, 13), f(14, 16), f(17, 19)];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return NaN;
  return (((((f(0, 4) * 12 + month - 1) * 31 + day - 1) * 24 + hour) * 60 + minute) * 60 + second) * 1000 + f(20, 23);
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Each task's status code by number, for dependency questions: codes[n − shift], NO_TASK where
 * there is none. Numbers are nearly always exactly 1…N (positions are then numbers − 1 and the
 * status column serves as is); gaps get an array by number, and numbers spread far apart by
 * renumbering a Map.
 */
export interface StatusByNumber {
  readonly codes: ArrayLike<number>;
  readonly shift: number;
  readonly sparse: ReadonlyMap<number, number> | null;
}
export const NO_TASK = 255;

export function statusByNumber(cols: TaskColumns): StatusByNumber {
  const { count, number, status } = cols;
  const max = count > 0 ? number[count - 1]! : 0;
  // Ascending distinct numbers from 1 whose last is the count are exactly 1…count.
  if (max === count && (count === 0 || number[0] === 1)) return { codes: status, shift: 1, sparse: null };
  if (tooSparse(max, count)) {
    const sparse = new Map<number, number>();
    for (let i = 0; i < count; i++) sparse.set(number[i]!, status[i]!);
    return { codes: [], shift: 0, sparse };
  }
  const codes = new Uint8Array(max + 1).fill(NO_TASK);
  for (let i = 0; i < count; i++) codes[number[i]!] = status[i]!;
  return { codes, shift: 0, sparse: null };
}

/** The live claimant at position i (activeClaimant, from the columns), null for none. */
export function claimantAt(cols: TaskColumns, i: number): string | null {
  const k = cols.claimedBy[i]!;
  return k === 0 || !CLAIMED.has(cols.status[i]!) ? null : cols.names[k - 1]!;
}

/** The positions of the tasks with a live claim (activeClaimant), in number order. */
export function claimedPositions(cols: TaskColumns): number[] {
  const { count, claimedBy, status } = cols;
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (claimedBy[i] !== 0 && CLAIMED.has(status[i]!)) out.push(i);
  return out;
}

/** The positions `keep` accepts (every position without it). */
export function positions(cols: TaskColumns, keep?: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < cols.count; i++) if (!keep || keep(i)) out.push(i);
  return out;
}

/**
 * The positions whose tasks carry every one of `labels` (a filter's `--label`, all given), read
 * off the label columns: at 10,000 tasks a list by label builds only the page it shows.
 */
export function withLabels(cols: TaskColumns, labels: readonly string[]): (i: number) => boolean {
  const codes = labels.map((l) => cols.labelNames.indexOf(l));
  if (codes.some((c) => c < 0)) return () => false; // a label no task has
  const { labelStart, labelValues } = cols;
  return (i) => {
    const from = labelStart[i]!;
    const to = labelStart[i + 1]!;
    if (to - from < codes.length) return false;
    for (const c of codes) {
      let found = false;
      for (let k = from; k < to && !found; k++) found = labelValues[k] === c;
      if (!found) return false;
    }
    return true;
  };
}
