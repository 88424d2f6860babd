import type { Mission } from "../../src/domain/schemas/mission.js";
import { MissionSchema } from "../../src/domain/schemas/mission.js";
import type { Task, TaskSummary } from "../../src/domain/schemas/task.js";
import { TaskSchema, toTaskSummary } from "../../src/domain/schemas/task.js";

const AT = "2026-01-01T00:00:00.000Z";

/** A valid task (checked by its schema), overridable field by field. */
export function aTask(over: Partial<Task> = {}): Task {
  return TaskSchema.parse({
    uid: "task-uid-0001",
    number: 7,
    title: "Add login",
    description: "",
    role: "engineer",
    priority: "HIGH",
    status: "TODO",
    dependencies: [],
    epic: null,
    claimedBy: null,
    mission: null,
    completedBy: null,
    notes: [],
    formerNumbers: [],
    createdAt: AT,
    updatedAt: AT,
    createdBy: "Director",
    ...over,
  });
}

/**
 * A valid task summary (a read-cache row): the summary of a task checked by its schema, so a
 * field added to tasks reaches every fixture, and a fixture missing one fails here, not later.
 */
export function aTaskSummary(over: Partial<TaskSummary> = {}): TaskSummary {
  return toTaskSummary(aTask(over));
}

export function aMission(over: Partial<Mission> = {}): Mission {
  return MissionSchema.parse({
    uid: "mission-uid-0001",
    number: 3,
    codename: "silent-phoenix",
    persona: "Hephaestus",
    role: "engineer",
    objective: "",
    status: "ACTIVE",
    startedAt: AT,
    endedAt: null,
    assistant: null,
    worktree: null,
    headAtStart: null,
    headAtEnd: null,
    summary: null,
    formerNumbers: [],
    createdAt: AT,
    updatedAt: AT,
    createdBy: "Hephaestus",
    ...over,
  });
}
