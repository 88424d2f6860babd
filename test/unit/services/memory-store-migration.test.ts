import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DIRECTOR } from "../../../src/domain/actor.js";
import { SCHEMA_VERSION } from "../../../src/domain/constants.js";
import { defaultSettings } from "../../../src/domain/project-config.js";
import type { Project } from "../../../src/domain/schemas/project.js";
import { NotFoundError } from "../../../src/errors.js";
import type { Context } from "../../../src/services/kernel/context.js";
import { createTask } from "../../../src/services/work/create-task.js";
import { noteTask } from "../../../src/services/work/edit-task.js";
import { MemoryStore } from "../../../src/store/memory-store.js";

/** The memory store migrates as GitStore does (DESIGN §1.3): services see the same behaviour over both. */
async function schema1Store(): Promise<{ ctx: Context<MemoryStore>; store: MemoryStore }> {
  const store = new MemoryStore();
  const at = "2026-01-01T00:00:00.000Z";
  // project.json as schema 1 stored it (initialize writes what it is given, as another version would).
  const old = {
    ...defaultSettings("demo"),
    schemaVersion: 1,
    uid: "project-uid-1",
    createdAt: at,
    updatedAt: at,
    createdBy: "Director",
    worktree: { copy: [], setup: "make setup" },
  };
  await store.initialize(old as Project, {
    summary: "init",
    op: "project.init",
    actor: DIRECTOR.name,
    authorName: null,
    mission: null,
  });
  let n = 0;
  const ctx: Context<MemoryStore> = {
    cwd: "/",
    env: {},
    now: () => new Date(Date.UTC(2026, 0, 1, 0, n++)),
    ids: { uid: () => `uid-${String(++n).padStart(8, "0")}`, noteId: () => `note-${++n}`, random: () => 0.5 },
    warn: () => {},
    store: async () => store,
    actorFlags: {},
    templatesDir: resolve(__dirname, "../../../templates"),
    launcher: { which: () => null, run: async () => 0, session: async () => ({ code: 0, received: null }) },
  };
  return { ctx, store };
}

describe("the memory store meeting an older schema", () => {
  it("reads without writing; a refused command writes nothing; the first write lands the migration commit and then its own", async () => {
    const { ctx, store } = await schema1Store();
    expect((await (await store.snapshot()).project()).schemaVersion).toBe(1);
    await expect(noteTask(ctx, { id: "7", text: "x" })).rejects.toThrow(NotFoundError);
    expect(store.commits).toHaveLength(1);
    await createTask(ctx, { title: "First", role: "engineer" });
    expect(store.commits.map((c) => c.info.op)).toEqual(["project.init", "migrate", "task.create"]);
    expect(store.commits[1]!.paths).toEqual(["project.json"]);
    const project = JSON.parse(store.commits.at(-1)!.files.get("project.json")!.toString());
    expect(project.schemaVersion).toBe(SCHEMA_VERSION);
    expect(project.worktree).toEqual({ copy: [] });
    expect(store.warnings.filter((w) => w.includes('"make setup"'))).toHaveLength(1);
    await createTask(ctx, { title: "Second", role: "engineer" });
    expect(store.commits.map((c) => c.info.op).filter((op) => op === "migrate")).toHaveLength(1);
  });
});
