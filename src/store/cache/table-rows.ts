import type { TaskSummary } from "../../domain/schemas/task.js";
import { OverlaidTaskMap } from "../../domain/task-index.js";
import type { TaskColumns } from "../../domain/task-columns.js";
import type { Row, RowMap } from "./summary-cache.js";
import { tableColumns } from "./table-columns.js";
import type { TaskTable } from "./task-table.js";

/**
 * The tasks' cache rows as a table loaded from disk plus the changes made since (by the
 * journal): at 50,000 tasks, building a Map of every row cost ~8 ms and sorting it out again
 * ~7 ms, for a read that then looks at a handful of rows. A lookup is a binary search over the
 * table's sorted numbers; iteration yields the table's rows with the changes applied, and
 * questions over every task read its columns.
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

  /**
   * The rows as columns (what every question over all tasks reads); null when a change removed a
   * row or slotted one between the table's numbers (rare: a renumbering sync), where callers
   * read the ordered rows instead.
   */
  columns(): TaskColumns | null {
    const { table } = this;
    const last = table.count > 0 ? table.n[table.count - 1]! : 0;
    const byPosition = new Map<number, TaskSummary>();
    const added: TaskSummary[] = [];
    for (const [n, row] of this.changed) {
      const i = this.index(n);
      if (row === null) {
        if (i >= 0) return null;
      } else if (i >= 0) byPosition.set(i, row.value);
      else if (n > last) added.push(row.value);
      else return null;
    }
    return tableColumns(
      table,
      byPosition,
      added.sort((a, b) => a.number - b.number),
    );
  }

  copy(): TableRows {
    return new TableRows(this.table, new Map(this.changed));
  }
}

/**
 * Task summaries by number over a kind's cache rows (`TaskMap`): a lookup reads one row, a
 * question over every task reads the columns; only values() builds every task. Tasks set later
 * sit on top.
 */
export class RowsTaskMap extends OverlaidTaskMap {
  constructor(
    private readonly rows: RowMap<TaskSummary>,
    /** Every summary in number order (the snapshot's own ordering of the rows). */
    private readonly all: () => TaskSummary[],
  ) {
    super();
  }

  protected baseGet(n: number): TaskSummary | undefined {
    return this.rows.get(n)?.value;
  }

  protected baseSize(): number {
    return this.rows.size;
  }

  protected baseValues(): readonly TaskSummary[] {
    return this.all();
  }

  columns(): TaskColumns | null {
    if (this.overlaid) return null;
    return this.rows instanceof TableRows ? this.rows.columns() : null;
  }
}
