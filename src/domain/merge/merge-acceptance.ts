import { MAX_CRITERIA } from "../acceptance.js";
import type { Criterion } from "../schemas/criterion.js";
import { sameValue, type FieldConflict } from "./merge-fields.js";

/**
 * A task's acceptance criteria merge by item id (DESIGN §3.3). The published list keeps its
 * order (so its numbers stay), then come the items only this clone added. An item the base had
 * and one side no longer has was removed on purpose and stays removed. An item on both sides
 * merges field by field against the base: a change on one side is taken (checked here,
 * reworded there: both kept); the same field changed differently on both (only a text can be)
 * keeps the published text, and this clone's is kept as a conflict note: who published first
 * decides, as for every field (DESIGN §3.3), never a clock. `by` goes with the `done` state it
 * set; `at` is the later of the two, as `updatedAt` is. Past MAX_CRITERIA, this clone's
 * additions beyond it are kept in a conflict note.
 */
export function mergeAcceptance(
  base: Criterion[] | undefined,
  local: Criterion[],
  remote: Criterion[],
  lost: (c: FieldConflict) => void,
): Criterion[] {
  const inBase = new Map((base ?? []).map((c) => [c.id, c]));
  const inLocal = new Map(local.map((c) => [c.id, c]));
  const inRemote = new Map(remote.map((c) => [c.id, c]));
  const out: Criterion[] = [];
  for (const c of [...remote, ...local.filter((x) => !inRemote.has(x.id))]) {
    if (out.some((x) => x.id === c.id)) continue;
    const [b, l, r] = [inBase.get(c.id), inLocal.get(c.id), inRemote.get(c.id)];
    if (b && (!l || !r)) continue; // removed on a side
    out.push(l && r ? mergeItem(b, l, r, lost) : c);
  }
  if (out.length <= MAX_CRITERIA) return out;
  const dropped = out.slice(MAX_CRITERIA).map((c) => c.text);
  lost({ fields: ["acceptance"], local: { "criteria over the limit": dropped }, remote: {} });
  return out.slice(0, MAX_CRITERIA);
}

function mergeItem(b: Criterion | undefined, l: Criterion, r: Criterion, lost: (c: FieldConflict) => void): Criterion {
  // Fields this version does not know merge three-way one by one, the published value on a clash.
  // A key changed (or added, or removed) here only is taken from here.
  const item: Record<string, unknown> = { ...r };
  const [lv, bv] = [l as Record<string, unknown>, (b ?? {}) as Record<string, unknown>];
  for (const k of new Set([...Object.keys(l), ...Object.keys(r)]))
    if (!sameValue(lv[k], bv[k]) && sameValue(item[k], bv[k]))
      if (k in lv) item[k] = lv[k];
      else delete item[k];
  let text = r.text;
  if (l.text !== r.text) {
    if (b?.text === r.text) text = l.text;
    else if (b?.text !== l.text)
      lost({ fields: ["acceptance"], local: { criterion: l.text }, remote: { criterion: r.text } });
  }
  // A boolean cannot change differently on both sides: a difference is a one-sided change.
  // Both the same: the published `by` (who checked it there), as for any field set on both.
  const doneFrom = l.done === r.done || b === undefined ? r : l.done === b.done ? r : l;
  return { ...(item as Criterion), text, done: doneFrom.done, by: doneFrom.by, at: l.at > r.at ? l.at : r.at };
}
