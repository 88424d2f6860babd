import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN, jsonData, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git, tempDir } from "../helpers/repo.js";
import { initialized, type Repo } from "../integration/persona/fixture.js";
import {
  missions,
  requireBundle,
  standIns,
  waitFor,
  type AssistantName,
  type StandIns,
} from "../integration/persona/stand-ins.js";

/**
 * Issue 17 (DESIGN §5, live status): `pantheon hook event`, run by a summoned session's hooks,
 * keeps the session's live state in `<commondir>/pantheon/live/`; `status` and the dashboard
 * show it; entering needs-input or idle notifies the Director (notify-send, and the bell and OSC
 * 9/777 in a watching terminal). A stand-in assistant holds the session open while the test
 * fires the hook exactly as an assistant runs it: the built bundle, JSON on stdin.
 */

interface Session {
  p: Repo;
  s: StandIns;
  uid: string;
  mission: any;
  /** The folder of the stand-in notify-send and the file it appends its argv to. */
  notifyLog: string;
  env: NodeJS.ProcessEnv;
  finish(): Promise<number | null>;
}

/** A `notify-send` that appends its argv (one JSON line per call) to a file. */
function fakeNotifySend(): { dir: string; log: string } {
  const dir = tempDir("pantheon-notify-");
  const log = join(dir, "calls.jsonl");
  writeFileSync(
    join(dir, "notify-send"),
    `#!/bin/sh\nexec '${process.execPath}' -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)) + "\\n")' '${log}' "$@"\n`,
  );
  chmodSync(join(dir, "notify-send"), 0o755);
  return { dir, log };
}

async function summoned(assistant: AssistantName = "claude"): Promise<Session> {
  const p = await initialized();
  const s = standIns();
  const notify = fakeNotifySend();
  const wait = join(s.records, "release");
  const env = testEnv(s.env({ STANDIN_WAIT_FILE: wait, PATH: `${s.bin}:${notify.dir}:${process.env.PATH}` }));
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, "summon", "engineer", "--assistant", assistant, "--persona", "Hephaestus"],
    { cwd: p.dir, env, stdio: "ignore" },
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  onTestFinished(() => {
    writeFileSync(wait, "");
    child.kill("SIGKILL");
  });
  await waitFor("the stand-in assistant to start", () => s.all().length === 1);
  const rec = s.one(assistant);
  const [mission] = await missions(p.dir);
  return {
    p,
    s,
    uid: rec.env.PANTHEON_LIVE!,
    mission,
    notifyLog: notify.log,
    env: { ...env, PANTHEON_MISSION: rec.env.PANTHEON_MISSION!, PANTHEON_LIVE: rec.env.PANTHEON_LIVE! },
    finish: async () => {
      writeFileSync(wait, "");
      return exited;
    },
  };
}

