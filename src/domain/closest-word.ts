/** Edit distance (insert, delete, substitute, swap two neighbours): `dashbaord` is 1 from `dashboard`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate closest to `word`, when it is close enough to be what was meant; else null. */
export function closestWord(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  let best: { c: string; d: number } | null = null;
  for (const c of candidates) {
    const d = distance(w, c.toLowerCase());
    if (!best || d < best.d) best = { c, d };
  }
  return best && best.d <= Math.max(1, Math.floor(w.length / 3)) ? best.c : null;
}
