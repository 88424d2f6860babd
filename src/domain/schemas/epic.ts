import * as z from "zod/mini";
import { PRIORITIES } from "../priority.js";
import { type Known, LongText, RecordBase, RecordNumber, Title } from "./common.js";

/** Status and progress are derived from the linked tasks, never stored. */
export const EpicSchema = z.looseObject({
  ...RecordBase,
  number: RecordNumber,
  title: Title,
  description: LongText,
  priority: z.enum(PRIORITIES),
  aborted: z.nullable(LongText),
  formerNumbers: z.array(RecordNumber),
});
export type Epic = Known<z.infer<typeof EpicSchema>>;
