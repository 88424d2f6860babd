import type { TaskSummary } from "../../domain/schemas/task.js";
import { toTaskSummary } from "../../domain/task-summary.js";
import { CODES } from "./table-header.js";
import type { TaskTable } from "./task-table.js";

// A row's codes are positions in the lists its table was written under (table-header.ts).
const { status: STATUSES, role: ROLES, priority: PRIORITIES } = CODES;

/**
 * One task of a table: a TaskSummary whose fields are read from the columns when asked for,
 * and a cache row (`oid`, `value`). JSON.stringify sees a plain summary (toJSON).
 */
export class TaskRow implements TaskSummary {
  // Dependencies are walked again and again (blocking, readiness): decoded once per row.
  private deps: number[] | undefined;
  constructor(
    private readonly t: TaskTable,
    private readonly i: number,
  ) {}
  get number() {
    return this.t.n[this.i]!;
  }
  get title() {
    return this.t.text(this.i, 0);
  }
  get status() {
    return STATUSES[this.t.s[this.i]!]!;
  }
  get role() {
    return ROLES[this.t.r[this.i]!]!;
  }
  get priority() {
    return PRIORITIES[this.t.p[this.i]!]!;
  }
  get dependencies() {
    return (this.deps ??= this.t.deps(this.i));
  }
  get epic() {
    return this.t.e[this.i] || null;
  }
  get claimedBy() {
    return this.t.name(this.t.cl[this.i]!);
  }
  get mission() {
    return this.t.m[this.i] || null;
  }
  get completedBy() {
    return this.t.name(this.t.cb[this.i]!);
  }
  get createdAt() {
    return this.t.text(this.i, 1);
  }
  get updatedAt() {
    return this.t.text(this.i, 2);
  }
  get formerNumbers() {
    return this.t.formerNumbers(this.i);
  }
  get labels() {
    return this.t.labels(this.i);
  }
  get acceptance() {
    return this.t.acceptance(this.i);
  }
  get oid() {
    return this.t.oid(this.i);
  }
  get value(): TaskSummary {
    return this;
  }
  toJSON(): TaskSummary {
    return toTaskSummary(this);
  }
}
