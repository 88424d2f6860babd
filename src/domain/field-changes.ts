/** One changed field of a JSON document, by dotted path; an absent side is undefined. */
export interface FieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The fields that differ between two versions of a JSON document (project.json as a sync
 * received it): objects are compared key by key, arrays and scalars whole. `ignore` names
 * top-level bookkeeping fields (updatedAt) that change with every edit.
 * @example fieldChanges({ worktree: { copy: [".env"] } }, { worktree: { copy: [] } }) // [{ field: "worktree.copy", from: [".env"], to: [] }]
 */
export function fieldChanges(
  before: unknown,
  after: unknown,
  ignore: readonly string[] = [],
  prefix = "",
): FieldChange[] {
  if (isObject(before) && isObject(after)) {
    const out: FieldChange[] = [];
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const k of keys) {
      if (prefix === "" && ignore.includes(k)) continue;
      out.push(
        ...fieldChanges(
          Object.hasOwn(before, k) ? before[k] : undefined,
          Object.hasOwn(after, k) ? after[k] : undefined,
          ignore,
          prefix === "" ? k : `${prefix}.${k}`,
        ),
      );
    }
    return out;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (prefix === "") return []; // not two documents: nothing to compare field by field
  return [{ field: prefix, ...(before !== undefined && { from: before }), ...(after !== undefined && { to: after }) }];
}
