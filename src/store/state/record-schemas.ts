import { CountersSchema } from "../../domain/schemas/counters.js";
import { EpicSchema, type Epic } from "../../domain/schemas/epic.js";
import { MissionSchema, type Mission } from "../../domain/schemas/mission.js";
import { PersonaSchema } from "../../domain/schemas/persona.js";
import { ProjectSchema } from "../../domain/schemas/project.js";
import { ReviewSchema, type Review } from "../../domain/schemas/review.js";
import { TaskSchema, type Task } from "../../domain/schemas/task.js";
import type { RecordKind } from "./layout.js";

export interface RecordTypes {
  tasks: Task;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

/** Every record crosses the disk boundary through its schema, in both directions. */
export const SCHEMAS = {
  tasks: TaskSchema,
  epics: EpicSchema,
  missions: MissionSchema,
  reviews: ReviewSchema,
  counters: CountersSchema,
  persona: PersonaSchema,
  project: ProjectSchema,
} as const satisfies Record<RecordKind, unknown> & Record<string, unknown>;

export type Schemas = typeof SCHEMAS;
