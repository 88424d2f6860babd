import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runBinAsync } from "../helpers/cli.js";
import { git } from "../helpers/repo.js";
import { initialized } from "../integration/persona/fixture.js";
import { missions, requireBundle, standIns, waitFor } from "../integration/persona/stand-ins.js";

/**
 * DESIGN §1.4/§1.6: a persona name is unique among ACTIVE missions, and concurrent starts that
 * pick the same name are serialised by the ref's compare-and-swap. Here several `summon`
 * processes race for a name; their stand-in assistants block until released.
 */
describe("concurrent summons", () => {
  beforeAll(requireBundle);

  it("four engineers summoned at the same moment get four different names and missions; all end when released", async () => {
    const p = await initialized();
    const s = standIns();
    const release = join(s.records, "..", "release");
    const N = 4;
    const runs = Array.from({ length: N }, (_, i) =>
      runBinAsync(["summon", "engineer", "--assistant", (["claude", "opencode", "codex", "gemini"] as const)[i]!], {
        cwd: p.dir,
        env: s.env({ STANDIN_WAIT_FILE: release, STANDIN_EXIT: String(10 + i) }),
      }),
    );
    try {
      await waitFor(`${N} assistants started`, () => s.all().length === N, 60_000);
      const active = (await missions(p.dir)).filter((m) => m.status === "ACTIVE");
      expect(active).toHaveLength(N);
      expect(new Set(active.map((m) => m.persona)).size, active.map((m) => m.persona).join(", ")).toBe(N);
      expect(new Set(active.map((m) => m.number)).size).toBe(N);
      const handles = s.all().map((r) => r.env.PANTHEON_MISSION);
      expect(new Set(handles).size).toBe(N);
      expect(handles.sort()).toEqual(active.map((m) => m.handle).sort());
    } finally {
      writeFileSync(release, "");
    }
    const results = await Promise.all(runs);
    expect(
      results.map((r) => r.exitCode),
      results.map((r) => r.stderr).join("\n"),
    ).toEqual([10, 11, 12, 13]);
    const ended = await missions(p.dir);
    expect(ended.map((m) => m.status)).toEqual(Array(N).fill("ENDED"));
    git(p.dir, "fsck", "--strict", "--no-progress");
  });
});
