import type { TaskSummary } from "./schemas/task.js";
import type { TaskColumns } from "./task-columns.js";

/** Tasks by number, as `Refs` holds them: a Map, or a TaskIndex over a list. */
export interface TaskMap {
  get(n: number): TaskSummary | undefined;
  has(n: number): boolean;
  set(n: number, t: TaskSummary): unknown;
  values(): IterableIterator<TaskSummary>;
  readonly size: number;
  /** Every task as columns, building none (the read cache's table); null when this map cannot. */
  columns?(): TaskColumns | null;
}

/**
 * What every task map shares: tasks set later (`set`: a review's task, one just created) sit on
 * top of a base that a subclass looks up, counts and lists in number order.
 */
export abstract class OverlaidTaskMap implements TaskMap {
  private added: Map<number, TaskSummary> | undefined;

  protected abstract baseGet(n: number): TaskSummary | undefined;
  protected abstract baseSize(): number;
  /** Every base task in number order. */
  protected abstract baseValues(): readonly TaskSummary[];

  /** Whether tasks were set on top: a subclass's shortcuts over its base then no longer hold. */
  protected get overlaid(): boolean {
    return this.added !== undefined && this.added.size > 0;
  }

  get(n: number): TaskSummary | undefined {
    return this.added?.get(n) ?? this.baseGet(n);
  }

  has(n: number): boolean {
    return this.get(n) !== undefined;
  }

  set(n: number, t: TaskSummary): this {
    (this.added ??= new Map()).set(n, t);
    return this;
  }

  get size(): number {
    let size = this.baseSize();
    for (const n of this.added?.keys() ?? []) if (!this.baseGet(n)) size++;
    return size;
  }

  /** In number order. */
  values(): IterableIterator<TaskSummary> {
    const base = this.baseValues();
    if (!this.added || this.added.size === 0) return base.values();
    const byNumber = new Map(base.map((t) => [t.number, t]));
    for (const [n, t] of this.added) byNumber.set(n, t);
    return [...byNumber.values()].sort((a, b) => a.number - b.number).values();
  }
}

/**
 * Whether numbers up to `max` over `count` tasks are too far apart (renumbered) for an array
 * indexed by number: it would mostly be empty, and a Map serves them instead.
 */
export function tooSparse(max: number, count: number): boolean {
  return max > 4 * count + 1024;
}

/**
 * Tasks by number over a list in number order, without a Map entry per task: numbers are
 * nearly dense (1..N), so a typed array of positions is one allocation where a Map of 50,000
 * entries cost ~8 ms.
 */
export class TaskIndex extends OverlaidTaskMap {
  private readonly pos: Int32Array;
  /** When tooSparse. */
  private readonly sparse: Map<number, TaskSummary> | undefined;

  constructor(private readonly list: readonly TaskSummary[]) {
    super();
    const max = list.reduce((m, t) => Math.max(m, t.number), 0);
    if (tooSparse(max, list.length)) {
      this.pos = new Int32Array(0);
      this.sparse = new Map(list.map((t) => [t.number, t]));
      return;
    }
    this.pos = new Int32Array(max + 1);
    list.forEach((t, i) => {
      this.pos[t.number] = i + 1;
    });
  }

  protected baseGet(n: number): TaskSummary | undefined {
    if (this.sparse) return this.sparse.get(n);
    const i = Number.isInteger(n) && n >= 0 && n < this.pos.length ? this.pos[n]! : 0;
    return i === 0 ? undefined : this.list[i - 1];
  }

  protected baseSize(): number {
    return this.list.length;
  }

  protected baseValues(): readonly TaskSummary[] {
    return this.list;
  }
}
