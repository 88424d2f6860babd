import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, jsonData, runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { git, stateRef, tempDir } from "../../helpers/repo.js";
import { initialized, type Repo } from "./fixture.js";
import { bareSystemPath, missions, requireBundle, standIns, waitFor } from "./stand-ins.js";

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

/**
 * A stand-in for an assistant the Director started: a process without the marker variable that
 * runs `pantheon <args>` through a shell with CLAUDECODE=1 (as claude's tool shell does), writes
 * its stdout to a file, and keeps running until `stop` exists.
 */
function fakeAssistant(p: Repo, runs: string[][]) {
  const dir = tempDir("pantheon-fake-assistant-");
  const script = join(dir, "assistant.mjs");
  const stop = join(dir, "stop");
  writeFileSync(
    script,
    `import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
const [bin, stop, out, runs] = process.argv.slice(2);
const env = { ...process.env, CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "eacbec9a-0614-4ded-b5f4-53dd3e5919b2" };
const results = JSON.parse(runs).map((args) => {
  const line = [process.execPath, bin, ...args].map((a) => "'" + a + "'").join(" ");
  const r = spawnSync("/bin/sh", ["-c", line], { env, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
});
writeFileSync(out, JSON.stringify(results));
const deadline = Date.now() + 60000;
const tick = () => (existsSync(stop) || Date.now() > deadline ? process.exit(0) : setTimeout(tick, 25));
tick();
`,
  );
  const out = join(dir, "out.json");
  const child = spawn(process.execPath, [script, BIN, stop, out, JSON.stringify(runs)], {
    cwd: p.dir,
    env: testEnv(),
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    pid: child.pid!,
    results: () =>
      waitFor("the commands run inside the stand-in", () => {
        try {
          return JSON.parse(readFileSync(out, "utf8")) as Array<{ status: number; stdout: string; stderr: string }>;
        } catch {
          return undefined;
        }
      }),
    exit: async () => {
      writeFileSync(stop, "");
      await exited;
    },
  };
}

describe("a mission started inside an assistant ends with its session (DESIGN §5)", () => {
  it("records the assistant's process: status shows it as this clone's; once the assistant exits, doctor names it and the next command ends it with a note", async () => {
    requireBundle();
    const p = await initialized();
    const a = fakeAssistant(p, [["mission", "start", "--role", "engineer", "--persona", "Brigid", "--json"]]);
    const [start] = await a.results();
    expect(start!.status, start!.stderr).toBe(0);
    expect(readdirSync(join(p.dir, ".git", "pantheon", "live")).filter((f) => f.endsWith(".json"))).toHaveLength(1);
    const m = JSON.parse(start!.stdout).data;
    const live = (await p.json(["status"], "status")).missions.find((x: any) => x.id === m.id).live;
    expect(live).toMatchObject({ state: "working", assistant: "claude", pid: a.pid });
    expect(live.detail).toContain(`started inside claude (pid ${a.pid}`);

    await a.exit();
    const doctor = await runCli(["doctor", "--json"], { cwd: p.dir });
    const finding = jsonData(doctor, "doctor").findings.find((f: any) => f.code === "W_SUMMON_GONE");
    expect(finding, "doctor names it").toMatchObject({ subject: m.id });
    expect(finding.message).toContain(`the claude session it was started in (pid ${a.pid}`);

    const next = await p.run(["task", "list"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toContain(`! ${m.id} (Brigid) ended: the claude session it was started in (pid ${a.pid} on`);
    const [ended] = await missions(p.dir);
    expect(ended).toMatchObject({ id: m.id, status: "ENDED" });
    expect(ended.summary).toMatch(
      /^the claude session it was started in \(pid \d+ on .*\) ended; ended by the next pantheon command of this clone$/,
    );
    const again = await p.run(["task", "list"]);
    expect(again.stderr, "said once").not.toContain("ended:");
  });

  it("/dismiss (mission end inside the session) ends it and leaves nothing for a later command to end", async () => {
    requireBundle();
    const p = await initialized();
    const a = fakeAssistant(p, [
      ["mission", "start", "--role", "engineer", "--persona", "Brigid", "--json"],
      ["mission", "end", "--as", "Brigid"],
    ]);
    const [, end] = await a.results();
    expect(end!.status, end!.stderr).toBe(0);
    const records = () => readdirSync(join(p.dir, ".git", "pantheon", "live")).filter((f) => f.endsWith(".json"));
    expect(records(), "the record went with the mission, while the assistant still runs").toEqual([]);
    await a.exit();
    const before = stateRef(p.dir);
    const next = await p.run(["task", "list"]);
    expect(next.stderr).not.toContain("ended:");
    expect(stateRef(p.dir)).toBe(before);
  });
});

describe("records are judged only from the PID namespace they were written in", () => {
  it("a command in another one (codex's sandbox sees its own pids) neither shows the mission stalled nor ends it", async () => {
    const p = await initialized();
    const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Brigid"], "mission");
    const uid = JSON.parse(git(p.dir, "cat-file", "-p", `refs/coordination/main:missions/01/1.json`)).uid as string;
    // A pid that is gone here; the record says it was read in another namespace.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    const dir = join(p.dir, ".git", "pantheon", "live");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${uid}.json`),
      JSON.stringify({
        mission: m.handle,
        uid,
        host: hostname(),
        pid: gone,
        processStart: "1",
        pidNamespace: "pid:[1]",
        assistant: "claude",
        sessionId: null,
        since: new Date().toISOString(),
        startedBy: "mission start",
      }),
    );
    const before = stateRef(p.dir);
    const live = (await p.json(["status"], "status")).missions[0].live;
    expect(live.state).toBe("working");
    const next = await p.run(["task", "list"]);
    expect(next.stderr).not.toContain("ended:");
    expect(stateRef(p.dir)).toBe(before);
  });
});
