/** Dependencies of a task number, or undefined when the task is unknown. */
export type DependencyLookup = (n: number) => readonly number[] | undefined;

/**
 * Returns the path `from → … → target` if `target` is reachable from `from` by following
 * dependencies, else null. Adding the edge target → from closes a cycle exactly when it exists.
 */
export function findPath(from: number, target: number, deps: DependencyLookup): number[] | null {
  const parent = new Map<number, number>();
  const seen = new Set<number>([from]);
  const queue = [from];
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (n === target) {
      const path = [n];
      for (let p = parent.get(n); p !== undefined; p = parent.get(p)) path.unshift(p);
      return path;
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
 * (a workable order); ties keep the order in which dependencies were listed.
 */
export function transitiveDependencies(root: number, deps: DependencyLookup): number[] {
  const order: number[] = [];
  const state = new Map<number, "visiting" | "done">();
  const visit = (n: number): void => {
    if (state.get(n)) return; // "visiting" means a cycle from hand-edited state: stop, do not loop
    state.set(n, "visiting");
    for (const d of deps(n) ?? []) visit(d);
    state.set(n, "done");
    if (n !== root) order.push(n);
  };
  visit(root);
  return order;
}
