import { describe, expect, it } from "vitest";
import type { LaunchInput } from "../../../src/assistants/adapter.js";
import { claudeAdapter, guardClaudeKickoff } from "../../../src/assistants/claude.js";
import { codexAdapter } from "../../../src/assistants/codex.js";
import { geminiAdapter } from "../../../src/assistants/gemini.js";
import { opencodeAdapter } from "../../../src/assistants/opencode.js";
import { ASSISTANTS, adapterFor } from "../../../src/assistants/registry.js";
import { UsageError } from "../../../src/errors.js";

const PERSONA = 'You are "Hephaestus".\nUse `pantheon` with --mission.\n';
const KICKOFF = "You are on mission MSN-0003:silent-phoenix. Start with pantheon task next.";
const UUID = "6f1c2a52-8e0b-4c7e-9d4a-3b2f1e0d9c8b";

function input(over: Partial<LaunchInput> = {}): LaunchInput {
  return {
    projectDir: "/repo/shop",
    personaFile: "/tmp/pantheon-x/engineer.md",
    personaText: PERSONA,
    kickoff: KICKOFF,
    role: "engineer",
    missionHandle: "MSN-0003:silent-phoenix",
    sessionId: UUID,
    ...over,
  };
}

describe("launch argv (exactly ASSISTANTS.md's table)", () => {
  it("claude", () => {
    const base = ["--append-system-prompt-file", "/tmp/pantheon-x/engineer.md"];
    const tail = ["-n", "pantheon:engineer", "--session-id", UUID, "--", KICKOFF];
    expect(claudeAdapter.launch(input())).toMatchObject({ command: "claude", args: [...base, ...tail] });
    expect(claudeAdapter.launch(input({ model: "opus" })).args).toEqual([...base, "--model", "opus", ...tail]);
  });

  it("opencode", () => {
    const l = opencodeAdapter.launch(input());
    expect(l.command).toBe("opencode");
    expect(l.args).toEqual(["/repo/shop", "--agent", "pantheon-engineer", "--prompt", KICKOFF]);
    expect(opencodeAdapter.launch(input({ model: "anthropic/claude-sonnet-4-5" })).args).toEqual([
      "/repo/shop", "--agent", "pantheon-engineer", "-m", "anthropic/claude-sonnet-4-5", "--prompt", KICKOFF,
    ]);
  });

  it("opencode defines the agent in OPENCODE_CONFIG_CONTENT with the persona as its prompt", () => {
    const config: unknown = JSON.parse(opencodeAdapter.launch(input()).env.OPENCODE_CONFIG_CONTENT!);
    expect(config).toEqual({
      agent: { "pantheon-engineer": { description: expect.stringContaining("engineer"), mode: "primary", prompt: PERSONA } },
    });
  });

  it("codex", () => {
    const persona = ["-c", `developer_instructions=${JSON.stringify(PERSONA)}`];
    expect(codexAdapter.launch(input())).toMatchObject({ command: "codex", args: ["-C", "/repo/shop", ...persona, KICKOFF] });
    expect(codexAdapter.launch(input({ model: "gpt-5-codex" })).args).toEqual(["-C", "/repo/shop", "-m", "gpt-5-codex", ...persona, KICKOFF]);
  });

  it("gemini", () => {
    const prompt = `${PERSONA}\n\n${KICKOFF}`;
    expect(geminiAdapter.launch(input())).toMatchObject({ command: "gemini", args: ["-i", prompt] });
    expect(geminiAdapter.launch(input({ model: "gemini-2.5-pro" })).args).toEqual(["-m", "gemini-2.5-pro", "-i", prompt]);
  });

  it("makes relative paths absolute (the assistants run elsewhere)", () => {
    const l = claudeAdapter.launch(input({ personaFile: "p.md", projectDir: "." }));
    expect(l.args[1]).toBe(`${process.cwd()}/p.md`);
    expect(codexAdapter.launch(input({ projectDir: "." })).args[1]).toBe(process.cwd());
    expect(opencodeAdapter.launch(input({ projectDir: "." })).args[0]).toBe(process.cwd());
  });
});

