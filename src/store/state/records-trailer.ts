/**
 * The `Pantheon-Records:` trailer names what a commit changed: `counters, tasks/7, tasks/9-12`.
 * Runs of consecutive numbers are written as ranges, so a 10,000-task import stays one line.
 */
export function formatRecordKeys(keys: Iterable<string>): string {
  const byKind = new Map<string, number[]>();
  const plain = new Set<string>();
  for (const key of keys) {
    const m = /^(tasks|epics|missions|reviews)\/(\d+)$/.exec(key);
    if (!m) plain.add(key);
    else {
      // Pushed in place: copying the list per key made a 50,000-task import spend 22 s here.
      const list = byKind.get(m[1]!);
      if (list) list.push(Number(m[2]));
      else byKind.set(m[1]!, [Number(m[2])]);
    }
  }
  const out = [...plain].sort();
  for (const kind of [...byKind.keys()].sort()) {
    const nums = [...new Set(byKind.get(kind))].sort((a, b) => a - b);
    for (let i = 0; i < nums.length; ) {
      let j = i;
      while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
      out.push(j - i >= 2 ? `${kind}/${nums[i]}-${nums[j]}` : `${kind}/${nums[i]}`);
      if (j - i === 1) out.push(`${kind}/${nums[j]}`);
      i = j + 1;
    }
  }
  return out.join(", ");
}

/** Whether a trailer value names a record key such as `tasks/7` (ranges included). */
export function trailerNames(values: readonly string[], key: string): boolean {
  const m = /^(\w+)\/(\d+)$/.exec(key);
  for (const item of values.flatMap((v) => v.split(","))) {
    const s = item.trim();
    if (s === key) return true;
    const r = m && /^(\w+)\/(\d+)-(\d+)$/.exec(s);
    if (r && r[1] === m[1] && Number(r[2]) <= Number(m[2]) && Number(m[2]) <= Number(r[3])) return true;
  }
  return false;
}

/** A trailer naming more records than this is cut there (a hostile `tasks/1-4000000000`). */
export const MAX_TRAILER_KEYS = 200_000;

/**
 * Every record key a `Pantheon-Records:` trailer names, as trailerNames() would match them:
 * ranges expanded (`tasks/9-12` → `tasks/9` … `tasks/12`, numbers written without leading
 * zeros), other items as written; each key once, at most MAX_TRAILER_KEYS.
 */
export function trailerKeys(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const item of values.flatMap((v) => v.split(","))) {
    const s = item.trim();
    if (s === "") continue;
    const r = /^(\w+)\/(\d+)-(\d+)$/.exec(s);
    if (!r) out.add(s);
    else for (let n = Number(r[2]); n <= Number(r[3]) && out.size < MAX_TRAILER_KEYS; n++) out.add(`${r[1]}/${n}`);
    if (out.size >= MAX_TRAILER_KEYS) break;
  }
  return [...out];
}
