import { CLOSE_OPS, dayOf, taskFacts, type TaskFacts } from "../../domain/history-charts.js";
import { emptyHistory, packFacts, packTouch, type HistoryArrays } from "./history-arrays.js";
import { idOf, keyGroup, numberedKey, OTHER, TASKS, taskNumbers, type Versions } from "./history-keys.js";
import { HistoryRows, type IndexedCommit } from "./history-rows.js";
import { walkFrom } from "./history-walk.js";

/**
 * The history index in memory, as it is brought to a tip (its answers: history-rows.ts).
 *
 * A run of commits on the indexed tip (every mutation; what the journal brings) is appended;
 * anything else (a sync merge, a rewind) lays the rows out again in their new order, and the
 * chart facts are folded again only for the task numbers whose rows moved or came in.
 */
export class HistoryTable extends HistoryRows {
  /** Read from a file in an earlier format, not yet written in the current one (history-index.ts). */
  legacy: boolean;

  constructor(base: HistoryArrays & { close?(): void }) {
    super(base);
    this.legacy = base.legacy === true;
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
        const key = g === OTHER ? this.base.other[i]! : numberedKey(g, keys[i]!);
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
