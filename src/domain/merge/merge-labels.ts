import { labelSet, MAX_LABELS } from "../labels.js";
import { mergeSet, type FieldConflict } from "./merge-fields.js";

/**
 * A task's labels merge three-way as a set (DESIGN §3.3): a label either side added is there, a
 * label either side removed is gone, so "added on one side, removed on the other" has one
 * answer whatever the order: a label that was in the base and one side removed stays removed
 * (the other side merely kept it), and a label that was not in the base is there (the other
 * side never had it to remove). Sorted, so both clones write the same blob. Past MAX_LABELS the
 * published labels come first, then this clone's additions in order; the rest are kept in a
 * conflict note.
 */
export function mergeLabels(
  base: string[] | undefined,
  local: string[],
  remote: string[],
  lost: (c: FieldConflict) => void,
): string[] {
  const merged = labelSet(mergeSet(base, local, remote));
  if (merged.length <= MAX_LABELS) return merged;
  const published = merged.filter((l) => remote.includes(l));
  const kept = labelSet([...published, ...merged.filter((l) => !remote.includes(l))].slice(0, MAX_LABELS));
  const dropped = merged.filter((l) => !kept.includes(l));
  lost({ fields: ["labels"], local: { "labels over the limit": dropped }, remote: { labels: kept } });
  return kept;
}
