import * as z from "zod/mini";
import { MAX_CRITERIA } from "../acceptance.js";
import { LABEL_PATTERN, MAX_LABELS } from "../labels.js";
import { CriterionSchema } from "./criterion.js";

/**
 * A task's labels: lowercase words, at most MAX_LABELS, kept sorted by every command and merge.
 * A record written before labels existed has none: decoded as [], so no migration rewrites tasks.
 */
export const LabelsSchema = z._default(
  z.array(z.string().check(z.regex(LABEL_PATTERN))).check(z.maxLength(MAX_LABELS)),
  () => [],
);

/** A task's acceptance criteria, in the order they are numbered; ids never repeat (a merge joins by them). */
export const AcceptanceSchema = z._default(
  z.array(CriterionSchema).check(
    z.maxLength(MAX_CRITERIA),
    z.refine((list) => new Set(list.map((c) => c.id)).size === list.length, "criterion ids must not repeat"),
  ),
  () => [],
);
