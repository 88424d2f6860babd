import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { stateRef } from "../../helpers/repo.js";
import { initialized } from "./fixture.js";
import { bareSystemPath, missions, standIns } from "./stand-ins.js";

/**
 * Issue 13, point 7 and the summon start-up: `mission start` run by `/summon` inside an assistant
 * records which assistant (and its session, where the assistant tells it), from the variables
 * each one sets for its shells (docs/assistants.md); summon checks for an installed assistant
 * before it asks anything, and says which mission it started before the assistant takes the screen.
 */
describe("mission start inside an assistant records it", () => {
  it.each([
    [
      { CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "eacbec9a-0614-4ded-b5f4-53dd3e5919b2" },
      "claude",
      "eacbec9a-0614-4ded-b5f4-53dd3e5919b2",
    ],
    [
      { CODEX_THREAD_ID: "019a20a2-1552-7540-a899-284f9c132172", CODEX_SANDBOX_NETWORK_DISABLED: "1" },
      "codex",
      "019a20a2-1552-7540-a899-284f9c132172",
    ],
    [{ GEMINI_CLI: "1" }, "gemini", null],
    [{ OPENCODE: "1", AGENT: "1" }, "opencode", null],
    [{}, null, null],
  ] as const)("%j → %s", async (env, assistant, sessionId) => {
    const p = await initialized();
    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission", env);
    expect(m.assistant).toBe(assistant);
    expect(m.sessionId).toBe(sessionId);
    const shown = await p.json(["mission", "show", m.id], "mission");
    expect(shown).toMatchObject({ assistant, sessionId });
  });

  it("a session id that is not a plain token is not recorded", async () => {
    const p = await initialized();
    const m = await p.json(["mission", "start", "--role", "engineer"], "mission", {
      CLAUDECODE: "1",
      CLAUDE_CODE_SESSION_ID: "x\u001b[2J; rm -rf /",
    });
    expect(m).toMatchObject({ assistant: "claude", sessionId: null });
  });
});

describe("summon's start-up", () => {
  it("on a terminal without a role, and no assistant installed: says so at once instead of asking for a role", async () => {
    const p = await initialized();
    const before = stateRef(p.dir);
    const r = await p.run(["summon"], { PATH: bareSystemPath() });
    expect(r.exitCode, r.stderr).toBe(2); // no terminal in this run: the usage error comes first
    const tty = await runCli(["summon"], { cwd: p.dir, tty: true, env: { PATH: bareSystemPath() } });
    expect(tty.exitCode, tty.stderr).toBe(1);
    expect(tty.stderr.split("\n")[0]).toMatch(/^✗ No AI assistant is installed/);
    expect(tty.stdout).not.toMatch(/Which persona role/);
    expect(stateRef(p.dir)).toBe(before);
  });

  it("prints one ✓ line naming the mission, the persona and the assistant before starting it", async () => {
    const p = await initialized();
    const s = standIns();
    const r = await p.run(["summon", "engineer", "--assistant", "codex", "--persona", "Goibniu"], s.env());
    expect(r.exitCode, r.stderr).toBe(0);
    const [m] = await missions(p.dir);
    expect(r.stderr.split("\n")[0]).toBe(`✓ Started ${m.id} ${m.codename}: Goibniu (engineer), launching codex`);
    const quiet = await p.run(["summon", "engineer", "--assistant", "codex", "-q"], s.env());
    expect(quiet.stderr).not.toMatch(/Started/);
  });
});
