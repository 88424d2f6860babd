import type { TaskSummary } from "../domain/schemas/task.js";
import { createdKey, PRIORITY_CODE, ROLE_CODE, STATUS_CODE, type TaskColumns } from "../domain/task-columns.js";
import type { TaskTable } from "./task-table.js";

/**
 * The tasks' table as columns (`TaskColumns`), with the journal's changes on top: positions
 * 0…count−1 are the table's rows, a changed row answering from its new summary, then the tasks
 * added past the table's last number. Unchanged, the columns are the table's own typed arrays;
 * changed, they are copies (a memcpy each) patched at the few changed positions. The caller
 * (TableRows.columns) declines when a change removed a task or slotted one between the table's
 * numbers.
 */
export function tableColumns(t: TaskTable, changed: ReadonlyMap<number, TaskSummary>, added: readonly TaskSummary[]): TaskColumns {
  const N0 = t.count;
  const task = (i: number): TaskSummary => (i >= N0 ? added[i - N0]! : (changed.get(i) ?? t.row(i)));
  if (changed.size === 0 && added.length === 0) {
    return { count: N0, number: t.n, status: t.s, role: t.r, priority: t.p, epic: t.e, mission: t.m, claimedBy: t.cl, names: t.names, depStart: t.do, depValues: t.dv, created: t.created, task };
  }
  const N = N0 + added.length;
  // Float64 for numbers: a newer writer's numbers need not fit the table's 32 bits.
  const [number, epic, mission] = [widen(t.n, N), widen(t.e, N), widen(t.m, N)];
  const [status, role, priority] = [grow(t.s, N), grow(t.r, N), grow(t.p, N)];
  let created = t.created ? new Float64Array(N) : null;
  created?.set(t.created!);
  const claimedBy = new Uint32Array(N);
  claimedBy.set(t.cl);
  const names = [...t.names];
  const nameCode = (name: string | null) => {
    if (name === null) return 0;
    const k = names.indexOf(name);
    return k >= 0 ? k + 1 : names.push(name);
  };
  const patch = (i: number, s: TaskSummary) => {
    number[i] = s.number;
    status[i] = STATUS_CODE[s.status];
    role[i] = ROLE_CODE[s.role];
    priority[i] = PRIORITY_CODE[s.priority];
    epic[i] = s.epic ?? 0;
    mission[i] = s.mission ?? 0;
    claimedBy[i] = nameCode(s.claimedBy);
    if (created) created[i] = createdKey(s.createdAt);
    if (created && Number.isNaN(created[i])) created = null;
  };
  for (const [i, s] of changed) patch(i, s);
  added.forEach((s, k) => patch(N0 + k, s));
  return { count: N, number, status, role, priority, epic, mission, claimedBy, names, ...dependencies(t, changed, added), created, task };
}

function widen(a: Uint32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  out.set(a);
  return out;
}

function grow(a: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  out.set(a);
  return out;
}

/**
 * The dependency lists with the changes: nearly always a change leaves a task's dependencies as
 * they were (a claim, a note, a status), so the table's lists are copied and the added tasks'
 * appended; only a changed list rebuilds them all.
 */
function dependencies(t: TaskTable, changed: ReadonlyMap<number, TaskSummary>, added: readonly TaskSummary[]): { depStart: Uint32Array; depValues: Float64Array } {
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
