import { describe, expect, expectTypeOf, it } from "vitest";
import { ASSISTANT_MARKERS, assistantFromEnv } from "../../../src/assistants/assistant-env.js";
import { ADAPTERS, ASSISTANTS, isAssistantName } from "../../../src/assistants/registry.js";
import { ASSISTANT_NAMES, type AssistantName } from "../../../src/domain/assistant-names.js";
import { CONFIG_KEYS_HINT } from "../../../src/domain/config-issue.js";
import { defaultSettings, settingsFromConfig, type ConfigDocument } from "../../../src/domain/project-config.js";
import { signalOf } from "../../../src/domain/live-state.js";
import { DECLINES_SILENTLY } from "../../../src/services/live/live-events.js";
import { PANTHEON_FILES } from "../../../src/services/worktrees/persona-worktree.js";
import { UsageError } from "../../../src/errors.js";

/**
 * The adapter is the one seam per assistant (docs/architecture.md, "How to add an assistant"):
 * the compiler finds a name without an adapter and an adapter without a member; these find what
 * the compiler cannot, the places that must agree with the list by value.
 */
describe("the assistant registry", () => {
  it("holds one adapter per name of the list, under its own name, in the list's order", () => {
    expect(Object.keys(ADAPTERS).sort()).toEqual([...ASSISTANT_NAMES].sort());
    for (const [key, adapter] of Object.entries(ADAPTERS)) expect(adapter.name).toBe(key);
    expect(ASSISTANTS.map((a) => a.name)).toEqual([...ASSISTANT_NAMES]);
    for (const n of ASSISTANT_NAMES) expect(isAssistantName(n)).toBe(true);
    expect(isAssistantName("no-such-assistant")).toBe(false);
  });

  it("is what the project config accepts as its assistant, and nothing else", () => {
    expectTypeOf<NonNullable<ConfigDocument["assistant"]>>().toEqualTypeOf<AssistantName>();
    const base = defaultSettings("shop");
    for (const n of ASSISTANT_NAMES) expect(settingsFromConfig({ assistant: n }, base, "p.yaml").assistant).toBe(n);
    let refused: unknown;
    try {
      settingsFromConfig({ assistant: "no-such-assistant" }, base, "p.yaml");
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(UsageError);
    // The refusal says what is accepted: every name of the list.
    for (const n of ASSISTANT_NAMES) expect((refused as UsageError).message).toContain(n);
    expect(CONFIG_KEYS_HINT).toContain("assistant");
  });

  it.each(ASSISTANTS.map((a) => [a.name, a] as const))("%s: its shell markers name it, and only it", (name, a) => {
    expect(a.shellMarkers.length).toBeGreaterThan(0);
    for (const m of a.shellMarkers) {
      expect(ASSISTANT_MARKERS).toContain(m);
      // Each marker as the assistant sets it ("1"; codex's thread id is an id).
      expect(assistantFromEnv({ [m]: "1" })?.assistant).toBe(name);
      for (const other of ASSISTANTS) if (other !== a) expect(other.shellMarkers).not.toContain(m);
    }
  });

  it.each(ASSISTANTS.map((a) => [a.name, a] as const))(
    "%s: every event its hooks send is one live status maps",
    (_name, a) => {
      expect(a.hookEvents.length).toBeGreaterThan(0);
      // Notification and session.status say something only with their kind; the rest always do.
      const payloads = [{}, { notification_type: "permission_prompt" }, { status: "idle" }];
      for (const e of a.hookEvents)
        expect(
          payloads.some((p) => signalOf(e, p) !== null),
          e,
        ).toBe(true);
    },
  );

  it("declines silently exactly where live status watches the transcript", () => {
    expect(ASSISTANTS.filter((a) => a.declinesSilently).map((a) => a.name)).toEqual([...DECLINES_SILENTLY]);
  });

  it.each(ASSISTANTS.map((a) => [a.name, a] as const))(
    "%s: every file it installs lies under one of its project paths, which a worktree copies",
    (_name, a) => {
      const installed = [...a.commandFiles({ cli: "pantheon" }).map((f) => f.path)];
      if (a.instructionsFile) installed.push(a.instructionsFile.path);
      for (const p of installed)
        expect(
          a.projectPaths.some((root) => p === root || p.startsWith(`${root}/`)),
          p,
        ).toBe(true);
      for (const root of a.projectPaths) expect(PANTHEON_FILES).toContain(root);
    },
  );

  it.each(ASSISTANTS.map((a) => [a.name, a] as const))("%s: its MCP entry runs the command given", (name, a) => {
    const c = a.mcpConfig(["pantheon", "mcp"]);
    expect(c.assistant).toBe(name);
    expect(c.path).not.toMatch(/^\/|\.\./);
    expect(JSON.stringify(c.format === "json" ? c.entry : c.text)).toContain("mcp");
  });
});
