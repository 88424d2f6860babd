import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runBinAsync } from "../../helpers/cli.js";
import { initialized } from "./fixture.js";
import { missions, standIns, waitFor, requireBundle } from "./stand-ins.js";

/**
 * Issue 4 acceptance: "a second concurrent engineer gets a different name". The first summon
 * is a real process (the built bundle) whose stand-in blocks until a file appears.
 */
describe("two engineers summoned at once", () => {
  beforeAll(requireBundle);

  it("the second gets a different persona name while the first is still running; both missions end", async () => {
    const p = await initialized();
    const s = standIns();
    const release = join(s.records, "..", "release");
    const first = runBinAsync(["summon", "engineer", "--assistant", "claude"], {
      cwd: p.dir,
      env: s.env({ STANDIN_WAIT_FILE: release, STANDIN_EXIT: "4" }),
    });
    try {
      const active = await waitFor("the first mission to be ACTIVE and its assistant started", async () => {
        const ms = (await missions(p.dir)).filter((m) => m.status === "ACTIVE");
        return ms.length === 1 && s.all().length === 1 ? ms[0] : undefined;
      });

      // the name is taken while its mission is ACTIVE
      const clash = await p.run(["summon", "engineer", "--assistant", "claude", "--persona", active.persona], s.env());
      expect(clash.exitCode, clash.stderr).toBe(1);
      expect(clash.stderr).toContain(active.persona);
      expect(s.all()).toHaveLength(1);

      const second = await p.run(["summon", "engineer", "--assistant", "codex"], s.env());
      expect(second.exitCode, second.stderr).toBe(0);
      const ms = await missions(p.dir);
      const other = ms.find((m) => m.assistant === "codex")!;
      expect(other.persona).not.toBe(active.persona);
      expect(other.status).toBe("ENDED");
      expect(ms.find((m) => m.id === active.id)!.status, "the first is still running").toBe("ACTIVE");
      expect(s.one("codex").env.PANTHEON_MISSION).toBe(other.handle);
      expect(s.one("claude").env.PANTHEON_MISSION).toBe(active.handle);
    } finally {
      writeFileSync(release, "");
    }
    const r = await first;
    expect(r.exitCode, r.stderr).toBe(4);
    const after = await missions(p.dir);
    expect(after.map((m) => m.status)).toEqual(after.map(() => "ENDED"));
    expect(after, "the refused --persona clash recorded no mission").toHaveLength(2);
    expect(new Set(after.map((m) => m.persona)).size).toBe(2);
  });
});
