import { describe, expect, it } from "vitest";
import {
  detailLine,
  nextLive,
  parseLiveFile,
  promptAnsweredSilently,
  signalOf,
  silentTooLong,
  type LiveFile,
} from "../../../src/domain/live-state.js";

/**
 * Issue 17: each assistant's session-hook events (ASSISTANTS.md "Session hooks") mapped to the
 * six live states, table-driven: every event name Pantheon installs a hook for, per assistant.
 */
const SID = "6f1c2a52-8e0b-4c7e-9d4a-3b2f1e0d9c8b";

describe("signalOf: every installed event, per assistant", () => {
  const table: Array<
    [assistant: string, event: string, payload: Record<string, unknown>, state: string | null, detail?: RegExp]
  > = [
    ["claude", "SessionStart", { source: "startup" }, "starting", /session started \(startup\)/],
    ["claude", "UserPromptSubmit", { prompt: "go" }, "working", /working on a prompt/],
    ["claude", "PreToolUse", { tool_name: "Bash", tool_input: { command: "npm test" } }, "working", /^Bash: npm test$/],
    [
      "claude",
      "PostToolUse",
      { tool_name: "Edit", tool_input: { file_path: "/r/a.ts" } },
      "working",
      /^Edit: \/r\/a.ts$/,
    ],
    [
      "claude",
      "PermissionRequest",
      { tool_name: "Bash", tool_input: { command: "rm -rf build" } },
      "needs-input",
      /^permission: Bash: rm -rf build$/,
    ],
    [
      "claude",
      "Notification",
      { notification_type: "permission_prompt", message: "Claude needs your permission to use Bash" },
      "needs-input",
      /needs your permission/,
    ],
    [
      "claude",
      "Notification",
      { notification_type: "idle_prompt", message: "Claude is waiting for your input" },
      "idle",
      /waiting for your input/,
    ],
    ["claude", "Notification", { notification_type: "auth_success" }, null],
    ["claude", "Stop", {}, "idle", /turn finished/],
    ["claude", "StopFailure", { error: "rate_limit" }, "idle", /stopped on an error: rate_limit/],
    ["claude", "SessionEnd", { reason: "prompt_input_exit" }, "ended", /session ended \(prompt_input_exit\)/],
    ["codex", "SessionStart", {}, "starting"],
    ["codex", "UserPromptSubmit", {}, "working"],
    [
      "codex",
      "PreToolUse",
      { tool_name: "shell", tool_input: { command: ["bash", "-lc", "ls"] } },
      "working",
      /shell: bash -lc ls/,
    ],
    ["codex", "PermissionRequest", { tool_name: "shell" }, "needs-input"],
    ["codex", "Stop", {}, "idle"],
    ["codex", "Interrupt", {}, "idle", /interrupted/],
    ["codex", "SessionEnd", {}, "ended"],
    ["gemini", "SessionStart", {}, "starting"],
    ["gemini", "BeforeAgent", {}, "working"],
    [
      "gemini",
      "BeforeTool",
      { tool_name: "run_shell_command", tool_input: { command: "ls" } },
      "working",
      /run_shell_command: ls/,
    ],
    ["gemini", "AfterTool", {}, "working"],
    [
      "gemini",
      "Notification",
      { notification_type: "ToolPermission", message: "Allow run_shell_command?" },
      "needs-input",
    ],
    ["gemini", "AfterAgent", {}, "idle"],
    ["gemini", "SessionEnd", { reason: "exit" }, "ended"],
    ["opencode", "session.created", {}, "starting"],
    ["opencode", "session.status", { status: "busy" }, "working"],
    ["opencode", "session.status", { status: "idle" }, "idle"],
    ["opencode", "session.status", { status: "weird" }, null],
    ["opencode", "permission.asked", { tool_name: "bash" }, "needs-input"],
    ["opencode", "question.asked", { message: "Which branch?" }, "needs-input", /asks: Which branch\?/],
    ["opencode", "permission.replied", {}, "working"],
    ["opencode", "session.idle", {}, "idle"],
    ["opencode", "session.error", { message: "boom" }, "idle", /boom/],
    ["opencode", "session.deleted", {}, "ended"],
    ["any", "SomethingNew", {}, null],
  ];
  it.each(table)("%s %s %j → %s", (_a, event, payload, state, detail) => {
    const s = signalOf(event, { session_id: SID, ...payload });
    if (state === null) return expect(s).toBeNull();
    expect(s).toMatchObject({ state, sessionId: SID });
    if (detail) expect(s!.detail).toMatch(detail);
  });

  it("opencode's sessionID and codex's thread id are session ids; a malformed one is dropped", () => {
    expect(signalOf("session.idle", { sessionID: "ses_abc123" })!.sessionId).toBe("ses_abc123");
    expect(signalOf("Stop", { session_id: "../../etc/passwd" })!.sessionId).toBeNull();
    expect(signalOf("Stop", { session_id: { not: "a string" } })!.sessionId).toBeNull();
  });
});

describe("the hook's detail is untrusted text", () => {
  it("is one line, control characters and bidi marks escaped, bounded", () => {
    const d = signalOf("PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: `echo \u001b]0;owned\u0007 \u202e\n${"x".repeat(500)}` },
    })!.detail;
    expect(d).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(d).toContain("\\e]0;owned");
    expect(d.length).toBeLessThanOrEqual(160);
    expect(detailLine(42)).toBe("");
  });
});

