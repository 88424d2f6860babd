import * as z from "zod/mini";
import { type Known, LongText, Timestamp } from "./common.js";

import { NOTE_KINDS } from "../constants.js";

export { NOTE_KINDS };

/** Notes are append-only; `id` makes the union at a sync merge exact. */
export const NoteSchema = z.looseObject({
  id: z.string().check(z.minLength(4), z.maxLength(64)),
  at: Timestamp,
  by: z.string().check(z.minLength(1), z.maxLength(80)),
  kind: z.enum(NOTE_KINDS),
  text: LongText,
});
export type Note = Known<z.infer<typeof NoteSchema>>;
export type NoteKind = Note["kind"];