/** The hook as an assistant runs it: `pantheon hook event <assistant> <event>`, the payload on stdin. */
function hook(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  payload: unknown,
): { stdout: string; stderr: string; status: number | null } {
  const input = typeof payload === "string" ? payload : JSON.stringify(payload);
  const r = spawnSync(process.execPath, [BIN, "hook", "event", ...args], { cwd, env, input, encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

function statusOf(p: Repo, id: string): any {
  const r = runBin(["status", "--json"], { cwd: p.dir });
  expect(r.exitCode, r.stderr).toBe(0);
  return jsonData(r, "status").missions.find((m: any) => m.id === id);
}

function dashboardLive(p: Repo, id: string): any {
  const r = runBin(["dashboard", "--json"], { cwd: p.dir });
  return jsonData(r, "dashboard").missions.find((m: any) => m.id === id).live;
}

const SID = "0b9d6c1e-3f7a-4c2b-9e8d-1a2b3c4d5e6f";

describe("pantheon hook event → status, dashboard and notifications", () => {
  beforeAll(requireBundle);

  it("a claude session goes starting → working → needs-input → idle → ended as its hooks fire; status and dashboard --json show each state; notify-send is told of needs-input and idle", async () => {
    const x = await summoned("claude");
    const id = x.mission.id;
    expect(statusOf(x.p, id).live).toMatchObject({ state: "starting", assistant: "claude" });

    const steps: Array<[event: string, payload: Record<string, unknown>, state: string, detail: RegExp]> = [
      ["SessionStart", { source: "startup" }, "starting", /session started/],
      ["UserPromptSubmit", { prompt: "start" }, "working", /working on a prompt/],
      [
        "PreToolUse",
        { tool_name: "Bash", tool_input: { command: "pantheon task next" } },
        "working",
        /Bash: pantheon task next/,
      ],
      [
        "Notification",
        { notification_type: "permission_prompt", message: "Claude needs your permission to use Bash" },
        "needs-input",
        /needs your permission/,
      ],
      ["PostToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf build" } }, "working", /Bash: rm -rf build/],
      ["Stop", {}, "idle", /turn finished/],
      ["SessionEnd", { reason: "prompt_input_exit" }, "ended", /session ended/],
    ];
    for (const [event, payload, state, detail] of steps) {
      const r = hook(x.p.dir, x.env, ["claude", event], {
        session_id: SID,
        hook_event_name: event,
        cwd: x.p.dir,
        ...payload,
      });
      expect(r, `the hook prints nothing and exits 0 (${event})`).toEqual({ stdout: "", stderr: "", status: 0 });
      const st = statusOf(x.p, id);
      expect(st.live, event).toMatchObject({ state, sessionId: SID, assistant: "claude" });
      expect(st.live.detail).toMatch(detail);
      expect(dashboardLive(x.p, id), `dashboard --json after ${event}`).toMatchObject({ state, sessionId: SID });
    }
    const calls = readFileSync(x.notifyLog, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as string[]);
    expect(calls).toEqual([
      ["--app-name=pantheon", "--", "Hephaestus needs your input", "Claude needs your permission to use Bash"],
      ["--app-name=pantheon", "--", "Hephaestus is waiting for you", "turn finished; waiting for the Director"],
    ]);
    expect(await x.finish()).toBe(0);
    const ended = (await missions(x.p.dir)).find((m) => m.id === id);
    expect(ended.status).toBe("ENDED");
    expect(
      readdirSync(join(x.p.dir, ".git", "pantheon", "live")).filter((f) => f.startsWith(x.uid)),
      "summon removes its record; the live file keeps the end",
    ).toEqual([`${x.uid}.state`]);
    const live = JSON.parse(readFileSync(join(x.p.dir, ".git", "pantheon", "live", `${x.uid}.state`), "utf8"));
    expect(live.history.map((h: any) => h.state)).toEqual([
      "starting",
      "working",
      "needs-input",
      "working",
      "idle",
      "ended",
    ]);
  });

  it("a permission prompt declined in claude or gemini, which send no event for it, does not stay needs-input: once the transcript moves on, status shows idle; an approval is unchanged", async () => {
    for (const [assistant, ask] of [
      ["claude", ["PermissionRequest", { tool_name: "Bash", tool_input: { command: "rm -rf build" } }]],
      ["gemini", ["Notification", { notification_type: "ToolPermission", message: "Confirm rm -rf build" }]],
    ] as const) {
      const x = await summoned(assistant);
      const transcript = join(tempDir("pantheon-transcript-"), "session.jsonl");
      writeFileSync(transcript, '{"type":"user"}\n');
      const send = (event: string, payload: object) =>
        hook(x.p.dir, x.env, [assistant, event], { session_id: SID, transcript_path: transcript, ...payload });
      send(ask[0], ask[1]);
      expect(statusOf(x.p, x.mission.id).live, assistant).toMatchObject({ state: "needs-input" });
      // The Director declines: the assistant writes the refusal to its transcript, and no hook runs.
      appendFileSync(transcript, '{"type":"user","message":"The user doesn\'t want to proceed"}\n');
      const declined = statusOf(x.p, x.mission.id).live;
      expect(declined, assistant).toMatchObject({ state: "idle" });
      expect(declined.detail).toMatch(/^the permission prompt was answered without running it/);
      send(assistant === "claude" ? "UserPromptSubmit" : "BeforeAgent", { prompt: "try another way" });
      expect(statusOf(x.p, x.mission.id).live).toMatchObject({ state: "working" });
      if (assistant === "gemini") {
        await x.finish();
        continue;
      }
      // Approved: the transcript stays still while the command runs; its end is an event.
      send(ask[0], ask[1]);
      expect(statusOf(x.p, x.mission.id).live).toMatchObject({ state: "needs-input" });
      send(assistant === "claude" ? "PostToolUse" : "AfterTool", { tool_name: "Bash" });
      appendFileSync(transcript, '{"type":"user","message":"done"}\n');
      expect(statusOf(x.p, x.mission.id).live).toMatchObject({ state: "working" });
      await x.finish();
    }
  });

  it("a session that names itself (codex): the hooks' session id is kept on the mission when it ends", async () => {
    const x = await summoned("codex");
    expect(x.mission.sessionId).toBeNull();
    hook(x.p.dir, x.env, ["codex", "SessionStart"], { session_id: "019a7c1e-thread", hook_event_name: "SessionStart" });
    expect(statusOf(x.p, x.mission.id)).toMatchObject({ sessionId: "019a7c1e-thread", live: { state: "starting" } });
    await x.finish();
    expect((await missions(x.p.dir)).find((m) => m.id === x.mission.id)).toMatchObject({
      status: "ENDED",
      sessionId: "019a7c1e-thread",
    });
  });

  it("pantheon.notify none: no desktop notification; status lists who waits longest first", async () => {
    const x = await summoned("claude");
    git(x.p.dir, "config", "pantheon.notify", "none");
    hook(x.p.dir, x.env, ["claude", "Stop"], { session_id: SID });
    expect(existsSync(x.notifyLog)).toBe(false);
    // A second mission, summoned by nobody here: listed last, its state unknown to this clone.
    runBin(["mission", "start", "--role", "tester", "--persona", "Artemis"], { cwd: x.p.dir });
    const text = runBin(["status"], { cwd: x.p.dir });
    expect(text.exitCode).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toBe("PERSONA\tROLE\tMISSION\tASSISTANT\tSTATE\tFOR\tDETAIL");
    expect(lines[1]).toMatch(/^Hephaestus\tengineer\tMSN-0001 [a-z]+-[a-z]+\tclaude\tidle\t\d+s\tturn finished/);
    expect(lines[2]).toMatch(/^Artemis\ttester\tMSN-0002 .*\tunknown\t\tnot summoned from this clone$/);
  });

  it("a working session silent for longer than pantheon.stallAfter is stalled, with the command that resumes or ends it", async () => {
    const x = await summoned("claude");
    hook(x.p.dir, x.env, ["claude", "PreToolUse"], {
      session_id: SID,
      tool_name: "Bash",
      tool_input: { command: "make" },
    });
    const file = join(x.p.dir, ".git", "pantheon", "live", `${x.uid}.state`);
    const live = JSON.parse(readFileSync(file, "utf8"));
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    writeFileSync(file, JSON.stringify({ ...live, since: old, lastEventAt: old }));
    expect(statusOf(x.p, x.mission.id).live.state, "the default is 15 minutes").toBe("working");
    git(x.p.dir, "config", "pantheon.stallAfter", "5");
    const st = statusOf(x.p, x.mission.id).live;
    expect(st).toMatchObject({
      state: "stalled",
      next: `pantheon summon --resume ${x.mission.id} (or pantheon mission end ${x.mission.id})`,
    });
    expect(st.detail).toMatch(/no event for 5 min while working \(last: Bash: make\)/);
    expect(runBin(["status"], { cwd: x.p.dir }).stdout).toContain(
      `stalled ${x.mission.id}: pantheon summon --resume ${x.mission.id}`,
    );
    expect(runBin(["dashboard"], { cwd: x.p.dir }).stdout).toContain(
      `stalled: pantheon summon --resume ${x.mission.id}`,
    );
    expect(dashboardLive(x.p, x.mission.id).state).toBe("stalled");
  });

  it("status --watch redraws on a hook event and rings the terminal (bell, OSC 9 and OSC 777) when a persona starts waiting", async () => {
    const x = await summoned("claude");
    const watcher = spawn(process.execPath, [BIN, "status", "--watch"], {
      cwd: x.p.dir,
      env: testEnv({ NO_COLOR: "1" }),
    });
    onTestFinished(() => void watcher.kill("SIGKILL"));
    let out = "";
    watcher.stdout.on("data", (d) => (out += d));
    await waitFor("the first frame", () => out.includes("starting"), 20_000);
    hook(x.p.dir, x.env, ["claude", "PermissionRequest"], {
      session_id: SID,
      tool_name: "Bash",
      tool_input: { command: "rm -rf \u001b[2J build" },
    });
    const seen = await waitFor(
      "the watch to redraw with needs-input",
      () => (out.includes("needs-input") ? out : undefined),
      20_000,
    );
    const notice = "Hephaestus needs your input: permission: Bash: rm -rf \\e[2J build";
    await waitFor("the notice", () => out.includes("\u0007\u001b]9;"));
    expect(out).toContain(`\u0007\u001b]9;${notice}\u0007\u001b]777;notify;Pantheon;${notice}\u0007`);
    expect(seen.split("\u0007").length, "one bell, not one per redraw of the first frame").toBeGreaterThan(1);
    watcher.kill("SIGINT");
  });
});

describe("dashboard --watch", () => {
  beforeAll(requireBundle);

  it("shows the live state, redraws on a hook event and rings the terminal when a persona becomes idle; pantheon.notify desktop alone keeps the terminal quiet", async () => {
    const x = await summoned("claude");
    const watch = (env: NodeJS.ProcessEnv = {}) => {
      const child = spawn(process.execPath, [BIN, "dashboard", "--watch"], {
        cwd: x.p.dir,
        env: testEnv({ NO_COLOR: "1", ...env }),
      });
      onTestFinished(() => void child.kill("SIGKILL"));
      const seen = { out: "" };
      child.stdout.on("data", (d) => (seen.out += d));
      return { child, seen };
    };
    const a = watch();
    await waitFor(
      "the first frame",
      () => a.seen.out.includes("Hephaestus") && a.seen.out.includes("starting"),
      20_000,
    );
    hook(x.p.dir, x.env, ["claude", "Stop"], { session_id: SID });
    await waitFor("the redraw with idle", () => /Hephaestus .* idle turn finished/.test(a.seen.out), 20_000);
    await waitFor(
      "the notice",
      () =>
        a.seen.out.includes(
          "\u0007\u001b]9;Hephaestus is waiting for you: turn finished; waiting for the Director\u0007",
        ),
      20_000,
    );
    a.child.kill("SIGINT");

    git(x.p.dir, "config", "pantheon.notify", "desktop");
    const b = watch();
    await waitFor("the first frame", () => b.seen.out.includes("idle"), 20_000);
    hook(x.p.dir, x.env, ["claude", "UserPromptSubmit"], {});
    hook(x.p.dir, x.env, ["claude", "PermissionRequest"], { tool_name: "Bash" });
    await waitFor("the redraw with needs-input", () => b.seen.out.includes("needs-input"), 20_000);
    expect(b.seen.out, "no bell with pantheon.notify desktop").not.toContain("\u0007");
    b.child.kill("SIGINT");
  });
});

describe("pantheon hook event never fails the assistant", () => {
  beforeAll(requireBundle);

  it("garbage, huge or empty stdin, an unknown event, no PANTHEON_LIVE, a foreign PANTHEON_LIVE: exit 0, nothing printed", async () => {
    const x = await summoned("claude");
    const cases: Array<[string[], unknown, NodeJS.ProcessEnv]> = [
      [["claude", "PreToolUse"], "not json {{{", x.env],
      [["claude", "PreToolUse"], "x".repeat(3 * 1024 * 1024), x.env],
      [["claude", "PreToolUse"], "", x.env],
      [["claude"], { hook_event_name: "\u001b[31mEvil" }, x.env],
      [[], "[]", x.env],
      [["claude", "Stop"], {}, { ...x.env, PANTHEON_LIVE: "../../../etc/passwd" }],
      [["claude", "Stop"], {}, { ...x.env, PANTHEON_LIVE: "ffffffffffffffff" }],
      [["claude", "Stop"], {}, testEnv()],
    ];
    for (const [args, payload, env] of cases)
      expect(hook(x.p.dir, env, args, payload), JSON.stringify(args)).toEqual({ stdout: "", stderr: "", status: 0 });
    expect(readdirSync(join(x.p.dir, ".git", "pantheon", "live")).filter((f) => !f.startsWith(x.uid))).toEqual([]);
    // Garbage stdin still says which event fired: the event name alone sets the state.
    expect(statusOf(x.p, x.mission.id).live.state).toBe("working");
  });

  it("outside a repository, or with a broken common dir: exit 0, nothing printed; a failed write is logged in the live folder", async () => {
    const x = await summoned("claude");
    const outside = tempDir("pantheon-no-repo-");
    expect(hook(outside, x.env, ["claude", "Stop"], {})).toEqual({ stdout: "", stderr: "", status: 0 });
    const broken = tempDir("pantheon-broken-");
    writeFileSync(join(broken, ".git"), "gitdir: /nonexistent/path\n");
    expect(hook(broken, x.env, ["claude", "Stop"], {})).toEqual({ stdout: "", stderr: "", status: 0 });
    // The live file cannot be written (a directory stands in its place): logged, not shown.
    const state = join(x.p.dir, ".git", "pantheon", "live", `${x.uid}.state`);
    rmSync(state, { force: true });
    mkdirSync(join(state, "blocker"), { recursive: true });
    expect(hook(x.p.dir, x.env, ["claude", "Stop"], { session_id: SID })).toEqual({
      stdout: "",
      stderr: "",
      status: 0,
    });
    expect(readFileSync(join(x.p.dir, ".git", "pantheon", "live", "hook.log"), "utf8")).toMatch(
      /hook event \["claude","Stop"\]: .*(EISDIR|ENOTEMPTY|EEXIST|directory)/,
    );
  });

  it("stdin left open (a terminal, or a pipe never closed) does not hold the assistant", async () => {
    const x = await summoned("claude");
    const child = spawn(process.execPath, [BIN, "hook", "event", "claude", "Stop"], {
      cwd: x.p.dir,
      env: x.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.write(JSON.stringify({ session_id: SID }));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(statusOf(x.p, x.mission.id).live.state).toBe("idle");
  });
});