describe.each(ASSISTANTS.map((a) => [a.name, a] as const))("%s environment", (_name, adapter) => {
  const env = adapter.launch(input()).env;

  it("sets PANTHEON_MISSION to the mission handle", () => {
    expect(env.PANTHEON_MISSION).toBe("MSN-0003:silent-phoenix");
  });

  it("names no variable with KEY, TOKEN, SECRET or AUTH (codex and gemini filter those)", () => {
    for (const name of Object.keys(env)) expect(name).not.toMatch(/KEY|TOKEN|SECRET|AUTH/i);
  });

  it("builds an argv of plain strings with the mission somewhere in what the assistant reads", () => {
    const l = adapter.launch(input());
    expect(l.command).toBe(adapter.binary);
    for (const a of l.args) expect(typeof a).toBe("string");
    expect(l.args.some((a) => a.includes("MSN-0003:silent-phoenix"))).toBe(true);
  });
});

describe("claude kickoff guard", () => {
  // Claude Code's subcommands at 2.1.197; `--` does not stop claude from dispatching on them.
  const SUBCOMMANDS = ["agents", "auth", "auto-mode", "doctor", "gateway", "install", "mcp", "plugin", "plugins", "project", "setup-token", "ultrareview", "update", "upgrade"];

  it.each(SUBCOMMANDS)("a kickoff that is exactly %s is never passed as-is", (word) => {
    const args = claudeAdapter.launch(input({ kickoff: word })).args;
    const last = args.at(-1)!;
    expect(args.at(-2)).toBe("--");
    expect(last).not.toBe(word);
    expect(last).toContain(word);
    expect(last).toContain("MSN-0003:silent-phoenix");
  });

  it("also guards padded and empty kickoffs, and leaves a sentence alone", () => {
    expect(guardClaudeKickoff("  doctor \n", "M")).toBe("Pantheon mission M: doctor");
    expect(guardClaudeKickoff("", "M")).toBe("Pantheon mission M:");
    expect(guardClaudeKickoff(KICKOFF, "M")).toBe(KICKOFF);
  });
});

describe("prompts that start with a dash", () => {
  // opencode and gemini read "-…" as a missing option value, codex as an unknown flag.
  it("get one leading space where they are an option value or a positional", () => {
    expect(opencodeAdapter.launch(input({ kickoff: "-x" })).args.at(-1)).toBe(" -x");
    expect(codexAdapter.launch(input({ kickoff: "--help" })).args.at(-1)).toBe(" --help");
    expect(geminiAdapter.launch(input({ personaText: "---\ntitle: x\n---\nbody" })).args.at(-1)).toBe(` ---\ntitle: x\n---\nbody\n\n${KICKOFF}`);
  });

  it("stay as they are after claude's --", () => {
    expect(claudeAdapter.launch(input({ kickoff: "--print everything now" })).args.at(-1)).toBe("--print everything now");
  });
});

describe("registry", () => {
  it("lists the assistants in preference order, each with its binary and install hint", () => {
    expect(ASSISTANTS.map((a) => a.name)).toEqual(["claude", "opencode", "codex", "gemini"]);
    expect(ASSISTANTS.map((a) => a.binary)).toEqual(["claude", "opencode", "codex", "gemini"]);
    for (const a of ASSISTANTS) expect(a.installHint).toMatch(/^npm install -g \S+$/);
  });

  it("finds an adapter by name, case-insensitively, and refuses unknown names with exit 2", () => {
    expect(adapterFor("Codex")).toBe(codexAdapter);
    expect(() => adapterFor("cursor")).toThrow(UsageError);
    expect(() => adapterFor("cursor")).toThrow(/Unknown assistant "cursor"/);
  });
});
