import { EpicSchema, type Epic } from "../domain/schemas/epic.js";
import { MissionSchema, type Mission } from "../domain/schemas/mission.js";
import { ReviewSchema, type Review } from "../domain/schemas/review.js";
import { TaskSchema, type Task } from "../domain/schemas/task.js";
import type { RecordKind } from "./layout.js";

export interface RecordTypes {
  tasks: Task;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}

/** Every record crosses the disk boundary through its schema, in both directions. */
export const RECORD_SCHEMAS = {
  tasks: TaskSchema,
  epics: EpicSchema,
  missions: MissionSchema,
  reviews: ReviewSchema,
} as const satisfies Record<RecordKind, unknown>;
