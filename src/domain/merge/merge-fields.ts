/**
 * Field-by-field three-way merge of one record (DESIGN §3.3). Fields are merged in groups that
 * must stay together (a task's status, claim and mission): a group changed on one side is
 * taken from that side; changed differently on both, the published (remote) side wins and the
 * local values are reported as a conflict.
 */
export interface FieldSpec<T> {
  /** Groups of fields that change together. */
  groups: ReadonlyArray<ReadonlyArray<keyof T>>;
  /** Fields merged by a rule of their own (notes, dependency sets, updatedAt...). */
  special: Partial<{ [K in keyof T]: SpecialRule<T[K]> }>;
}

/**
 * A field's own merge rule. Most rules lose nothing (a union, the later time); one that must
 * drop a value (a label past the limit, this clone's wording of a criterion the remote reworded too) says so
 * through `lost`, and the value is kept as a conflict note like any other.
 */
export type SpecialRule<V> = (base: V | undefined, local: V, remote: V, lost: (c: FieldConflict) => void) => V;

/** How one field merges: alone (three-way), with the fields of a named group, or by a rule of its own. */
export type FieldRule<V> = "alone" | { readonly group: string } | SpecialRule<V>;

/**
 * A record's merge rules: one entry for every field its schema has (`-?`: none may be left out),
 * so a field added to a schema does not compile until someone decides how it merges.
 */
export type FieldRules<T> = { readonly [K in keyof T]-?: FieldRule<T[K]> };

/** The groups and special rules a table of field rules stands for, in the table's order. */
export function fieldSpec<T>(rules: FieldRules<T>): FieldSpec<T> {
  const groups: Array<Array<keyof T>> = [];
  const byName = new Map<string, Array<keyof T>>();
  const special: FieldSpec<T>["special"] = {};
  for (const key of Object.keys(rules) as Array<keyof T>) {
    const rule = rules[key] as FieldRule<unknown>;
    if (rule === "alone") groups.push([key]);
    else if (typeof rule === "function") (special as Record<keyof T, unknown>)[key] = rule;
    else if (byName.has(rule.group)) byName.get(rule.group)!.push(key);
    else {
      const group = [key];
      byName.set(rule.group, group);
      groups.push(group);
    }
  }
  return { groups, special };
}

export interface FieldConflict {
  fields: string[];
  local: unknown;
  remote: unknown;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function pick<T>(rec: T | null, group: ReadonlyArray<keyof T>): unknown[] | undefined {
  if (rec === null) return undefined;
  const r: T = rec;
  return group.map((f) => r[f]);
}

export function mergeFields<T extends object>(
  base: T | null,
  local: T,
  remote: T,
  spec: FieldSpec<T>,
): { merged: T; conflicts: FieldConflict[] } {
  const merged = { ...remote };
  const conflicts: FieldConflict[] = [];
  for (const group of spec.groups) {
    const b = pick(base, group);
    const l = pick(local, group)!;
    const r = pick(remote, group)!;
    if (sameValue(l, r) || sameValue(l, b)) continue; // remote's values are already in place
    if (sameValue(r, b)) {
      group.forEach((f, i) => {
        (merged as Record<keyof T, unknown>)[f] = l[i];
      });
      continue;
    }
    conflicts.push({
      fields: group.map(String),
      local: Object.fromEntries(group.map((f, i) => [f, l[i]])),
      remote: Object.fromEntries(group.map((f, i) => [f, r[i]])),
    });
  }
  for (const key of Object.keys(spec.special) as Array<keyof T>) {
    const rule = spec.special[key]!;
    (merged as Record<keyof T, unknown>)[key] = rule(base?.[key], local[key], remote[key], (c) => conflicts.push(c));
  }
  mergeUnnamed(base, local, remote, spec, merged as Record<string, unknown>, conflicts);
  return { merged, conflicts };
}

const ABSENT = "\u0000absent";

/** A field's value for comparison; a field that is not there differs from every value, null included. */
function encoded(rec: object | null, key: string): string {
  return rec !== null && Object.hasOwn(rec, key) ? JSON.stringify((rec as Record<string, unknown>)[key]) : ABSENT;
}

/**
 * Fields the spec does not name (uid and the like, and any field a newer Pantheon added, which
 * this version decodes and carries but does not know) merge three-way one by one, by the rule
 * of the groups: one-sided change taken, a field added or removed on one side counting as a
 * change; changed differently on both, the published value stays and the local one is reported.
 */
function mergeUnnamed<T extends object>(
  base: T | null,
  local: T,
  remote: T,
  spec: FieldSpec<T>,
  merged: Record<string, unknown>,
  conflicts: FieldConflict[],
): void {
  const named = new Set<string>([...spec.groups.flat().map(String), ...Object.keys(spec.special)]);
  const keys = new Set([...Object.keys(remote), ...Object.keys(local), ...(base ? Object.keys(base) : [])]);
  for (const key of keys) {
    // Decoding drops a "__proto__" key; were one here, assigning it would swap the prototype.
    if (named.has(key) || key === "__proto__") continue;
    const [b, l, r] = [encoded(base, key), encoded(local, key), encoded(remote, key)];
    if (l === r || l === b) continue; // the remote's value (or its absence) is already in place
    const localValue = (local as Record<string, unknown>)[key];
    if (r === b) {
      if (l === ABSENT) delete merged[key];
      else merged[key] = localValue;
      continue;
    }
    conflicts.push({
      fields: [key],
      local: { [key]: l === ABSENT ? null : localValue },
      remote: { [key]: r === ABSENT ? null : (remote as Record<string, unknown>)[key] },
    });
  }
}

/** Three-way merge of a set: kept where both kept it, added where either added it. */
export function mergeSet<V>(base: readonly V[] | undefined, local: readonly V[], remote: readonly V[]): V[] {
  const b = new Set(base ?? []);
  const l = new Set(local);
  const r = new Set(remote);
  const out: V[] = [];
  for (const v of [...remote, ...local]) {
    if (out.includes(v)) continue;
    const removed = b.has(v) && (!l.has(v) || !r.has(v));
    if (!removed) out.push(v);
  }
  return out;
}

export function union<V>(_base: readonly V[] | undefined, local: readonly V[], remote: readonly V[]): V[] {
  return [...new Set([...remote, ...local])];
}

export function later(_base: string | undefined, local: string, remote: string): string {
  return local > remote ? local : remote;
}

/** FNV-1a: a deterministic id for notes a merge writes (the domain has no crypto). */
export function stableHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
