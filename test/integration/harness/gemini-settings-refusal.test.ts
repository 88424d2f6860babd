import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { geminiSettingsRefusal } from "../../assistants/gemini-settings.js";

/**
 * `npm run test:assistants` skips gemini's live-status tests (fails them in CI) where gemini
 * would refuse the session's settings file: under /tmp it waited 180 s for a state that never came.
 */
describe("geminiSettingsRefusal", () => {
  it("names a folder writable by others above the settings (/tmp, a 0777 folder)", () => {
    const why = /is writable by group or others|owned by root|uid/;
    expect(geminiSettingsRefusal(join(tmpdir(), "pantheon-real-worlds"))).toMatch(why);
    const open = mkdtempSync(join(tmpdir(), "pantheon-gemini-"));
    onTestFinished(() => rmSync(open, { recursive: true, force: true }));
    chmodSync(open, 0o777);
    expect(geminiSettingsRefusal(join(open, "worlds"))).toMatch(why);
  });

  it.runIf(process.getuid?.() === 0)("accepts root-owned folders writable only by root", () => {
    const base = join(homedir(), ".cache");
    mkdirSync(base, { recursive: true, mode: 0o755 });
    const dir = mkdtempSync(join(base, "pantheon-gemini-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    chmodSync(dir, 0o755);
    expect(geminiSettingsRefusal(join(dir, "worlds"))).toBeNull();
  });
});
