import * as z from "zod/mini";
import { type Known, LongText, RecordBase, RecordNumber, Title } from "./common.js";

import { REVIEW_STATUSES, REVIEW_TYPES } from "../constants.js";

export { REVIEW_STATUSES, REVIEW_TYPES };

export const ReviewSchema = z.looseObject({
  ...RecordBase,
  number: RecordNumber,
  title: Title,
  type: z.enum(REVIEW_TYPES),
  status: z.enum(REVIEW_STATUSES),
  task: z.nullable(RecordNumber),
  requestedBy: z.string().check(z.minLength(1), z.maxLength(80)),
  reviewer: z.nullable(z.string().check(z.minLength(1), z.maxLength(80))),
  reason: z.nullable(LongText),
  artifact: z.nullable(LongText),
  formerNumbers: z.array(RecordNumber),
});
export type Review = Known<z.infer<typeof ReviewSchema>>;
