/**
 * The read cache's rows are summaries of tasks and whole epics, missions and reviews (DESIGN
 * §2.5). A clone answers from cached rows without reading a record, so when the shape of a row
 * changes (a field added to a schema, a value added to an enum), rows an older version cached
 * would answer without it: CACHE_VERSION must change with it. The shape's fingerprint is
 * computed here from the schemas and compared with the one recorded beside CACHE_VERSION.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EpicSchema } from "../../../src/domain/schemas/epic.js";
import { MissionSchema } from "../../../src/domain/schemas/mission.js";
import { ReviewSchema } from "../../../src/domain/schemas/review.js";
import { TaskSchema } from "../../../src/domain/schemas/task.js";
import { SUMMARY_LEAVES_OUT } from "../../../src/domain/task-summary.js";
import { CACHE_ROW_SHAPES, CACHE_VERSION } from "../../../src/store/cache/read-cache.js";

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  fn?: { name: string };
}

interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  innerType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  shape?: Record<string, { _zod: { def: Def } }>;
  entries?: Record<string, string>;
}
const defOf = (s: { _zod: { def: unknown } }): Def => s._zod.def as Def;

/**
 * What a check admits, as plain data: a row cached under a looser check (an older version's) may
 * hold a value the stricter one refuses, and cached rows are not validated again (the formats of
 * record-formats.ts guard argv, paths and prompts).
 */
function checks(d: Def): unknown[] {
  return (d.checks ?? []).map(({ _zod: { def: c } }) => [
    c.check,
    c.format ?? null,
    c.pattern?.source ?? null,
    c.minimum ?? null,
    c.maximum ?? null,
    c.fn?.name ?? null,
  ]);
}

/** A schema's shape as plain data: types, fields, enum values, and what each check admits. */
function shape(d: Def, leaveOut: readonly string[] = []): unknown {
  if (d.shape)
    return {
      [d.type]: Object.keys(d.shape)
        .filter((k) => !leaveOut.includes(k))
        .sort()
        .map((k) => [k, shape(defOf(d.shape![k]!))]),
    };
  if (d.entries) return { [d.type]: Object.values(d.entries).sort() };
  if (d.innerType) return { [d.type]: shape(defOf(d.innerType)) };
  if (d.element) return { [d.type]: shape(defOf(d.element)) };
  return d.checks?.length ? { [d.type]: checks(d) } : d.type;
}

function rowShapeFingerprint(): string {
  const rows = {
    tasks: shape(defOf(TaskSchema), SUMMARY_LEAVES_OUT),
    epics: shape(defOf(EpicSchema)),
    missions: shape(defOf(MissionSchema)),
    reviews: shape(defOf(ReviewSchema)),
  };
  return createHash("sha1").update(JSON.stringify(rows)).digest("hex").slice(0, 12);
}

describe("the read cache's version", () => {
  it("is the one recorded for the shape of the cached rows", () => {
    const now = rowShapeFingerprint();
    expect(
      CACHE_ROW_SHAPES[CACHE_VERSION],
      `The rows of the read cache changed shape (fingerprint ${now}): raise CACHE_VERSION in src/store/cache/cache-version.ts and record ${now} for it in CACHE_ROW_SHAPES, so that no clone answers from rows cached without the change`,
    ).toBe(now);
  });

  it("is the newest recorded, each version with a shape of its own", () => {
    const versions = Object.keys(CACHE_ROW_SHAPES).map(Number);
    expect(Math.max(...versions)).toBe(CACHE_VERSION);
    expect(new Set(Object.values(CACHE_ROW_SHAPES)).size).toBe(versions.length);
  });

  it("notices a field added to a record", () => {
    const base = shape(defOf(EpicSchema));
    const added = shape({
      ...defOf(EpicSchema),
      shape: { ...defOf(EpicSchema).shape!, dueDate: defOf(EpicSchema).shape!.title! },
    });
    expect(added).not.toEqual(base);
    const task = shape(defOf(TaskSchema), SUMMARY_LEAVES_OUT);
    expect(shape(defOf(TaskSchema))).not.toEqual(task); // the summary leaves fields out
  });

  it("notices a stricter format (rows cached under the looser one are not validated again)", () => {
    const base = shape(defOf(MissionSchema));
    const loose = shape({
      ...defOf(MissionSchema),
      // Both strings: only the check tells a persona name from any 1-80 characters.
      shape: { ...defOf(MissionSchema).shape!, persona: defOf(MissionSchema).shape!.createdBy! },
    });
    expect(loose).not.toEqual(base);
  });
});
