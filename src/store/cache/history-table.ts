import { CLOSE_OPS, dayOf, taskFacts, type HistoryFacts, type TaskFacts } from "../../domain/history-charts.js";
import { GROUPS, IN_MEMORY, type HistoryArrays } from "./history-file.js";
import { walkFrom } from "./history-walk.js";

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

const NUMBERED = ["tasks", "epics", "missions", "reviews"] as const;
const TASKS = 0;
const OTHER = GROUPS - 1;

/**
 * `tasks/7` → [0, 7]; anything else is a key of the `other` group, matched as written
 * (`tasks/007` is not `tasks/7` in a trailer: trailerNames matches the text).
 */
function keyGroup(key: string): [number, number] | null {
  const m = /^(tasks|epics|missions|reviews)\/([1-9]\d{0,14})$/.exec(key);
  return m ? [NUMBERED.indexOf(m[1] as (typeof NUMBERED)[number]), Number(m[2])] : null;
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

const emptyTouch = () => ({
  keys: new Float64Array(0),
  off: new Uint32Array(1),
  rows: new Int32Array(0),
  blobs: new Uint8Array(0),
  known: new Uint8Array(0),
});

/** A record's blob ids before and after a commit (null: absent), or undefined: not known. */
type Versions = [string | null, string | null] | undefined;
const ZERO = "0".repeat(40);
const idOf = (hex: string) => (hex === ZERO ? null : hex);

/** A table with no rows (nothing indexed yet). */
export function emptyHistory(): HistoryArrays {
  return {
    tip: "",
    count: 0,
    ops: [],
    other: [],
    days: [],
    oid: new Uint8Array(0),
    ct: new Float64Array(0),
    at: new Float64Array(0),
    op: new Uint32Array(0),
    po: new Uint32Array(1),
    pr: new Int32Array(0),
    touch: Array.from({ length: GROUPS }, emptyTouch),
    facts: {
      keys: new Float64Array(0),
      closedAt: new Float64Array(0),
      off: new Uint32Array(1),
      hours: new Float64Array(0),
    },
    ...IN_MEMORY,
  };
}

/**
 * The history index in memory: the rows of the saved file (history-file.ts) and the rows added
 * since, always in history order, oldest first, so a row's number is its place. Per record,
 * the rows that touched it; per task number, its chart facts; closings per day.
 *
 * A run of commits on the indexed tip (every mutation; what the journal brings) is appended;
 * anything else (a sync merge, a rewind) lays the rows out again in their new order, and the
 * chart facts are folded again only for the task numbers whose rows moved or came in.
 */
export class HistoryTable {
  private base: HistoryArrays & { close?(): void };
  private added: IndexedCommit[] = [];
  private addedParents: number[][] = [];
  private addedByOid = new Map<string, number>();
  /** Per key (`tasks/7`, `counters`), the added rows touching it. */
  private addedTouch = new Map<string, number[]>();
  private factsOver = new Map<number, TaskFacts>();
  private daysOver = new Map<string, number>();
  private tipOid: string;
  /** A row out of range in the file (a forged file whose checksums match): its answers are void. */
  private broken = false;
  /** Read from a file in an earlier format, not yet written in the current one (history-index.ts). */
  legacy: boolean;

  constructor(base: HistoryArrays & { close?(): void }) {
    this.base = base;
    this.tipOid = base.tip;
    this.legacy = base.legacy === true;
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

  private time(row: number): number {
    if (row >= this.base.count) return this.added[row - this.base.count]!.ctime;
    this.base.need("ct", row, row + 1);
    return this.base.ct[row]!;
  }

  private atime(row: number): number {
    if (row >= this.base.count) return this.added[row - this.base.count]!.atime;
    this.base.need("at", row, row + 1);
    return this.base.at[row]!;
  }

  private op(row: number): string {
    if (row >= this.base.count) return this.added[row - this.base.count]!.op;
    this.base.need("op", row, row + 1);
    const name = this.base.ops[this.base.op[row]!];
    if (name === undefined) this.broken = true;
    return name ?? "";
  }

  private parents(row: number): ArrayLike<number> {
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
  private needAll(): void {
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

  /**
   * Brings the table to `tip`, given the commits of its history the table lacks (in any
   * order). False when `tip` is neither given nor here. Parents found nowhere (a shallow
   * clone's cut) end the history there, as they end git's.
   */
  extend(tip: string, commits: readonly IndexedCommit[]): boolean {
    if (tip === this.tipOid && commits.length === 0) return true;
    const old = this.count;
    const ids = new Map<string, number>();
    commits.forEach((c, i) => {
      ids.set(c.oid, old + i);
    });
    const rowOf = (oid: string) => ids.get(oid) ?? this.findRow(oid);
    const tipRow = rowOf(tip);
    if (tipRow < 0) return false;
    const parents = commits.map((c) => c.parents.map(rowOf));
    // Only a run on the tip stops the walk at once; anything else may walk far into the file.
    if (parents.some((ps) => ps.some((p) => p >= 0 && p < old - 1)))
      for (const n of ["ct", "po", "pr"] as const) this.base.need(n);
    const walk = walkFrom(
      tipRow,
      {
        old,
        time: (r) => (r < old ? this.time(r) : commits[r - old]!.ctime),
        parents: (r) => (r < old ? this.parents(r) : parents[r - old]!),
      },
      old + commits.length,
    );
    const listed = walk.listed.slice().reverse();
    if (walk.k === 0) {
      // A run on the indexed tip (the common case): appended, oldest first.
      const place = new Map(listed.map((r, i) => [r, old + i]));
      for (const r of listed) {
        const ps = parents[r - old]!.map((p) => (p < old ? p : (place.get(p) ?? -1)));
        this.append(commits[r - old]!, ps);
      }
      this.refold(new Set(listed.flatMap((r) => taskNumbers(commits[r - old]!.keys))));
      this.tipOid = tip;
      return true;
    }
    const order = walk.k === null ? listed : [...Array.from({ length: old - walk.k }, (_, i) => i), ...listed];
    this.layOut(tip, order, commits, parents, walk.k === null);
    return true;
  }

  /** The table as the file keeps it: rows added since, and facts folded since, written in. */
  arrays(): HistoryArrays {
    if (this.added.length > 0 || this.factsOver.size > 0 || this.daysOver.size > 0)
      this.layOut(
        this.tipOid,
        Array.from({ length: this.count }, (_, i) => i),
        [],
        [],
        false,
      );
    return this.base;
  }

  private append(c: IndexedCommit, parents: number[]): void {
    const row = this.count;
    this.added.push(c);
    this.addedParents.push(parents);
    this.addedByOid.set(c.oid, row);
    for (const key of c.keys) {
      const list = this.addedTouch.get(key);
      if (list) list.push(row);
      else this.addedTouch.set(key, [row]);
    }
    const tasks = taskNumbers(c.keys).length;
    if (CLOSE_OPS.has(c.op) && tasks > 0) {
      const d = dayOf(c.atime * 1000);
      this.daysOver.set(d, (this.daysOver.get(d) ?? 0) + tasks);
    }
  }

  /** Folds each number's facts again from its rows, in order. */
  private refold(numbers: Iterable<number>): void {
    for (const n of numbers)
      this.factsOver.set(
        n,
        taskFacts(this.touching(`tasks/${n}`).map((r) => ({ op: this.op(r), at: this.atime(r) * 1000 }))),
      );
  }

  /** Every key with the rows touching it (file and added) and their versions, as `map(row)` places them; -1 drops a row. */
  private touchLists(map: (row: number) => number): Map<string, Array<[number, Versions]>> {
    const lists = new Map<string, Array<[number, Versions]>>();
    const add = (key: string, row: number, v: Versions) => {
      const to = map(row);
      if (to < 0) return;
      const list = lists.get(key);
      if (list) list.push([to, v]);
      else lists.set(key, [[to, v]]);
    };
    this.base.touch.forEach((t, g) => {
      const { keys, off, rows, known, blobs } = t; // views taken once: a file's are getters
      for (let i = 0; i < keys.length; i++) {
        const key = g === OTHER ? this.base.other[i]! : `${NUMBERED[g]}/${keys[i]}`;
        for (let j = off[i]!; j < off[i + 1]!; j++) {
          const hex = known[j] ? Buffer.from(blobs.buffer, blobs.byteOffset + j * 40, 40).toString("hex") : "";
          add(key, rows[j]!, hex ? [idOf(hex.slice(0, 40)), idOf(hex.slice(40))] : undefined);
        }
      }
    });
    for (const [key, rows] of this.addedTouch)
      for (const r of rows) add(key, r, this.added[r - this.base.count]!.blobs?.get(key));
    return lists;
  }

  /**
   * Lays the rows out in `order` (rows of this table, then `commits` as old + i), keeping only
   * those; folds facts again for the task numbers touched by rows that moved or came in, or for
   * every number (and recounts the days) when `refoldAll`.
   */
  private layOut(
    tip: string,
    order: readonly number[],
    commits: readonly IndexedCommit[],
    parents: readonly number[][],
    refoldAll: boolean,
  ): void {
    this.needAll();
    const old = this.count;
    const place = new Int32Array(old + commits.length).fill(-1);
    order.forEach((r, i) => {
      place[r] = i;
    });
    const C = order.length;
    const ops = new Map<string, number>();
    const oid = new Uint8Array(C * 20);
    const [ct, at, op] = [new Float64Array(C), new Float64Array(C), new Uint32Array(C)];
    const po = new Uint32Array(C + 1);
    const pr: number[] = [];
    let firstMoved = C;
    order.forEach((r, i) => {
      if (r !== i && firstMoved === C) firstMoved = i;
      const c = r < old ? null : commits[r - old]!;
      oid.set(Buffer.from(c ? c.oid : this.oid(r), "hex"), i * 20);
      ct[i] = c ? c.ctime : this.time(r);
      at[i] = c ? c.atime : this.atime(r);
      const name = c ? c.op : this.op(r);
      op[i] = ops.get(name) ?? ops.set(name, ops.size).get(name)!;
      const ps = c ? parents[r - old]! : this.parents(r);
      for (let j = 0; j < ps.length; j++) pr.push(ps[j]! < 0 ? -1 : place[ps[j]!]!);
      po[i + 1] = pr.length;
    });
    const lists = this.touchLists((r) => place[r]!);
    commits.forEach((c, i) => {
      const row = place[old + i]!;
      if (row < 0) return;
      for (const key of c.keys) {
        const entry: [number, Versions] = [row, c.blobs?.get(key)];
        const list = lists.get(key);
        if (list) list.push(entry);
        else lists.set(key, [entry]);
      }
    });
    // Which numbers to fold again: those touched by a row now at or after the first that moved.
    const refold = new Set<number>();
    for (const [key, rows] of lists) {
      rows.sort((a, b) => a[0] - b[0]);
      const g = keyGroup(key);
      if (g?.[0] === TASKS && (refoldAll || rows[rows.length - 1]![0] >= firstMoved)) refold.add(g[1]);
    }
    const kept = this.facts();
    const next = new HistoryTable({
      ...emptyHistory(),
      tip,
      count: C,
      ops: [...ops.keys()],
      oid,
      ct,
      at,
      op,
      po,
      pr: Int32Array.from(pr),
      ...packTouch(lists),
    });
    next.refold(refold);
    const facts = new Map<number, TaskFacts>(next.factsOver);
    if (!refoldAll)
      for (const n of [...this.base.facts.keys, ...this.factsOver.keys()]) {
        const f = kept.task(n);
        if (f && !refold.has(n)) facts.set(n, f);
      }
    const days = refoldAll ? new Map<string, number>() : new Map(kept.closedPerDay);
    const count = (name: string, atime: number, keys: number) => {
      if (!CLOSE_OPS.has(name) || keys === 0) return;
      const d = dayOf(atime * 1000);
      days.set(d, (days.get(d) ?? 0) + keys);
    };
    if (refoldAll) {
      const perRow = new Uint32Array(C);
      for (const [key, rows] of lists) if (keyGroup(key)?.[0] === TASKS) for (const [r] of rows) perRow[r]!++;
      for (let i = 0; i < C; i++) count(next.op(i), at[i]!, perRow[i]!);
    } else
      commits.forEach((c, i) => {
        if (place[old + i]! >= 0) count(c.op, c.atime, taskNumbers(c.keys).length);
      });
    if (this.bad) this.broken = true; // what was read from the file is void: so is what is made of it
    this.base.close?.();
    this.base = { ...next.base, days: [...days].sort((a, b) => (a[0] < b[0] ? -1 : 1)), facts: packFacts(facts) };
    this.added = [];
    this.addedParents = [];
    this.addedByOid = new Map();
    this.addedTouch = new Map();
    this.factsOver = new Map();
    this.daysOver = new Map();
    this.tipOid = tip;
  }
}

function taskNumbers(keys: readonly string[]): number[] {
  const out: number[] = [];
  for (const k of keys) {
    const g = keyGroup(k);
    if (g?.[0] === TASKS) out.push(g[1]);
  }
  return out;
}

type TouchList = Array<[number, Versions]>;

/** Per group, the keys in order with their rows and versions (offsets + values); other keys by name. */
function packTouch(lists: Map<string, TouchList>): Pick<HistoryArrays, "touch" | "other"> {
  const groups: Array<Array<[number, TouchList]>> = Array.from({ length: GROUPS - 1 }, () => []);
  const other: Array<[string, TouchList]> = [];
  for (const [key, rows] of lists) {
    const g = keyGroup(key);
    if (g) groups[g[0]]!.push([g[1], rows]);
    else other.push([key, rows]);
  }
  other.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const pack = (entries: Array<[number, TouchList]>) => {
    entries.sort((a, b) => a[0] - b[0]);
    const off = new Uint32Array(entries.length + 1);
    let total = 0;
    entries.forEach(([, rows], i) => {
      off[i + 1] = total += rows.length;
    });
    const rows = new Int32Array(total);
    const blobs = new Uint8Array(total * 40);
    const known = new Uint8Array(total);
    let j = 0;
    for (const [, list] of entries)
      for (const [row, v] of list) {
        rows[j] = row;
        if (v) {
          known[j] = 1;
          if (v[0]) blobs.set(Buffer.from(v[0], "hex"), j * 40);
          if (v[1]) blobs.set(Buffer.from(v[1], "hex"), j * 40 + 20);
        }
        j++;
      }
    return { keys: Float64Array.from(entries, (e) => e[0]), off, rows, blobs, known };
  };
  return {
    touch: [...groups.map(pack), pack(other.map(([, rows], i) => [i, rows]))],
    other: other.map(([k]) => k),
  };
}

function packFacts(facts: Map<number, TaskFacts>): HistoryArrays["facts"] {
  const list = [...facts].filter(([, f]) => f.closedAt !== null || f.cycles.length > 0).sort((a, b) => a[0] - b[0]);
  const off = new Uint32Array(list.length + 1);
  let total = 0;
  list.forEach(([, f], i) => {
    off[i + 1] = total += f.cycles.length;
  });
  const hours = new Float64Array(total);
  list.forEach(([, f], i) => {
    hours.set(f.cycles, off[i]!);
  });
  return {
    keys: Float64Array.from(list, ([n]) => n),
    closedAt: Float64Array.from(list, ([, f]) => f.closedAt ?? NaN),
    off,
    hours,
  };
}
