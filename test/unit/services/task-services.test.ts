import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import type { Context } from "../../../src/services/kernel/context.js";
import { createTask } from "../../../src/services/work/create-task.js";
import { listTasks } from "../../../src/services/views/read-tasks.js";
import { startMission } from "../../../src/services/missions/start-mission.js";
import { claimTask, closeTask } from "../../../src/services/work/transition-task.js";
import { MemoryStore } from "../../../src/store/memory-store.js";
import type { CloneStore } from "../../../src/store/store.js";
import { InvalidTransitionError } from "../../../src/errors.js";
import { DIRECTOR } from "../../../src/domain/actor.js";
import { defaultSettings } from "../../../src/domain/project-config.js";
import { SCHEMA_VERSION } from "../../../src/domain/constants.js";

/** What `mission start` reads of the clone besides its records: HEAD, unborn in a clone with no code. */
type Clone = Pick<CloneStore, "codeHead">;

/** Services over the in-memory store: the same code paths as the CLI, without git. */
async function memoryContext(actor?: string): Promise<{ ctx: Context<MemoryStore & Clone>; store: MemoryStore }> {
  const store = Object.assign(new MemoryStore(), { codeHead: async () => null } satisfies Clone);
  const at = "2026-01-01T00:00:00.000Z";
  await store.initialize(
    {
      ...defaultSettings("demo"),
      schemaVersion: SCHEMA_VERSION,
      uid: "project-uid-1",
      createdAt: at,
      updatedAt: at,
      createdBy: "Director",
    },
    { summary: "init", op: "project.init", actor: DIRECTOR.name, authorName: null, mission: null },
  );
  let n = 0;
  const ctx: Context<MemoryStore & Clone> = {
    cwd: "/",
    env: {},
    now: () => new Date(Date.UTC(2026, 0, 1, 0, n++)),
    ids: { uid: () => `uid-${String(++n).padStart(8, "0")}`, noteId: () => `note-${++n}`, random: () => 0.5 },
    warn: () => {},
    store: async () => store,
    actorFlags: { as: actor },
    templatesDir: resolve(__dirname, "../../../templates"),
    launcher: { which: () => null, run: async () => 0, session: async () => ({ code: 0, received: null }) },
  };
  return { ctx, store };
}

describe("task services over the memory store", () => {
  it("create, claim and close are one commit each, and the claim guard refuses a second persona", async () => {
    const { ctx, store } = await memoryContext();
    await startMission(ctx, { role: "engineer", persona: "Hephaestus" });
    await startMission(ctx, { role: "engineer", persona: "Vulcan" });
    const { task } = await createTask(ctx, { title: "Add login", role: "engineer", priority: "HIGH" });
    expect(task).toMatchObject({ number: 1, status: "TODO" });
    const claimed = await claimTask({ ...ctx, actorFlags: { as: "Hephaestus" } }, { id: "ENG-H-0001" });
    expect(claimed.task).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: 1 });
    const commits = store.commits.length;
    await expect(claimTask({ ...ctx, actorFlags: { as: "Vulcan" } }, { id: "1" })).rejects.toThrow(
      InvalidTransitionError,
    );
    expect(store.commits.length, "a refusal writes nothing").toBe(commits);
    await closeTask({ ...ctx, actorFlags: { as: "Hephaestus" } }, { id: "1" });
    const page = await listTasks(ctx, { status: ["COMPLETE"] });
    expect(page.tasks.map((t) => t.number)).toEqual([1]);
    expect(store.commits.map((c) => c.info.op)).toEqual([
      "project.init",
      "mission.start",
      "mission.start",
      "task.create",
      "task.claim",
      "task.complete",
    ]);
  });
});
