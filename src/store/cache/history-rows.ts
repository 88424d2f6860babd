import type { HistoryFacts, TaskFacts } from "../../domain/history-charts.js";
import { GROUPS, idOf, keyGroup, OTHER, type Versions } from "./history-keys.js";
import type { HistoryArrays } from "./history-arrays.js";

/** A commit as the index takes it in: from the journal's line or from git's listing. */
export interface IndexedCommit {
  oid: string;
  parents: string[];
  /** Committer time (seconds): the walk's order. */
  ctime: number;
  /** Author time (seconds): the date the log and the charts show. */
  atime: number;
  op: string;
  /** The records it touched (`tasks/7`, `counters`): its trailer's, or a merge's first-parent diff. */
  keys: string[];
  /** Per touched key, where known: its blob at the first parent and at the commit (null: absent). */
  blobs?: Map<string, [string | null, string | null]>;
}

/** Binary search of sorted keys; `need(i)` makes key i readable first (a file's blocks load as probed). */
function search(keys: Float64Array, k: number, need: (i: number) => void = () => {}): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    need(mid);
    const v = keys[mid]!;
    if (v === k) return mid;
    if (v < k) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The history index in memory, as it answers: the rows of the saved file (history-file.ts) and
 * the rows added since, always in history order, oldest first, so a row's number is its place.
 * Per record, the rows that touched it; per task number, its chart facts; closings per day.
 * How rows come in and are laid out again is HistoryTable's (history-table.ts).
 */
export abstract class HistoryRows {
  protected base: HistoryArrays & { close?(): void };
  protected added: IndexedCommit[] = [];
  protected addedParents: number[][] = [];
  protected addedByOid = new Map<string, number>();
  /** Per key (`tasks/7`, `counters`), the added rows touching it. */
  protected addedTouch = new Map<string, number[]>();
  protected factsOver = new Map<number, TaskFacts>();
  protected daysOver = new Map<string, number>();
  protected tipOid: string;
  /** A row out of range in the file (a forged file whose checksums match): its answers are void. */
  protected broken = false;

  constructor(base: HistoryArrays & { close?(): void }) {
    this.base = base;
    this.tipOid = base.tip;
  }

  /** Whether an answer given since the file was read rests on a damaged file: the index is then rebuilt. */
  get bad(): boolean {
    return this.broken || this.base.bad;
  }

  get tip(): string {
    return this.tipOid;
  }

  get count(): number {
    return this.base.count + this.added.length;
  }

  /** Rows added since the file was read or written. */
  get unsaved(): number {
    return this.added.length;
  }

  oid(row: number): string {
    const b = this.base;
    if (row >= b.count) return this.added[row - b.count]!.oid;
    b.need("oid", row * 20, row * 20 + 20);
    return Buffer.from(b.oid.buffer, b.oid.byteOffset + row * 20, 20).toString("hex");
  }

  protected time(row: number): number {
    if (row >= this.base.count) return this.added[row - this.base.count]!.ctime;
    this.base.need("ct", row, row + 1);
    return this.base.ct[row]!;
  }

  protected atime(row: number): number {
    if (row >= this.base.count) return this.added[row - this.base.count]!.atime;
    this.base.need("at", row, row + 1);
    return this.base.at[row]!;
  }

  protected op(row: number): string {
    if (row >= this.base.count) return this.added[row - this.base.count]!.op;
    this.base.need("op", row, row + 1);
    const name = this.base.ops[this.base.op[row]!];
    if (name === undefined) this.broken = true;
    return name ?? "";
  }

  protected parents(row: number): ArrayLike<number> {
    const b = this.base;
    if (row >= b.count) return this.addedParents[row - b.count]!;
    b.need("po", row, row + 2);
    const [from, to] = [b.po[row]!, b.po[row + 1]!];
    b.need("pr", from, to);
    const ps = b.pr.subarray(from, to);
    // Rows point back only at rows of the file (-1: a parent not indexed).
    if (ps.some((p) => p < -1 || p >= b.count)) {
      this.broken = true;
      return [];
    }
    return ps;
  }

  /** Every section of the file read (a walk over all rows, a new layout, a save). */
  protected needAll(): void {
    const b = this.base;
    for (const name of ["oid", "ct", "at", "op", "po", "pr", "fk", "fc", "fo", "fh"] as const) b.need(name);
    for (let g = 0; g < GROUPS; g++) for (const s of ["k", "o", "r", "b", "v"] as const) b.need(`${s}${g}`);
  }

