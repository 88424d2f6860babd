import { describe, expect, it } from "vitest";
import {
  parseSharedPerm,
  PERM_EVERYBODY,
  PERM_GROUP,
  PERM_UMASK,
  sharedMode,
} from "../../../src/store/git/shared-perm.js";

describe("parseSharedPerm (git_config_perm)", () => {
  it.each([
    [undefined, PERM_UMASK],
    ["umask", PERM_UMASK],
    ["false", PERM_UMASK],
    ["0", PERM_UMASK],
    ["", PERM_UMASK],
    ["group", PERM_GROUP],
    ["true", PERM_GROUP], // also what a bare `sharedRepository` key parses to
    ["1", PERM_GROUP],
    ["yes", PERM_GROUP],
    ["all", PERM_EVERYBODY],
    ["world", PERM_EVERYBODY],
    ["everybody", PERM_EVERYBODY],
    ["2", PERM_EVERYBODY],
    ["0640", -0o640],
    ["0660", -0o660],
    ["0666", -0o666],
    ["0777", -0o666], // others never get write, x bits come from r bits
    ["0600", -0o600],
  ])("%s → %s", (value, expected) => {
    expect(parseSharedPerm(value)).toBe(expected);
  });

  it.each(["0440", "0060", "maybe"])("refuses %s as git does", (value) => {
    expect(() => parseSharedPerm(value)).toThrow(/core.sharedRepository/);
  });
});

describe("sharedMode (adjust_shared_perm), with umask 022's 0755 dirs, 0644 files, 0444 objects", () => {
  // Every expected value was read off files git 2.39 itself created under each setting.
  it.each([
    ["group", 0o2775, 0o664, 0o444],
    ["all", 0o2775, 0o664, 0o444],
    ["0640", 0o2750, 0o640, 0o440],
    ["0660", 0o2770, 0o660, 0o440],
    ["0600", 0o700, 0o600, 0o400],
    ["umask", 0o755, 0o644, 0o444],
  ])("%s: dirs %o, files %o, loose objects %o", (value, dir, file, object) => {
    const perm = parseSharedPerm(value);
    expect(sharedMode(perm, 0o755, true)).toBe(dir);
    expect(sharedMode(perm, 0o644, false)).toBe(file);
    expect(sharedMode(perm, 0o444, false)).toBe(object);
    // Applying it twice changes nothing (doctor compares a path's mode with this).
    expect(sharedMode(perm, dir, true)).toBe(dir);
    expect(sharedMode(perm, file, false)).toBe(file);
  });
});
