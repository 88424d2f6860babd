import * as z from "zod/mini";
import { ROLES } from "../roles.js";
import { type Known, LongText, RecordBase, RecordNumber, Timestamp } from "./common.js";

import { MISSION_STATUSES } from "../constants.js";

export { MISSION_STATUSES };

export const WorktreeSchema = z.looseObject({
  path: z.string().check(z.minLength(1)),
  branch: z.string().check(z.minLength(1)),
  base: z.string().check(z.minLength(4)),
});

/** A persona's working session; `codename` survives renumbering at sync. */
export const MissionSchema = z.looseObject({
  ...RecordBase,
  number: RecordNumber,
  codename: z.string().check(z.regex(/^[a-z]+-[a-z]+$/)),
  persona: z.string().check(z.minLength(1), z.maxLength(40)),
  role: z.enum(ROLES),
  objective: LongText,
  status: z.enum(MISSION_STATUSES),
  startedAt: Timestamp,
  endedAt: z.nullable(Timestamp),
  assistant: z.nullable(z.string()),
  /** The assistant's own session id (for resume); absent in records written before it existed. */
  sessionId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  worktree: z.nullable(WorktreeSchema),
  headAtStart: z.nullable(z.string()),
  headAtEnd: z.nullable(z.string()),
  summary: z.nullable(LongText),
  formerNumbers: z.array(RecordNumber),
});
export type Mission = Known<z.infer<typeof MissionSchema>>;
