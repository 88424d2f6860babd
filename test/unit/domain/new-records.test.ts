import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { newEpic } from "../../../src/domain/new-epic.js";
import { newMission } from "../../../src/domain/new-mission.js";
import { newReview } from "../../../src/domain/new-review.js";
import { newTask } from "../../../src/domain/new-task.js";
import { EpicSchema } from "../../../src/domain/schemas/epic.js";
import { MissionSchema } from "../../../src/domain/schemas/mission.js";
import { ReviewSchema } from "../../../src/domain/schemas/review.js";
import { TaskSchema } from "../../../src/domain/schemas/task.js";

const at = "2026-01-01T00:00:00.000Z";
const SRC = join(__dirname, "../../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("one constructor per record kind", () => {
  it("each builds a record its schema takes unchanged, in its starting state", () => {
    const task = newTask({
      uid: "task-uid-0001",
      number: 1,
      title: "Add login",
      description: "",
      role: "engineer",
      priority: "HIGH",
      dependencies: [],
      epic: null,
      labels: ["api"],
      acceptance: [],
      at,
      by: "Director",
    });
    expect(TaskSchema.parse(task)).toEqual(task);
    expect(task).toMatchObject({ status: "TODO", claimedBy: null, notes: [], createdBy: "Director", updatedAt: at });
    const mission = newMission({
      uid: "mission-uid-0002",
      number: 2,
      codename: "silent-phoenix",
      persona: "Hephaestus",
      role: "engineer",
      objective: "",
      assistant: "claude",
      sessionId: null,
      worktree: null,
      headAtStart: null,
      at,
    });
    expect(MissionSchema.parse(mission)).toEqual(mission);
    expect(mission).toMatchObject({ status: "ACTIVE", startedAt: at, endedAt: null, createdBy: "Hephaestus" });
    expect("sessionId" in mission, "an unknown session id is left out").toBe(false);
    expect(newMission({ ...mission, at, sessionId: "s-1" }).sessionId).toBe("s-1");
    const epic = newEpic({
      uid: "epic-uid-0003",
      number: 3,
      title: "Auth",
      description: "",
      priority: "LOW",
      at,
      by: "Director",
    });
    expect(EpicSchema.parse(epic)).toEqual(epic);
    const review = newReview({
      uid: "review-uid-0004",
      number: 4,
      title: "Check",
      type: "code",
      task: 1,
      artifact: null,
      at,
      by: "Hephaestus",
    });
    expect(ReviewSchema.parse(review)).toEqual(review);
    expect(review).toMatchObject({ status: "PENDING", requestedBy: "Hephaestus", reviewer: null });
  });

  it("no other source file builds a record as a literal (every new record starts with formerNumbers: [])", () => {
    const builders = new Set([
      "domain/new-task.ts",
      "domain/new-mission.ts",
      "domain/new-epic.ts",
      "domain/new-review.ts",
    ]);
    const literals = sources(SRC)
      .map((f) => relative(SRC, f).replaceAll("\\", "/"))
      .filter((rel) => !builders.has(rel) && /formerNumbers: \[\],/.test(readFileSync(join(SRC, rel), "utf8")));
    expect(literals).toEqual([]);
  });
});
