/** Dependencies of a task number, or undefined when the task is unknown. */
export type DependencyLookup = (n: number) => readonly number[] | undefined;

// Every walk here is iterative: a dependency chain can be 10,000 tasks deep (an import, a long
// migration plan), and a recursive walk overflows the stack at ~7,000.

/**
 * Returns the path `from → … → target` if `target` is reachable from `from` by following
 * dependencies, else null. Adding the edge target → from closes a cycle exactly when it exists.
 */
export function findPath(from: number, target: number, deps: DependencyLookup): number[] | null {
  const parent = new Map<number, number>();
  const seen = new Set<number>([from]);
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    if (n === target) {
      const path = [n];
      for (let p = parent.get(n); p !== undefined; p = parent.get(p)) path.push(p);
      return path.reverse();
    }
    for (const d of deps(n) ?? []) {
      if (!seen.has(d)) {
        seen.add(d);
        parent.set(d, n);
        queue.push(d);
      }
    }
  }
  return null;
}

/**
 * All transitive dependencies of `root`, ordered so each comes after its own dependencies
 * (a workable order); ties keep the order in which dependencies were listed. A depth-first
 * post-order walk with an explicit stack.
 */
export function transitiveDependencies(root: number, deps: DependencyLookup): number[] {
  const order: number[] = [];
  // "visiting" on the current path means a cycle from hand-edited state: stop, do not loop.
  const state = new Map<number, "visiting" | "done">([[root, "visiting"]]);
  const stack: Array<{ n: number; deps: readonly number[]; i: number }> = [{ n: root, deps: deps(root) ?? [], i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i < top.deps.length) {
      const d = top.deps[top.i++]!;
      if (state.has(d)) continue;
      state.set(d, "visiting");
      stack.push({ n: d, deps: deps(d) ?? [], i: 0 });
      continue;
    }
    stack.pop();
    state.set(top.n, "done");
    if (top.n !== root) order.push(top.n);
  }
  return order;
}

/** Past this many ids a path is shown as its first and last few and a count. */
const MAX_SHOWN = 12;
const END = 5;

/**
 * `A → B → C` for a dependency path or cycle, bounded: a cycle through 20,000 tasks is shown as
 * its first and last five ids around `… (19,990 more) …`, so an error stays one readable line.
 */
export function describePath(ids: readonly string[]): string {
  if (ids.length <= MAX_SHOWN) return ids.join(" → ");
  const hidden = ids.length - 2 * END;
  return [...ids.slice(0, END), `… (${hidden.toLocaleString("en-US")} more) …`, ...ids.slice(-END)].join(" → ");
}
