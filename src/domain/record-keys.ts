/**
 * The numbers of one kind that a `Pantheon-Records:` trailer names (`tasks/7, tasks/9-12`),
 * ranges expanded: the reading side of store/state/records-trailer.ts's format.
 */
export function recordNumbers(values: readonly string[], kind: string): number[] {
  const out: number[] = [];
  for (const item of values.flatMap((v) => v.split(","))) {
    const m = /^(\w+)\/(\d+)(?:-(\d+))?$/.exec(item.trim());
    if (!m || m[1] !== kind) continue;
    const [from, to] = [Number(m[2]), Number(m[3] ?? m[2])];
    for (let n = from; n <= to; n++) out.push(n);
  }
  return out;
}
