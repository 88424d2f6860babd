/**
 * The order of a history, as `git log` and the log walk (state/commit-log.ts) give it: from the
 * tip, the newest (committer time) of the commits seen so far, ties to the one seen first, over
 * all parents. Computed here over rows already in memory (the index's and the new commits'),
 * never by reading commit objects.
 *
 * Catching up from the indexed tip O to a new tip T, only the newest part changes. The walk from
 * T is simulated until it reaches a point where its queue holds a single commit X of O's history
 * and the O-commits it has listed are exactly the first k of O's order: from there on both walks
 * are the same (the same queue, and the same commits of O's history seen), so T's order is what
 * was simulated, then O's order from its (k+1)-th commit. A run of new commits on O (every
 * mutation) meets that point at O itself, k = 0; a sync merge meets it at or below the merge
 * base. When the point is never met (T does not contain O: a rewind or a rewritten ref), the
 * simulation has walked all of T's history, which is the answer.
 */
export interface WalkRows {
  /** Rows 0..old-1 are O's history, row r being the (old-1-r)-th commit of O's order; the rest are new. */
  old: number;
  time(row: number): number;
  parents(row: number): ArrayLike<number>;
}

export interface WalkResult {
  /** The rows T's walk listed before the point, newest first (with no point: all of T's history). */
  listed: number[];
  /** How many of O's rows are among them, or null when the point was never met. */
  k: number | null;
}

export function walkFrom(tip: number, rows: WalkRows, total: number): WalkResult {
  const seen = new Uint8Array(total);
  seen[tip] = 1;
  const queue: number[] = [tip];
  const listed: number[] = [];
  let oldListed = 0;
  let maxRank = -1;
  while (queue.length > 0) {
    // The log walk's own step: a stable sort, newest first, and the first taken.
    queue.sort((a, b) => rows.time(b) - rows.time(a));
    const head = queue[0]!;
    if (queue.length === 1 && head < rows.old && rows.old - 1 - head === oldListed && maxRank === oldListed - 1)
      return { listed, k: oldListed };
    queue.shift();
    listed.push(head);
    if (head < rows.old) {
      oldListed++;
      maxRank = Math.max(maxRank, rows.old - 1 - head);
    }
    const ps = rows.parents(head);
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]!;
      if (p < 0 || seen[p]) continue;
      seen[p] = 1;
      queue.push(p);
    }
  }
  return { listed, k: null };
}
