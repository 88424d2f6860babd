import type { TaskSummary } from "./schemas/task.js";
import type { TaskStatus } from "./task-status.js";
import type { TaskRole } from "./roles.js";

/** Tasks by number, as `Refs` holds them: a Map, or a TaskIndex over a list. */
export interface TaskMap {
  get(n: number): TaskSummary | undefined;
  has(n: number): boolean;
  set(n: number, t: TaskSummary): unknown;
  values(): IterableIterator<TaskSummary>;
  readonly size: number;
  /**
   * The tasks at positions offset… (at most limit) in number order, visiting no other task;
   * null when this map cannot tell without visiting them all (the caller then filters values()).
   */
  range?(offset: number, limit: number): TaskSummary[] | null;
  /** Every task's status, without building the tasks; null when this map cannot. */
  statuses?(): TaskStatus[] | null;
  /** The tasks of one role in number order, building no other task; null when this map cannot. */
  withRole?(role: TaskRole): TaskSummary[] | null;
}

/**
 * Tasks by number over a list in number order, without a Map entry per task: numbers are
 * nearly dense (1..N), so a typed array of positions is one allocation where a Map of 50,000
 * entries cost ~8 ms. Tasks added later (`set`) sit on top.
 */
export class TaskIndex implements TaskMap {
  private readonly pos: Int32Array;
  private added: Map<number, TaskSummary> | undefined;

  constructor(private readonly list: readonly TaskSummary[]) {
    const max = list.reduce((m, t) => Math.max(m, t.number), 0);
    // Sparse numbers (renumbered far apart) would waste the array: a Map serves them instead.
    if (max > 4 * list.length + 1024) {
      this.pos = new Int32Array(0);
      this.added = new Map(list.map((t) => [t.number, t]));
      this.list = [];
      return;
    }
    this.pos = new Int32Array(max + 1);
    list.forEach((t, i) => (this.pos[t.number] = i + 1));
  }

  get(n: number): TaskSummary | undefined {
    const extra = this.added?.get(n);
    if (extra) return extra;
    const i = Number.isInteger(n) && n >= 0 && n < this.pos.length ? this.pos[n]! : 0;
    return i === 0 ? undefined : this.list[i - 1];
  }

  has(n: number): boolean {
    return this.get(n) !== undefined;
  }

  set(n: number, t: TaskSummary): this {
    (this.added ??= new Map()).set(n, t);
    return this;
  }

  get size(): number {
    let size = this.list.length;
    for (const n of this.added?.keys() ?? []) if (!(n < this.pos.length && this.pos[n]! > 0)) size++;
    return size;
  }

  /** In number order. */
  values(): IterableIterator<TaskSummary> {
    if (!this.added || this.added.size === 0) return this.list.values();
    const byNumber = new Map(this.list.map((t) => [t.number, t]));
    for (const [n, t] of this.added) byNumber.set(n, t);
    return [...byNumber.values()].sort((a, b) => a.number - b.number).values();
  }
}
