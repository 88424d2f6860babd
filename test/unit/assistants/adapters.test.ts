import { describe, expect, it } from "vitest";
import type { LaunchInput } from "../../../src/assistants/adapter.js";
import { INLINE_LIMIT_BYTES } from "../../../src/assistants/adapter.js";
import { claudeAdapter, claudeHookSettings, guardClaudeKickoff } from "../../../src/assistants/claude.js";
import { codexAdapter, codexHookConfig, codexWritableRootsLine } from "../../../src/assistants/codex.js";
import { geminiAdapter, geminiHookSettings, geminiPolicy } from "../../../src/assistants/gemini.js";
import { opencodeAdapter, opencodeConfigContent, opencodePlugin } from "../../../src/assistants/opencode.js";
import { ASSISTANTS, adapterFor } from "../../../src/assistants/registry.js";
import { UsageError } from "../../../src/errors.js";

const PERSONA = 'You are "Hephaestus".\nUse `pantheon` with --mission.\n';
const KICKOFF = "You are on mission MSN-0003:silent-phoenix. Start with pantheon task next.";
const UUID = "6f1c2a52-8e0b-4c7e-9d4a-3b2f1e0d9c8b";

const WRITABLE = [
  "/repo/shop/.git/refs/coordination",
  "/repo/shop/.git/logs/refs/coordination",
  "/repo/shop/.git/objects",
  "/repo/shop/.git/pantheon",
];

function input(over: Partial<LaunchInput> = {}): LaunchInput {
  return {
    projectDir: "/repo/shop",
    personaFile: "/tmp/pantheon-x/engineer.md",
    personaText: PERSONA,
    sessionDir: "/repo/shop/.git/pantheon/sessions/MSN-0003-silent-phoenix",
    writableDirs: WRITABLE,
    parentEnv: {},
    kickoff: KICKOFF,
    role: "engineer",
    missionHandle: "MSN-0003:silent-phoenix",
    sessionId: UUID,
    liveId: "0123456789abcdef",
    ...over,
  };
}

const SESSION = "/repo/shop/.git/pantheon/sessions/MSN-0003-silent-phoenix";

