/**
 * New fields are safe by construction (issue 16): every field of every record's schema has a
 * merge rule (record-specs.ts). The compiler refuses a table without one (FieldRules<T>); these
 * tests check the same at run time against the zod schemas themselves, and check what each rule
 * promises, over every field: a change made on one side survives a merge, the fields of a group
 * travel together, and a field with a rule of its own is merged by it, never as a conflict.
 * Values are made from each field's schema, so a new field is covered without a line here.
 */
import { describe, expect, it } from "vitest";
import {
  fieldSpec,
  mergeFields,
  sameValue,
  type FieldRule,
  type FieldRules,
} from "../../../src/domain/merge/merge-fields.js";
import { EPIC_RULES, MISSION_RULES, REVIEW_RULES, TASK_RULES } from "../../../src/domain/merge/record-specs.js";
import { EpicSchema } from "../../../src/domain/schemas/epic.js";
import { MissionSchema } from "../../../src/domain/schemas/mission.js";
import { ReviewSchema } from "../../../src/domain/schemas/review.js";
import { TaskSchema } from "../../../src/domain/schemas/task.js";

type Rec = Record<string, unknown>;
type Rules = Record<string, FieldRule<unknown>>;
interface Def {
  type: string;
  innerType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  shape?: Record<string, { _zod: { def: Def } }>;
  entries?: Record<string, string>;
}
const defOf = (s: { _zod: { def: unknown } }): Def => s._zod.def as Def;

/** The type under nullable, optional and default. */
const concrete = (d: Def): Def => (d.innerType ? concrete(defOf(d.innerType)) : d);

/** A value of the schema's type (merging never validates, so checks such as lengths are not needed). */
function sample(d: Def): unknown {
  switch (d.type) {
    case "string":
      return "text";
    case "number":
      return 1;
    case "boolean":
      return false;
    case "enum":
      return Object.values(d.entries!)[0];
    case "nullable":
      return null;
    case "optional":
    case "default":
      return sample(defOf(d.innerType!));
    case "array":
      return [];
    case "object":
      return Object.fromEntries(Object.entries(d.shape!).map(([k, v]) => [k, sample(defOf(v))]));
    default:
      throw new Error(`no sample for a ${d.type}: teach this test the new zod type`);
  }
}

/** A value of the schema's type that differs from `v` (for a list: `v` with one more element). */
function another(d: Def, v: unknown): unknown {
  switch (d.type) {
    case "string":
      return `${String(v)}-changed`;
    case "number":
      return (v as number) + 1;
    case "boolean":
      return !v;
    case "enum": {
      const values = Object.values(d.entries!);
      return values[(values.indexOf(v as string) + 1) % values.length];
    }
    // Null becomes a value, and a value another one (so two changes in a row never come back).
    case "nullable":
    case "optional":
    case "default":
      return v === null || v === undefined ? sample(concrete(d)) : another(concrete(d), v);
    case "array": {
      const list = v as unknown[];
      const el = defOf(d.element!);
      let next = sample(el);
      while (list.some((x) => sameValue(x, next))) next = another(el, next);
      return [...list, next];
    }
    case "object": {
      const [key, field] = Object.entries(d.shape!)[0]!;
      return { ...(v as Rec), [key]: another(defOf(field), (v as Rec)[key]) };
    }
    default:
      throw new Error(`no change for a ${d.type}: teach this test the new zod type`);
  }
}

/** Lists compare as sets (a union may reorder); anything else by value. */
const same = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b)
    ? sameValue(a.map((x) => JSON.stringify(x)).sort(), b.map((x) => JSON.stringify(x)).sort())
    : sameValue(a, b);

const KINDS = [
  { kind: "tasks", schema: TaskSchema, rules: TASK_RULES as FieldRules<unknown> as Rules },
  { kind: "epics", schema: EpicSchema, rules: EPIC_RULES as FieldRules<unknown> as Rules },
  { kind: "missions", schema: MissionSchema, rules: MISSION_RULES as FieldRules<unknown> as Rules },
  { kind: "reviews", schema: ReviewSchema, rules: REVIEW_RULES as FieldRules<unknown> as Rules },
].map((k) => {
  const fields = Object.fromEntries(Object.entries(k.schema.shape).map(([f, s]) => [f, defOf(s)]));
  const base = Object.fromEntries(Object.entries(fields).map(([f, d]) => [f, sample(d)])) as Rec;
  return { ...k, fields, base };
});

