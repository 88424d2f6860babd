import * as z from "zod/mini";
import { TASK_ROLES } from "../roles.js";
import { PRIORITIES } from "../priority.js";
import { TASK_STATUSES } from "../task-status.js";
import { type Known, LongText, RecordBase, RecordNumber, Title } from "./common.js";
import { NoteSchema } from "./note.js";
import { AcceptanceSchema, LabelsSchema } from "./task-extras.js";

/** The stored task. Its id (`ENG-H-0007`) is derived from role, priority and number. */
export const TaskSchema = z.looseObject({
  ...RecordBase,
  number: RecordNumber,
  title: Title,
  description: LongText,
  role: z.enum(TASK_ROLES),
  priority: z.enum(PRIORITIES),
  status: z.enum(TASK_STATUSES),
  dependencies: z.array(RecordNumber),
  epic: z.nullable(RecordNumber),
  claimedBy: z.nullable(z.string().check(z.minLength(1), z.maxLength(80))),
  mission: z.nullable(RecordNumber),
  completedBy: z.nullable(z.string().check(z.minLength(1), z.maxLength(80))),
  notes: z.array(NoteSchema),
  formerNumbers: z.array(RecordNumber),
  // Roles the task had before `task edit --role` (DESIGN §1.2): an id with one of their prefixes
  // still names it. A record written before this field decodes as [], so no migration rewrites tasks.
  formerRoles: z._default(z.array(z.enum(TASK_ROLES)), () => []),
  // Labels and acceptance criteria (DESIGN §1.3): a record written before them reads as [].
  labels: LabelsSchema,
  acceptance: AcceptanceSchema,
});
export type Task = Known<z.infer<typeof TaskSchema>>;

export type { TaskSummary } from "../task-summary.js";
export { toTaskSummary } from "../task-summary.js";
