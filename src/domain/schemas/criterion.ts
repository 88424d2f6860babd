import * as z from "zod/mini";
import { CRITERION_ID, criterionTextProblem } from "../acceptance.js";
import { type Known, Timestamp } from "./common.js";

/**
 * One acceptance criterion of a task. `id` is random and never reused, so a sync merges the
 * items by it (merge/acceptance-merge.ts); `by` and `at` say who last added, checked or
 * unchecked it, and when. The text has a strict format (one line, no control characters, at
 * most 500 characters): it is shown on terminals, in the web page and in a persona's brief.
 */
export const CriterionSchema = z.looseObject({
  id: z.string().check(z.regex(CRITERION_ID)),
  text: z
    .string()
    .check(z.refine((s) => criterionTextProblem(s) === null, "must be one line of plain text, 1-500 characters")),
  done: z.boolean(),
  by: z.string().check(z.minLength(1), z.maxLength(80)),
  at: Timestamp,
});
export type Criterion = Known<z.infer<typeof CriterionSchema>>;
