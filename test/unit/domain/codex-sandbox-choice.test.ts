import { describe, expect, it } from "vitest";
import { scanCodexConfig } from "../../../src/domain/codex-config-scan.js";
import { chosenCodexSandbox, codexTrust, type CodexLayer } from "../../../src/domain/codex-sandbox-choice.js";

const layer = (where: string, text: string): CodexLayer => ({ where, settings: scanCodexConfig(text) });

describe("chosenCodexSandbox: the sandbox a user's codex configuration chooses, in codex's order", () => {
  it.each([
    ["nothing set: codex picks by the folder's trust", [layer("user", 'model = "o3"')], null],
    ["the top level", [layer("user", 'sandbox_mode = "read-only"')], { mode: "read-only", where: "user" }],
    [
      "the selected profile over the top level",
      [layer("user", 'sandbox_mode = "read-only"\nprofile = "p"\n[profiles.p]\nsandbox_mode = "danger-full-access"')],
      { mode: "danger-full-access", where: "user [profiles.p]" },
    ],
    [
      "a profile selected in a higher layer, defined in a lower one",
      [layer("user", '[profiles.p]\nsandbox_mode = "workspace-write"'), layer("project", 'profile = "p"')],
      { mode: "workspace-write", where: "user [profiles.p]" },
    ],
    [
      "the project's file over the user's",
      [layer("user", 'sandbox_mode = "read-only"'), layer("project", 'sandbox_mode = "workspace-write"')],
      { mode: "workspace-write", where: "project" },
    ],
    [
      "a selected profile without a sandbox falls back to the top level",
      [layer("user", 'profile = "p"\nsandbox_mode = "read-only"\n[profiles.p]\nmodel = "x"')],
      { mode: "read-only", where: "user" },
    ],
    [
      "a permissions profile of the user's own",
      [layer("user", 'default_permissions = "mine"')],
      { mode: "custom", where: "user" },
    ],
    ["a value codex does not know is not guessed", [layer("user", 'sandbox_mode = "sometimes"')], null],
    [
      "a folder's table is not a choice for every folder",
      [layer("user", '[projects."/r"]\nsandbox_mode = "read-only"')],
      null,
    ],
  ] as const)("%s", (_what, layers, expected) => {
    expect(chosenCodexSandbox(layers)).toEqual(expected);
  });
});

describe("codexTrust: the folder's trust decision, looked up as codex does", () => {
  const same = (a: string, b: string) => a === b;
  const user = layer(
    "user",
    '[projects."/main"]\ntrust_level = "trusted"\n[projects."/other"]\ntrust_level = "untrusted"',
  );
  it.each([
    [["/main"], "trusted"],
    [["/wt", "/main"], "trusted"], // a linked worktree inherits its main checkout's trust
    [["/other"], "untrusted"],
    [["/nowhere"], null],
  ] as const)("%j → %s", (paths, expected) => {
    expect(codexTrust([user], paths, same)).toBe(expected);
  });
});
