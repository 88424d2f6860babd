import type { TaskSummary } from "../../domain/schemas/task.js";
import { createdKey, PRIORITY_CODE, ROLE_CODE, STATUS_CODE, type TaskColumns } from "../../domain/task-columns.js";
import type { TaskTable } from "./task-table.js";

/**
 * The tasks' table as columns (`TaskColumns`), with the journal's changes on top: positions
 * 0…count−1 are the table's rows, a changed row answering from its new summary, then the tasks
 * added past the table's last number. Unchanged, the columns are the table's own typed arrays;
 * changed, each is a copy (a memcpy) patched at the few changed positions, made when first read
 * (a page of `task list` reads none). The caller (TableRows.columns) declines when a change
 * removed a task or slotted one between the table's numbers.
 */
export function tableColumns(
  t: TaskTable,
  changed: ReadonlyMap<number, TaskSummary>,
  added: readonly TaskSummary[],
): TaskColumns {
  if (changed.size === 0 && added.length === 0) {
    const task = (i: number): TaskSummary => t.row(i);
    return {
      count: t.count,
      number: t.n,
      status: t.s,
      role: t.r,
      priority: t.p,
      epic: t.e,
      mission: t.m,
      claimedBy: t.cl,
      names: t.names,
      depStart: t.do,
      depValues: t.dv,
      labelStart: t.lo,
      labelValues: t.lv,
      labelNames: t.labelNames,
      created: t.created,
      task,
    };
  }
  return new PatchedColumns(t, changed, added);
}

class PatchedColumns implements TaskColumns {
  readonly count: number;
  /** Position → summary for every changed or added row. */
  private readonly patches: ReadonlyArray<readonly [number, TaskSummary]>;
  private readonly made = new Map<string, unknown>();

  constructor(
    private readonly t: TaskTable,
    private readonly changed: ReadonlyMap<number, TaskSummary>,
    private readonly added: readonly TaskSummary[],
  ) {
    this.count = t.count + added.length;
    this.patches = [...changed, ...added.map((s, k) => [t.count + k, s] as const)];
  }

  task(i: number): TaskSummary {
    return i >= this.t.count ? this.added[i - this.t.count]! : (this.changed.get(i) ?? this.t.row(i));
  }

  private column<A>(key: string, make: () => A): A {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key) as A;
  }

  /** The table's column copied to `count` entries, each patch's value written at its position. */
  private patched<A extends Float64Array | Uint8Array>(
    key: string,
    from: Uint32Array | Uint8Array,
    make: (n: number) => A,
    value: (s: TaskSummary) => number,
  ): A {
    return this.column(key, () => {
      const out = make(this.count);
      out.set(from);
      for (const [i, s] of this.patches) out[i] = value(s);
      return out;
    });
  }

  // Float64 for numbers: a newer writer's numbers need not fit the table's 32 bits.
  get number() {
    return this.patched(
      "number",
      this.t.n,
      (n) => new Float64Array(n),
      (s) => s.number,
    );
  }
  get status() {
    return this.patched(
      "status",
      this.t.s,
      (n) => new Uint8Array(n),
      (s) => STATUS_CODE[s.status],
    );
  }
  get role() {
    return this.patched(
      "role",
      this.t.r,
      (n) => new Uint8Array(n),
      (s) => ROLE_CODE[s.role],
    );
  }
  get priority() {
    return this.patched(
      "priority",
      this.t.p,
      (n) => new Uint8Array(n),
      (s) => PRIORITY_CODE[s.priority],
    );
  }
  get epic() {
    return this.patched(
      "epic",
      this.t.e,
      (n) => new Float64Array(n),
      (s) => s.epic ?? 0,
    );
  }
  get mission() {
    return this.patched(
      "mission",
      this.t.m,
      (n) => new Float64Array(n),
      (s) => s.mission ?? 0,
    );
  }
  get claimedBy() {
    return this.claimants().claimedBy;
  }
  get names() {
    return this.claimants().names;
  }
  get depStart() {
    return this.dependencies().depStart;
  }
  get depValues() {
    return this.dependencies().depValues;
  }
  get labelStart() {
    return this.labels().labelStart;
  }
  get labelValues() {
    return this.labels().labelValues;
  }
  get labelNames() {
    return this.labels().labelNames;
  }

  get created(): Float64Array | null {
    const { t, patches } = this;
    return this.column("created", () => {
      if (!t.created) return null;
      const out = new Float64Array(this.count);
      out.set(t.created);
      for (const [i, s] of patches) out[i] = createdKey(s.createdAt);
      return patches.some(([i]) => Number.isNaN(out[i])) ? null : out;
    });
  }

  /** Claimants are indexes into names: a changed row may name someone the table does not. */
  private claimants(): { claimedBy: Uint32Array; names: string[] } {
    return this.column("claimants", () => {
      const names = [...this.t.names];
      const claimedBy = new Uint32Array(this.count);
      claimedBy.set(this.t.cl);
      for (const [i, s] of this.patches) {
        const k = s.claimedBy === null ? -1 : names.indexOf(s.claimedBy);
        claimedBy[i] = s.claimedBy === null ? 0 : k >= 0 ? k + 1 : names.push(s.claimedBy);
      }
      return { claimedBy, names };
    });
  }

  private dependencies(): { depStart: Uint32Array; depValues: Float64Array } {
    return this.column("dependencies", () => dependencies(this.t, this.changed, this.added));
  }

  private labels(): { labelStart: Uint32Array; labelValues: Uint32Array; labelNames: readonly string[] } {
    return this.column("labels", () => labels(this.t, this.changed, this.added));
  }
}