  /** The row of a commit, or -1: a search of the ids' bytes (only a catch-up from git asks). */
  findRow(oid: string): number {
    if (oid === this.tipOid) return this.count - 1; // the newest row: no search
    const added = this.addedByOid.get(oid);
    if (added !== undefined) return added;
    const want = Buffer.from(oid, "hex");
    if (want.length !== 20) return -1;
    const b = this.base;
    b.need("oid");
    const bytes = Buffer.from(b.oid.buffer, b.oid.byteOffset, b.oid.byteLength);
    for (let at = bytes.indexOf(want); at >= 0; at = bytes.indexOf(want, at + 1)) if (at % 20 === 0) return at / 20;
    return -1;
  }

  /** The rows that touched `key` (`tasks/7`), oldest first. */
  touching(key: string): number[] {
    return this.touches(key, false).map(([r]) => r);
  }

  /** The rows that touched `key`, oldest first, each with the record's blob ids before and after it where known. */
  touches(key: string, versions = true): Array<[number, Versions]> {
    const out: Array<[number, Versions]> = [];
    const g = keyGroup(key);
    const group = g ? g[0] : OTHER;
    const b = this.base;
    const t = b.touch[group]!;
    const i = g ? search(t.keys, g[1], (j) => b.need(`k${group}`, j, j + 1)) : b.other.indexOf(key);
    if (i >= 0) {
      b.need(`o${group}`, i, i + 2);
      const [from, to] = [t.off[i]!, t.off[i + 1]!];
      b.need(`r${group}`, from, to);
      if (versions) {
        b.need(`v${group}`, from, to);
        b.need(`b${group}`, from * 40, to * 40);
      }
      const { rows, known, blobs } = t;
      for (let j = from; j < to; j++) {
        const r = rows[j]!;
        if (r < 0 || r >= b.count || (out.length > 0 && r <= out[out.length - 1]![0])) {
          this.broken = true;
          continue;
        }
        const hex =
          versions && known[j] ? Buffer.from(blobs.buffer, blobs.byteOffset + j * 40, 40).toString("hex") : "";
        out.push([r, hex ? [idOf(hex.slice(0, 40)), idOf(hex.slice(40))] : undefined]);
      }
    }
    for (const r of this.addedTouch.get(key) ?? [])
      out.push([r, versions ? this.added[r - b.count]!.blobs?.get(key) : undefined]);
    return out;
  }

  /** What the charts read: closings per day, and each task number's facts. */
  facts(): HistoryFacts {
    const closedPerDay = new Map(this.base.days);
    for (const [d, n] of this.daysOver) closedPerDay.set(d, (closedPerDay.get(d) ?? 0) + n);
    for (const name of ["fk", "fc", "fo", "fh"] as const) this.base.need(name);
    // Taken now: a long-lived process may bring the table further while the answer is used.
    const { keys, closedAt: closed, off, hours } = this.base.facts; // views taken once: a file's are getters
    const f = { keys, closedAt: closed, off, hours };
    const folded = new Map(this.factsOver);
    const at = (i: number): TaskFacts => {
      const closedAt = f.closedAt[i]!;
      return { closedAt: Number.isNaN(closedAt) ? null : closedAt, cycles: f.hours.subarray(f.off[i]!, f.off[i + 1]!) };
    };
    return {
      closedPerDay,
      task: (n) => {
        const over = folded.get(n);
        if (over) return over;
        const i = search(f.keys, n);
        return i < 0 ? undefined : at(i);
      },
      eachCycles: (fn) => {
        // The file's numbers and those folded since (which win), merged in ascending order.
        const extra = [...folded.keys()].filter((n) => search(f.keys, n) < 0).sort((a, b) => a - b);
        const mine = (n: number) => {
          const c = folded.get(n)!.cycles;
          fn(n, c, 0, c.length);
        };
        let j = 0;
        for (let i = 0; i < f.keys.length; i++) {
          const n = f.keys[i]!;
          for (; j < extra.length && extra[j]! < n; j++) mine(extra[j]!);
          if (folded.has(n)) mine(n);
          else fn(n, f.hours, f.off[i]!, f.off[i + 1]!);
        }
        for (; j < extra.length; j++) mine(extra[j]!);
      },
    };
  }
}