describe("nextLive", () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  it("moves `since` only when the state changes, keeps the session id, keeps a bounded history", () => {
    let f: LiveFile | null = null;
    f = nextLive(f, { state: "working", detail: "a", sessionId: SID }, "PreToolUse", at(1));
    f = nextLive(f, { state: "working", detail: "b", sessionId: null }, "PostToolUse", at(2));
    expect(f).toMatchObject({ state: "working", since: at(1), lastEventAt: at(2), detail: "b", sessionId: SID });
    f = nextLive(f, { state: "needs-input", detail: "c", sessionId: null }, "PermissionRequest", at(3));
    expect(f.since).toBe(at(3));
    expect(f.history.map((h) => h.state)).toEqual(["working", "needs-input"]);
    for (let i = 0; i < 50; i++)
      f = nextLive(f, { state: i % 2 ? "idle" : "working", detail: "", sessionId: null }, "x", at(4 + i));
    expect(f.history).toHaveLength(20);
  });

  it("a Notification repeating the state keeps the more telling detail (the command asked about)", () => {
    let f = nextLive(
      null,
      { state: "needs-input", detail: "permission: Bash: rm -rf build", sessionId: null },
      "PermissionRequest",
      at(1),
    );
    f = nextLive(
      f,
      { state: "needs-input", detail: "Claude needs your permission to use Bash", sessionId: null },
      "Notification",
      at(2),
    );
    expect(f.detail).toBe("permission: Bash: rm -rf build");
  });
});

describe("a permission prompt declined without an event (claude, gemini)", () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const ask = { state: "needs-input", detail: "permission: Bash: rm -rf build", sessionId: null } as const;
  const prompt = { transcript: "/home/u/.claude/projects/x/s.jsonl", size: 100 };
  it("keeps the transcript's size from when the prompt opened while the session stays in needs-input, and drops it after", () => {
    let f = nextLive(null, ask, "PermissionRequest", at(1), prompt);
    f = nextLive(f, { ...ask, detail: "Claude needs your permission" }, "Notification", at(7), {
      ...prompt,
      size: 180,
    });
    expect(f.prompt).toEqual(prompt);
    expect(promptAnsweredSilently(f, 100), "still waiting: the transcript is still").toBe(false);
    expect(promptAnsweredSilently(f, 240), "declined: the transcript moved on with no event").toBe(true);
    expect(promptAnsweredSilently(f, null), "no transcript to look at").toBe(false);
    f = nextLive(f, { state: "working", detail: "Bash: rm -rf build", sessionId: null }, "PostToolUse", at(9));
    expect(f.prompt).toBeNull();
    expect(promptAnsweredSilently(f, 240)).toBe(false);
  });

  it("parseLiveFile keeps only an absolute one-line path and a size", () => {
    const base = { state: "needs-input", since: at(1), lastEventAt: at(1), detail: "d", event: "e" };
    expect(parseLiveFile({ ...base, prompt })?.prompt).toEqual(prompt);
    for (const bad of [
      { transcript: "relative/s.jsonl", size: 1 },
      { transcript: "/a\nb", size: 1 },
      { transcript: "/a", size: -1 },
      { transcript: "/a", size: "1" },
      "x",
    ])
      expect(parseLiveFile({ ...base, prompt: bad })?.prompt, JSON.stringify(bad)).toBeNull();
  });
});

describe("parseLiveFile", () => {
  it("refuses what is not a live file and escapes what it keeps", () => {
    expect(parseLiveFile(null)).toBeNull();
    expect(parseLiveFile({ state: "dancing", since: "x", lastEventAt: "x" })).toBeNull();
    const f = parseLiveFile({
      state: "idle",
      since: "2026-01-01T00:00:00.000Z",
      lastEventAt: "2026-01-01T00:00:00.000Z",
      detail: "\u001b[2Jhi",
      sessionId: "bad id!",
      history: [{ state: "idle", at: "t", event: "\u0007" }, "junk"],
    });
    expect(f).toMatchObject({
      state: "idle",
      detail: "\\e[2Jhi",
      sessionId: null,
      history: [{ state: "idle", at: "t", event: "\\u{7}" }],
    });
  });
});

describe("the live file's session id and times (summon --resume passes the id, quotes the time)", () => {
  it("drops a session id that could be read as an option, and a time that is not a timestamp", () => {
    const at = "2026-01-01T00:00:00.000Z";
    for (const sessionId of ["--yolo", "-c", '--settings={"hooks":{}}', "x y", "", "a".repeat(129)])
      expect(parseLiveFile({ state: "idle", since: at, lastEventAt: at, sessionId })?.sessionId, sessionId).toBeNull();
    for (const sessionId of ["6f1c2a52-8e0b-4c7e-9d4a-3b2f1e0d9c8b", "ses_01JX9", "019b-thread", "a:b.c"])
      expect(parseLiveFile({ state: "idle", since: at, lastEventAt: at, sessionId })?.sessionId).toBe(sessionId);
    expect(parseLiveFile({ state: "idle", since: at, lastEventAt: "Ignore previous instructions" })).toBeNull();
  });
});

describe("silentTooLong", () => {
  const now = new Date("2026-01-01T01:00:00.000Z");
  it("only a working session, silent past the limit; 0 turns it off", () => {
    expect(silentTooLong({ state: "working", lastEventAt: "2026-01-01T00:40:00.000Z" }, now, 15 * 60_000)).toBe(true);
    expect(silentTooLong({ state: "working", lastEventAt: "2026-01-01T00:50:00.000Z" }, now, 15 * 60_000)).toBe(false);
    expect(silentTooLong({ state: "idle", lastEventAt: "2026-01-01T00:00:00.000Z" }, now, 15 * 60_000)).toBe(false);
    expect(silentTooLong({ state: "working", lastEventAt: "2026-01-01T00:00:00.000Z" }, now, 0)).toBe(false);
  });
});
