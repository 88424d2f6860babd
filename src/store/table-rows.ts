import type { TaskSummary } from "../domain/schemas/task.js";
import type { Row, RowMap } from "./summary-cache.js";
import type { TaskTable } from "./task-table.js";

/**
 * The tasks' cache rows as a table loaded from disk plus the changes made since (by the
 * journal): at 50,000 tasks, building a Map of every row cost ~8 ms and sorting it out again
 * ~7 ms, for a read that then looks at a handful of rows. A lookup is a binary search over the
 * table's sorted numbers; iteration yields the table's rows with the changes applied.
 */
export class TableRows implements RowMap<TaskSummary> {
  constructor(
    private readonly table: TaskTable,
    /** Rows written since the table was saved; null marks a removed one. */
    private readonly changed = new Map<number, Row<TaskSummary> | null>(),
  ) {}

  private index(n: number): number {
    const ns = this.table.n;
    let lo = 0;
    let hi = ns.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (ns[mid]! < n) lo = mid + 1;
      else if (ns[mid]! > n) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  get size(): number {
    let size = this.table.count;
    for (const [n, row] of this.changed) {
      const inTable = this.index(n) >= 0;
      if (inTable && row === null) size--;
      else if (!inTable && row !== null) size++;
    }
    return size;
  }

  get(n: number): Row<TaskSummary> | undefined {
    if (this.changed.has(n)) return this.changed.get(n) ?? undefined;
    const i = this.index(n);
    return i < 0 ? undefined : this.table.row(i);
  }

  set(n: number, row: Row<TaskSummary>): this {
    this.changed.set(n, row);
    return this;
  }

  delete(n: number): boolean {
    const had = this.get(n) !== undefined;
    this.changed.set(n, null);
    return had;
  }

  *entries(): IterableIterator<[number, Row<TaskSummary>]> {
    const { table, changed } = this;
    for (let i = 0; i < table.count; i++) {
      const n = table.n[i]!;
      if (!changed.has(n)) yield [n, table.row(i)];
      else if (changed.get(n)) yield [n, changed.get(n)!];
    }
    for (const [n, row] of changed) if (row && this.index(n) < 0) yield [n, row];
  }

  [Symbol.iterator](): IterableIterator<[number, Row<TaskSummary>]> {
    return this.entries();
  }

  /** Every summary in number order, built in one pass over the table (the hot path of every list). */
  ordered(): TaskSummary[] {
    const { table, changed } = this;
    const out: TaskSummary[] = [];
    for (let i = 0; i < table.count; i++) {
      const n = table.n[i]!;
      if (!changed.has(n)) out.push(table.row(i));
      else if (changed.get(n)) out.push(changed.get(n)!.value);
    }
    const added = [...changed].filter(([n, row]) => row !== null && this.index(n) < 0).sort((a, b) => a[0] - b[0]);
    // New tasks take the next numbers, so they nearly always go at the end.
    if (added.length > 0 && out.length > 0 && added[0]![0] < out[out.length - 1]!.number) {
      return [...out, ...added.map(([, r]) => r!.value)].sort((a, b) => a.number - b.number);
    }
    for (const [, row] of added) out.push(row!.value);
    return out;
  }

  copy(): TableRows {
    return new TableRows(this.table, new Map(this.changed));
  }
}