/**
 * The label lists with the changes, as dependencies() does: a change that left a task's labels
 * as they were shares the table's lists (the added tasks' appended); a changed list, or a label
 * the table never had, rebuilds them.
 */
function labels(
  t: TaskTable,
  changed: ReadonlyMap<number, TaskSummary>,
  added: readonly TaskSummary[],
): { labelStart: Uint32Array; labelValues: Uint32Array; labelNames: readonly string[] } {
  const N0 = t.count;
  const names = [...t.labelNames];
  const code = new Map(names.map((l, k) => [l, k]));
  const codeOf = (l: string) => code.get(l) ?? code.set(l, names.push(l) - 1).get(l)!;
  const same = [...changed].every(([i, s]) => {
    const now = t.labels(i);
    return s.labels.length === now.length && s.labels.every((l, k) => l === now[k]);
  });
  const labelStart = new Uint32Array(N0 + added.length + 1);
  const values: number[] = [];
  if (same) labelStart.set(t.lo);
  else {
    for (let i = 0; i < N0; i++) {
      labelStart[i] = values.length;
      const own = changed.get(i);
      if (own) for (const l of own.labels) values.push(codeOf(l));
      else for (let k = t.lo[i]!; k < t.lo[i + 1]!; k++) values.push(t.lv[k]!);
    }
  }
  const base = same ? t.lv.length : 0;
  added.forEach((s, k) => {
    labelStart[N0 + k] = base + values.length;
    for (const l of s.labels) values.push(codeOf(l));
  });
  labelStart[N0 + added.length] = base + values.length;
  const labelValues = new Uint32Array(base + values.length);
  if (same) labelValues.set(t.lv);
  labelValues.set(values, base);
  return { labelStart, labelValues, labelNames: names };
}

/**
 * The dependency lists with the changes: nearly always a change leaves a task's dependencies as
 * they were (a claim, a note, a status), so the table's lists are copied and the added tasks'
 * appended; only a changed list rebuilds them all.
 */
function dependencies(
  t: TaskTable,
  changed: ReadonlyMap<number, TaskSummary>,
  added: readonly TaskSummary[],
): { depStart: Uint32Array; depValues: Float64Array } {
  const N0 = t.count;
  const depStart = new Uint32Array(N0 + added.length + 1);
  const same = [...changed].every(([i, s]) => {
    const d = s.dependencies;
    return d.length === t.do[i + 1]! - t.do[i]! && d.every((n, k) => n === t.dv[t.do[i]! + k]);
  });
  const values: number[] = [];
  if (same) {
    depStart.set(t.do);
  } else {
    for (let i = 0; i < N0; i++) {
      depStart[i] = values.length;
      const own = changed.get(i);
      if (own) values.push(...own.dependencies);
      else for (let k = t.do[i]!; k < t.do[i + 1]!; k++) values.push(t.dv[k]!);
    }
  }
  const base = same ? t.dv.length : 0;
  added.forEach((s, k) => {
    depStart[N0 + k] = base + values.length;
    values.push(...s.dependencies);
  });
  depStart[N0 + added.length] = base + values.length;
  const depValues = new Float64Array(base + values.length);
  if (same) depValues.set(t.dv);
  depValues.set(values, base);
  return { depStart, depValues };
}