describe("launch argv (docs/assistants.md)", () => {
  it("claude: the persona file appended to its system prompt, pantheon pre-approved, its session id", () => {
    const base = [
      "--append-system-prompt-file=/tmp/pantheon-x/engineer.md",
      "--allowedTools=Bash(pantheon:*)",
      `--settings=${claudeHookSettings("pantheon")}`,
    ];
    const tail = ["--name=pantheon:engineer", `--session-id=${UUID}`, "--", KICKOFF];
    expect(claudeAdapter.launch(input())).toMatchObject({ command: "claude", args: [...base, ...tail], files: [] });
    expect(claudeAdapter.launch(input({ model: "opus" })).args).toEqual([...base, "--model=opus", ...tail]);
    expect(claudeAdapter.takesSessionId).toBe(true);
  });

  it("opencode: no --agent (its base prompt stays), the persona file as an instructions entry", () => {
    const l = opencodeAdapter.launch(input());
    expect(l.command).toBe("opencode");
    expect(l.args).toEqual(["/repo/shop", `--prompt=${KICKOFF}`]);
    expect(opencodeAdapter.launch(input({ model: "anthropic/claude-sonnet-4-5" })).args).toEqual([
      "/repo/shop",
      "--model=anthropic/claude-sonnet-4-5",
      `--prompt=${KICKOFF}`,
    ]);
    expect(JSON.parse(l.env.OPENCODE_CONFIG_CONTENT!)).toEqual({
      instructions: ["/tmp/pantheon-x/engineer.md"],
      plugin: [`file://${SESSION}/pantheon-live.js`],
    });
    expect(l.files).toEqual([{ path: `${SESSION}/pantheon-live.js`, content: opencodePlugin("pantheon") }]);
  });

  it("opencode keeps a user's own OPENCODE_CONFIG_CONTENT, adding to its instructions", () => {
    const user = JSON.stringify({
      model: "anthropic/x",
      instructions: ["/home/u/rules.md"],
      permission: { edit: "ask" },
    });
    expect(JSON.parse(opencodeConfigContent("/p.md", user))).toEqual({
      model: "anthropic/x",
      instructions: ["/home/u/rules.md", "/p.md"],
      permission: { edit: "ask" },
    });
    expect(JSON.parse(opencodeConfigContent("/p.md", "not json"))).toEqual({ instructions: ["/p.md"] });
    expect(JSON.parse(opencodeConfigContent("/p.md", "[1]"))).toEqual({ instructions: ["/p.md"] });
    const l = opencodeAdapter.launch(input({ parentEnv: { OPENCODE_CONFIG_CONTENT: user } }));
    expect(JSON.parse(l.env.OPENCODE_CONFIG_CONTENT!).instructions).toEqual([
      "/home/u/rules.md",
      "/tmp/pantheon-x/engineer.md",
    ]);
  });

  it("codex: exactly pantheon's folders of the common dir writable (never the common dir), the persona as developer instructions", () => {
    const persona = [
      `--config=developer_instructions=${JSON.stringify(PERSONA)}`,
      '--config=shell_environment_policy.set.PANTHEON_MISSION="MSN-0003:silent-phoenix"',
      "--config=features.daemon_auto_start=false",
      "--enable=hooks",
      ...codexHookConfig("pantheon").map((v) => `--config=${v}`),
    ];
    const dirs = ["--cd=/repo/shop", "--sandbox=workspace-write", ...WRITABLE.map((d) => `--add-dir=${d}`)];
    expect(codexAdapter.launch(input())).toMatchObject({
      command: "codex",
      args: [...dirs, ...persona, "--", KICKOFF],
    });
    expect(codexAdapter.launch(input({ model: "gpt-5-codex" })).args).toEqual([
      ...dirs,
      "--model=gpt-5-codex",
      ...persona,
      "--",
      KICKOFF,
    ]);
    const args = codexAdapter.launch(input()).args;
    expect(args.filter((a) => a.startsWith("--add-dir=")).map((a) => a.slice("--add-dir=".length))).toEqual(WRITABLE);
    expect(args).not.toContain("--add-dir=/repo/shop/.git");
    expect(codexWritableRootsLine(WRITABLE)).toBe(
      'writable_roots = ["/repo/shop/.git/refs/coordination", "/repo/shop/.git/logs/refs/coordination", "/repo/shop/.git/objects", "/repo/shop/.git/pantheon"]',
    );
  });

  it("codex: workspace-write unless the user chose a sandbox; read-only, which refuses writable roots, gets none", () => {
    const flags = (mode: "read-only" | "workspace-write" | "danger-full-access" | "custom" | null) =>
      codexAdapter
        .launch(input({ sandbox: mode === null ? null : { mode, where: "~/.codex/config.toml" } }))
        .args.filter((a) => a.startsWith("--sandbox") || a.startsWith("--add-dir"));
    const roots = WRITABLE.map((d) => `--add-dir=${d}`);
    expect(flags(null)).toEqual(["--sandbox=workspace-write", ...roots]);
    expect(flags("workspace-write")).toEqual(["--sandbox=workspace-write", ...roots]);
    expect(flags("danger-full-access")).toEqual(roots);
    expect(flags("custom")).toEqual(roots);
    expect(flags("read-only")).toEqual([]);
  });

  it("codex: a persona too long for one argument is read from its file instead (never E2BIG)", () => {
    const long = "x".repeat(INLINE_LIMIT_BYTES + 1);
    const args = codexAdapter.launch(input({ personaText: long })).args;
    const dev = args.find((a) => a.startsWith("--config=developer_instructions="))!;
    expect(dev.length).toBeLessThan(1000);
    expect(dev).toContain("/tmp/pantheon-x/engineer.md");
    for (const a of args) expect(Buffer.byteLength(a)).toBeLessThanOrEqual(INLINE_LIMIT_BYTES + 100);
  });

  it("gemini: the persona as a GEMINI.md of an included directory, a policy pre-approving pantheon, its session id", () => {
    const l = geminiAdapter.launch(input());
    const context = `${SESSION}/gemini-context`;
    const policy = `${SESSION}/gemini-policy.toml`;
    expect(l.args).toEqual([
      `--include-directories=${context}`,
      `--policy=${policy}`,
      `--session-id=${UUID}`,
      l.args.at(-1),
    ]);
    expect(l.args.at(-1)).toMatch(/^--prompt-interactive=/);
    expect(l.args.at(-1)).toContain(KICKOFF);
    expect(l.args.at(-1)).toContain(`${context}/GEMINI.md`);
    expect(l.args.at(-1)).not.toContain(PERSONA);
    expect(l.files).toEqual([
      { path: `${context}/GEMINI.md`, content: PERSONA },
      { path: policy, content: geminiPolicy("pantheon") },
      { path: `${SESSION}/gemini-system-defaults.json`, content: geminiHookSettings("pantheon") },
    ]);
    expect(l.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH).toBe(`${SESSION}/gemini-system-defaults.json`);
    expect(geminiPolicy("pantheon")).toMatch(
      /toolName = "run_shell_command"\ncommandPrefix = "pantheon"\ndecision = "allow"/,
    );
    expect(geminiAdapter.launch(input({ model: "gemini-2.5-pro" })).args.slice(0, 2)).toEqual([
      "--model=gemini-2.5-pro",
      `--include-directories=${context}`,
    ]);
  });

  it("every file an adapter writes is inside the session folder", () => {
    for (const a of ASSISTANTS)
      for (const f of a.launch(input()).files)
        expect(f.path.startsWith(`${SESSION}/`), `${a.name}: ${f.path}`).toBe(true);
  });

  it("makes relative paths absolute (the assistants run elsewhere)", () => {
    const l = claudeAdapter.launch(input({ personaFile: "p.md", projectDir: "." }));
    expect(l.args[0]).toBe(`--append-system-prompt-file=${process.cwd()}/p.md`);
    expect(codexAdapter.launch(input({ projectDir: "." })).args[0]).toBe(`--cd=${process.cwd()}`);
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
  const SUBCOMMANDS = [
    "agents",
    "auth",
    "auto-mode",
    "doctor",
    "gateway",
    "install",
    "mcp",
    "plugin",
    "plugins",
    "project",
    "setup-token",
    "ultrareview",
    "update",
    "upgrade",
  ];

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
  // Apart from their option, opencode and gemini read "-…" as a missing value and codex as an
  // unknown flag; joined to it (`--prompt=-x`) or after `--`, each reads it as the prompt.
  it("stay whole: joined to their option, or after --", () => {
    expect(opencodeAdapter.launch(input({ kickoff: "-x" })).args.at(-1)).toBe("--prompt=-x");
    expect(codexAdapter.launch(input({ kickoff: "--help" })).args.slice(-2)).toEqual(["--", "--help"]);
    expect(
      geminiAdapter
        .launch(input({ kickoff: "-x" }))
        .args.at(-1)!
        .startsWith("--prompt-interactive=-x"),
    ).toBe(true);
    expect(claudeAdapter.launch(input({ kickoff: "--print everything now" })).args.slice(-2)).toEqual([
      "--",
      "--print everything now",
    ]);
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

describe("session hooks (issue 17): the same command in every session, the mission from PANTHEON_LIVE", () => {
  it("claude --settings: one command hook per event, each `pantheon hook event claude <Event>`", () => {
    const s = JSON.parse(claudeHookSettings("pantheon"));
    expect(Object.keys(s.hooks)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PermissionRequest",
      "Notification",
      "Stop",
      "StopFailure",
      "SessionEnd",
    ]);
    expect(s.hooks.Notification).toEqual([
      { matcher: "", hooks: [{ type: "command", command: "pantheon hook event claude Notification", timeout: 10 }] },
    ]);
  });

  it("codex -c hooks.<Event>: byte-identical for two missions (its trust is a hash of the command)", () => {
    const a = codexAdapter.launch(input()).args;
    const b = codexAdapter.launch(input({ missionHandle: "MSN-0009:other-name", liveId: "fedcba9876543210" })).args;
    const hooks = (args: string[]) => args.filter((x) => x.startsWith("--config=hooks."));
    expect(hooks(a)).toEqual(hooks(b));
    expect(hooks(a)).toContain(
      '--config=hooks.PermissionRequest=[{hooks=[{type="command",command="pantheon hook event codex PermissionRequest",timeout=3}]}]',
    );
    expect(codexAdapter.launch(input()).env.PANTHEON_LIVE).toBe("0123456789abcdef");
  });

  it("gemini: its session's system-defaults file carries the hooks; opencode: a plugin of this session that runs the hook command", () => {
    const g = JSON.parse(geminiHookSettings("pantheon"));
    expect(g.hooks.AfterAgent[0].hooks[0].command).toBe("pantheon hook event gemini AfterAgent");
    expect(g.hooksConfig).toEqual({ notifications: false });
    expect(opencodePlugin("pantheon")).toContain('spawn(CLI, ["hook", "event", "opencode", event]');
    const user = JSON.stringify({ plugin: ["my-plugin"] });
    expect(JSON.parse(opencodeConfigContent("/p.md", user, "/s/pantheon-live.js")).plugin).toEqual([
      "my-plugin",
      "file:///s/pantheon-live.js",
    ]);
  });
});
