import { describe, expect, it } from "vitest";
import { scanCodexConfig } from "../../../src/domain/codex-config-scan.js";
import { opensGitDir } from "../../../src/services/doctor/codex-sandbox-findings.js";

describe("scanCodexConfig: the settings that decide what codex's sandbox lets a model write", () => {
  it("finds sandbox_mode, writable_roots, the profile and each folder's trust under their tables, in every form codex reads", () => {
    const text = [
      'sandbox_mode = "danger-full-access" # everything',
      'profile = "fast"',
      'projects."/srv/x".trust_level = "untrusted"',
      "[sandbox_workspace_write]",
      'writable_roots = ["/a", # first',
      "  '/b#not-a-comment',",
      "]",
      "network_access = true",
      "",
      '[projects."/home/u/my.repo"]',
      'trust_level = "trusted"',
      "sandbox_mode = 'workspace-write'",
      "",
      "[profiles.fast]",
      'sandbox_workspace_write = { writable_roots = ["/c"], network_access = false }',
      "[profiles.slow]",
      'sandbox_workspace_write.writable_roots = ["/d\\u0041"]',
      'default_permissions = "mine"',
      'profile = "not-at-the-top"',
      '# sandbox_mode = "danger-full-access"',
      'projects."/srv/x".trust_level = "untrusted" # a profile has no folders of its own',
    ].join("\n");
    expect(scanCodexConfig(text)).toEqual([
      { table: "", key: "sandbox_mode", values: ["danger-full-access"] },
      { table: "", key: "profile", values: ["fast"] },
      { table: "projects./srv/x", key: "trust_level", values: ["untrusted"] },
      { table: "", key: "writable_roots", values: ["/a", "/b#not-a-comment"] },
      { table: "projects./home/u/my.repo", key: "trust_level", values: ["trusted"] },
      { table: "projects./home/u/my.repo", key: "sandbox_mode", values: ["workspace-write"] },
      { table: "profiles.fast", key: "writable_roots", values: ["/c"] },
      { table: "profiles.slow", key: "writable_roots", values: ["/dA"] },
      { table: "profiles.slow", key: "default_permissions", values: ["mine"] },
    ]);
  });

  it("skips what it cannot read rather than guessing", () => {
    expect(scanCodexConfig("sandbox_mode = \nwritable_roots = [\n[broken")).toEqual([]);
  });
});

describe("opensGitDir: whether a writable root lets the model write the common dir's hooks or config", () => {
  const ours = ["/r/.git/refs/coordination", "/r/.git/logs/refs/coordination", "/r/.git/objects", "/r/.git/pantheon"];
  it.each([
    ["/r/.git", true], // the common dir itself (what init printed before)
    ["/", true], // above the repository: codex protects only <root>/.git
    ["/r/.git/hooks", true],
    ["/r/.git/refs", true],
    ["/r", false], // the repository: codex keeps its .git read-only
    ["/r/.git/pantheon", false],
    ["/r/.git/objects/pack", false],
    ["/elsewhere", false],
  ])("%s → %s", (root, opens) => {
    expect(opensGitDir(root, "/r/.git", ours)).toBe(opens);
  });
});
