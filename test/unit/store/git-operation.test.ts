import { describe, expect, it } from "vitest";
import { gitOperation } from "../../../src/store/repo/run-git.js";

// A time limit or failure message names what git was doing: an adoption that timed out once said
// "git -c did not finish", the global option taken for the command.
describe("gitOperation", () => {
  it.each([
    [
      ["-c", "protocol.version=2", "fetch", "--no-tags", "origin", "+refs/coordination/main*:x"],
      "git fetch from origin",
    ],
    [["-C", "/repo", "-c", "a=b", "push", "--porcelain", "upstream", "refs/coordination/main"], "git push to upstream"],
    [["-c", "core.sshCommand=ssh", "ls-remote", "origin"], "git ls-remote"],
    [["rev-list", "--count", "a..b"], "git rev-list"],
    [["fetch"], "git fetch"],
  ])("%j is %j", (args, said) => {
    expect(gitOperation(args)).toBe(said);
  });

  it("never names a global option as the operation", () => {
    for (const args of [
      ["-c", "x=y", "fetch", "origin"],
      ["-c", "x=y", "-c", "z=w", "merge-base", "a", "b"],
    ])
      expect(gitOperation(args)).not.toMatch(/^git -/);
  });
});
