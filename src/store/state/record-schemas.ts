import { CountersSchema } from "../../domain/schemas/counters.js";
import { EpicSchema } from "../../domain/schemas/epic.js";
import { MissionSchema } from "../../domain/schemas/mission.js";
import { PersonaSchema } from "../../domain/schemas/persona.js";
import { ProjectSchema } from "../../domain/schemas/project.js";
import { ReviewSchema } from "../../domain/schemas/review.js";
import { TaskSchema } from "../../domain/schemas/task.js";
import type { RecordKind } from "../store.js";

export type { RecordTypes } from "../store.js";

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
