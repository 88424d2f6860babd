import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIRECTOR } from "../../../src/domain/actor.js";
import { SCHEMA_VERSION } from "../../../src/domain/constants.js";
import { defaultSettings } from "../../../src/domain/project-config.js";
import type { Context } from "../../../src/services/kernel/context.js";
import { defaultPersonaName } from "../../../src/services/missions/default-persona-name.js";
import { MemoryStore } from "../../../src/store/memory-store.js";
import { aMission } from "../../helpers/builders.js";
import { tempDir } from "../../helpers/repo.js";

const at = "2026-01-01T00:00:00.000Z";
const INFO = { summary: "test", op: "test", actor: DIRECTOR.name, authorName: null, mission: null };

describe("defaultPersonaName", () => {
  it("never picks a name from the ref that passes for the Director's or mixes alphabets", async () => {
    const templates = tempDir();
    mkdirSync(join(templates, "themes"));
    writeFileSync(join(templates, "themes", "odd.yaml"), "roles:\n  engineer: [Hephaestus]\n");
    const store = new MemoryStore();
    const settings = defaultSettings("demo");
    await store.initialize(
      {
        ...settings,
        customization: { ...settings.customization, personasTheme: "odd" },
        schemaVersion: SCHEMA_VERSION,
        uid: "project-uid-1",
        createdAt: at,
        updatedAt: at,
        createdBy: "Director",
      },
      INFO,
    );
    // Written onto the ref by another version or by hand: `persona add` refuses both names.
    await store.mutate(async (tx) => {
      for (const [i, name] of ["Dіrector", "Hеphaestus"].entries())
        tx.putPersona({
          uid: `persona-uid-${i}`,
          name,
          role: "engineer",
          theme: "custom",
          bio: "",
          createdAt: at,
          updatedAt: at,
          createdBy: "x",
        });
      return { result: null, commit: INFO };
    });
    const ctx = { templatesDir: templates } as Context;
    const snap = await store.snapshot();
    const busy = [aMission({ persona: "Hephaestus", status: "ACTIVE" })];
    // Hephaestus is on a mission: the only names left are the look-alikes, and none is offered.
    expect((await defaultPersonaName(ctx, snap, "engineer", busy)).name).toBeNull();
    expect((await defaultPersonaName(ctx, snap, "engineer", [])).name).toBe("Hephaestus");
  });
});
