/**
 * How the history index files a record's key: the numbered kinds (`tasks/7`) each a group of
 * numbers, everything else (`counters`, `project`) one group of names; and the blob ids kept
 * per touch. Shared by the table (history-rows.ts, history-table.ts) and its arrays (history-arrays.ts).
 */
const NUMBERED = ["tasks", "epics", "missions", "reviews"] as const;
/** The groups: one per numbered kind, then the `other` keys. */
export const GROUPS = 5;
export const TASKS = 0;
export const OTHER = GROUPS - 1;

/** The key of number `n` in numbered group `g` (`tasks/7`). */
export const numberedKey = (g: number, n: number) => `${NUMBERED[g]}/${n}`;

/**
 * `tasks/7` → [0, 7]; anything else is a key of the `other` group, matched as written
 * (`tasks/007` is not `tasks/7` in a trailer: trailerNames matches the text).
 */
export function keyGroup(key: string): [number, number] | null {
  const m = /^(tasks|epics|missions|reviews)\/([1-9]\d{0,14})$/.exec(key);
  return m ? [NUMBERED.indexOf(m[1] as (typeof NUMBERED)[number]), Number(m[2])] : null;
}

/** The task numbers among `keys`. */
export function taskNumbers(keys: readonly string[]): number[] {
  const out: number[] = [];
  for (const k of keys) {
    const g = keyGroup(k);
    if (g?.[0] === TASKS) out.push(g[1]);
  }
  return out;
}

/** A record's blob ids before and after a commit (null: absent), or undefined: not known. */
export type Versions = [string | null, string | null] | undefined;
const ZERO = "0".repeat(40);
/** A blob id as the file keeps it (40 zeros: absent). */
export const idOf = (hex: string) => (hex === ZERO ? null : hex);