type Kind = (typeof KINDS)[number];
const merge = (_k: Kind, rules: Rules, base: Rec, local: Rec, remote: Rec) =>
  mergeFields<Rec>(base, local, remote, fieldSpec(rules as FieldRules<Rec>));
const changed = (k: Kind, f: string, from: Rec = k.base): Rec => ({ ...from, [f]: another(k.fields[f]!, from[f]) });
const without = (rules: Rules, f: string): Rules => Object.fromEntries(Object.entries(rules).filter(([g]) => g !== f));
const groupOf = (rules: Rules, f: string) => {
  const r = rules[f];
  return typeof r === "object" ? Object.keys(rules).filter((g) => sameValue(rules[g], r)) : [f];
};

/** The schema's fields that the rules do not name. */
const unruled = (k: Kind, rules: Rules) => Object.keys(k.fields).filter((f) => !(f in rules));

/** Fields of one group: local changes f, remote another field of its group; the remote's whole group must win. */
function groupTravelsTogether(k: Kind, rules: Rules, f: string, g: string): boolean {
  const { merged, conflicts } = merge(k, rules, k.base, changed(k, f), changed(k, g));
  return (
    same(merged[f], k.base[f]) &&
    same(merged[g], changed(k, g)[g]) &&
    conflicts.some((c) => c.fields.includes(f) && c.fields.includes(g))
  );
}

/** A field with a rule of its own, changed on both sides: the rule combines them, with no conflict. */
function ownRuleDecides(k: Kind, rules: Rules, f: string): boolean {
  const remote = changed(k, f);
  const local = changed(k, f, remote); // for a list: one element more than the remote's; for a time: later
  const { merged, conflicts } = merge(k, rules, k.base, local, remote);
  const want = (k.rules[f] as (b: unknown, l: unknown, r: unknown) => unknown)(k.base[f], local[f], remote[f]);
  return same(merged[f], want) && !conflicts.some((c) => c.fields.includes(f));
}

describe.each(KINDS)("merge rules of $kind", (k) => {
  it("name every field of the schema, and no other", () => {
    expect(unruled(k, k.rules)).toEqual([]);
    expect(Object.keys(k.rules).filter((f) => !(f in k.fields))).toEqual([]);
  });

  it.each(Object.keys(k.fields))("keep a change of %s made on one side only, whichever side", (f) => {
    const one = changed(k, f);
    expect(same(merge(k, k.rules, k.base, one, k.base).merged[f], one[f]), "changed here").toBe(true);
    expect(same(merge(k, k.rules, k.base, k.base, one).merged[f], one[f]), "changed there").toBe(true);
    expect(merge(k, k.rules, k.base, one, k.base).conflicts).toEqual([]);
  });

  it.each(Object.keys(k.fields))("merge %s by its rule when both sides change it", (f) => {
    const rule = k.rules[f];
    if (typeof rule === "function") expect(ownRuleDecides(k, k.rules, f)).toBe(true);
    else {
      // Alone or in a group: different changes on both sides conflict, and the published side wins.
      const local = changed(k, f, changed(k, f));
      if (same(local[f], k.base[f])) return; // two values only (ACTIVE, ENDED): both sides can only agree
      const { merged, conflicts } = merge(k, k.rules, k.base, local, changed(k, f));
      expect(same(merged[f], changed(k, f)[f])).toBe(true);
      expect(conflicts.some((c) => c.fields.includes(f))).toBe(true);
    }
  });

  it("carry the fields of each group together", () => {
    for (const f of Object.keys(k.rules))
      for (const g of groupOf(k.rules, f).filter((x) => x !== f))
        expect(groupTravelsTogether(k, k.rules, f, g), `${f} with ${g}`).toBe(true);
  });

  // Removing a rule is caught: a field with no rule is named by the completeness check (and
  // FieldRules<T> does not compile); one taken out of a group no longer travels with it; one
  // whose own rule is gone turns into a conflict. (A field merged "alone" behaves the same
  // without its row, as any unnamed field does: the completeness check is what catches it.)
  it.each(Object.keys(k.rules))("notice when the rule of %s is removed", (f) => {
    const less = without(k.rules, f);
    expect(unruled(k, less)).toEqual([f]);
    const rule = k.rules[f];
    if (typeof rule === "function") expect(ownRuleDecides(k, less, f)).toBe(false);
    for (const g of groupOf(k.rules, f).filter((x) => x !== f)) expect(groupTravelsTogether(k, less, f, g)).toBe(false);
  });
});
