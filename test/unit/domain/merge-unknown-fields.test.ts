/**
 * Fields a record's merge spec does not name, such as a newer Pantheon's (DESIGN §1.3, §3.3):
 * merged three-way one by one, a field that is absent counting as a value of its own.
 */
import { describe, expect, it } from "vitest";
import { mergeFields, type FieldSpec } from "../../../src/domain/merge/merge-fields.js";
import { mergeState } from "../../../src/domain/merge/merge-state.js";

interface Rec {
  title: string;
  [future: string]: unknown;
}

const SPEC: FieldSpec<Rec> = { groups: [["title"]], special: {} };
const rec = (future: Record<string, unknown> = {}): Rec => ({ title: "t", ...future });
const NONE = Symbol("absent");
const withF = (v: unknown) => (v === NONE ? rec() : rec({ f: v }));

describe("mergeFields: a field the spec does not name", () => {
  // [case, base, local, remote, merged value (NONE: absent), conflict]
  const cases: Array<[string, unknown, unknown, unknown, unknown, boolean]> = [
    ["unchanged", 1, 1, 1, 1, false],
    ["changed here only", 1, 2, 1, 2, false],
    ["changed there only", 1, 1, 2, 2, false],
    ["added here only", NONE, 2, NONE, 2, false],
    ["added there only", NONE, NONE, 2, 2, false],
    ["removed here only", 1, NONE, 1, NONE, false],
    ["removed there only", 1, 1, NONE, NONE, false],
    ["null here, absent at base and there: null is a value", NONE, null, NONE, null, false],
    ["the same change on both sides", 1, 2, 2, 2, false],
    ["changed differently on both: the published value stays", 1, 2, 3, 3, true],
    ["removed here, changed there: the published value stays", 1, NONE, 3, 3, true],
    ["added differently on both", NONE, { a: 1 }, { a: 2 }, { a: 2 }, true],
  ];
  it.each(cases)("%s", (_name, b, l, r, want, conflict) => {
    const { merged, conflicts } = mergeFields(withF(b), withF(l), withF(r), SPEC);
    if (want === NONE) expect(Object.hasOwn(merged, "f")).toBe(false);
    else expect(merged.f).toEqual(want);
    expect(conflicts.map((c) => c.fields)).toEqual(conflict ? [["f"]] : []);
  });

  it("a record new on both sides (no base) takes one-sided fields and keeps the published one where both differ", () => {
    const { merged, conflicts } = mergeFields(null, rec({ f: 1, g: "mine" }), rec({ f: 2 }), SPEC);
    expect(merged).toEqual({ title: "t", f: 2, g: "mine" });
    expect(conflicts).toEqual([{ fields: ["f"], local: { f: 1 }, remote: { f: 2 } }]);
  });

  it("nested values compare whole", () => {
    const { merged } = mergeFields(rec({ f: { a: [1] } }), rec({ f: { a: [1, 2] } }), rec({ f: { a: [1] } }), SPEC);
    expect(merged.f).toEqual({ a: [1, 2] });
  });
});

describe("mergeState: counters of kinds this version does not know", () => {
  const base = { tasks: 1, epics: 0, missions: 0, reviews: 0 };
  it.each([
    ["only here", { futureKind: 4 }, {}, 4],
    ["only there", {}, { futureKind: 4 }, 4],
    ["on both: the maximum", { futureKind: 9 }, { futureKind: 4 }, 9],
  ] as const)("%s", (_name, local, remote, want) => {
    const out = mergeState({
      touched: { tasks: [], epics: [], missions: [], reviews: [] },
      counters: { local: { ...base, ...local }, remote: { ...base, ...remote } },
      remote: "origin",
    });
    expect((out.counters as Record<string, unknown>).futureKind).toBe(want);
    expect(out.counters.tasks).toBe(1);
  });
});
