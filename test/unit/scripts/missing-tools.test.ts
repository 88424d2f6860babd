/**
 * A suite whose program is missing fails in CI and skips, saying why, elsewhere: the helper the
 * vitest suites use (test/helpers/tools.ts) and the one the runner scripts use
 * (scripts/debian-packages.mjs, for test:web's Chromium). Real PATH look-ups, no stub.
 */
import { describe, expect, it, vi } from "vitest";
import { missingProgramExit } from "../../../scripts/debian-packages.mjs";
import { missingTool, titled } from "../../helpers/tools.js";

const ABSENT = "pantheon-no-such-program-4f1c";

describe("a program a suite needs", () => {
  it("present: nothing to say, in CI or not", () => {
    expect(missingTool("sh", "the shell", undefined, { CI: "true" })).toBeNull();
    expect(titled("a suite", null)).toBe("a suite");
  });

  it("missing outside CI: the suite is skipped with the program and its installer in its title", () => {
    const why = missingTool(ABSENT, "the thing it drives", undefined, {});
    expect(why).toBe(
      `${ABSENT} is not installed: the thing it drives is NOT tested here (installed by scripts/test-tools.mjs, run by npm test)`,
    );
    expect(titled("a suite", why)).toBe(`a suite (skipped: ${why})`);
  });

  it("missing in CI: a failure naming the program and the script that installs it", () => {
    expect(() => missingTool(ABSENT, "the thing it drives", undefined, { CI: "true" })).toThrow(
      new RegExp(`^${ABSENT} is not installed: .*scripts/test-tools\\.mjs.*in CI a missing program is a failure`),
    );
  });

  it("a runner script (test:web's Chromium): exit 1 in CI, a visible skip (exit 0) elsewhere", () => {
    const err = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      expect(missingProgramExit("test:web", "Chromium: not installed", "scripts/test-web.mjs", { CI: "true" })).toBe(1);
      expect(err).toHaveBeenCalledWith(expect.stringMatching(/^test:web FAILED: Chromium: .*scripts\/test-web\.mjs/));
      expect(missingProgramExit("test:web", "Chromium: not installed", "scripts/test-web.mjs", {})).toBe(0);
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/^test:web SKIPPED: Chromium: .*scripts\/test-web\.mjs/));
    } finally {
      err.mockRestore();
      log.mockRestore();
    }
  });
});
