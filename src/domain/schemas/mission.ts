import * as z from "zod/mini";
import { ROLES } from "../roles.js";
import {
  AbsolutePath,
  AssistantWord,
  BranchName,
  CommitId,
  type Known,
  LongText,
  RecordBase,
  RecordNumber,
  SessionId,
  Timestamp,
} from "./common.js";
import { PersonaName } from "./persona.js";

import { MISSION_STATUSES } from "../constants.js";

export { MISSION_STATUSES };

/** A persona's worktree: its path becomes the assistant's working directory, its branch a git argument. */
export const WorktreeSchema = z.looseObject({
  path: AbsolutePath,
  branch: BranchName,
  base: CommitId,
});

/** A persona's working session; `codename` survives renumbering at sync. */
export const MissionSchema = z.looseObject({
  ...RecordBase,
  number: RecordNumber,
  codename: z.string().check(z.regex(/^[a-z]{1,20}-[a-z]{1,20}$/)),
  // The kickoff says "You are <persona>" and its worktree's branch is named after it.
  persona: PersonaName,
  role: z.enum(ROLES),
  objective: LongText,
  status: z.enum(MISSION_STATUSES),
  startedAt: Timestamp,
  endedAt: z.nullable(Timestamp),
  assistant: z.nullable(AssistantWord),
  /**
   * The assistant's own session id (for resume); absent in records written before it existed.
   * `summon --resume` passes it to the assistant: never an option (DESIGN §5).
   */
  sessionId: z.optional(z.nullable(SessionId)),
  worktree: z.nullable(WorktreeSchema),
  headAtStart: z.nullable(CommitId),
  headAtEnd: z.nullable(CommitId),
  summary: z.nullable(LongText),
  formerNumbers: z.array(RecordNumber),
});
export type Mission = Known<z.infer<typeof MissionSchema>>;
