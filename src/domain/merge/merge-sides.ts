/** A side of a record: the parsed record, absent (null), or present but unreadable. */
export const CORRUPT = { corrupt: true } as const;
export type Side<T> = T | null | typeof CORRUPT;

export function isRecord<T>(s: Side<T>): s is T {
  return s !== null && s !== CORRUPT;
}
