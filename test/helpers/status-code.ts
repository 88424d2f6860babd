import { NO_TASK, type StatusByNumber } from "../../src/domain/task-columns.js";

/** What blockedFlags reads of a status index for one number (it does so inline, without a call). */
export function statusCodeOf(ix: StatusByNumber, n: number): number {
  return ix.sparse ? (ix.sparse.get(n) ?? NO_TASK) : (ix.codes[n - ix.shift] ?? NO_TASK);
}
