import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN, jsonData, runCli } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { missingTool, titled } from "../helpers/tools.js";
import { tempDir } from "../helpers/repo.js";
import { initialized, type Repo } from "../integration/persona/fixture.js";
import { missions, requireBundle, standIns, waitFor, type StandIns } from "../integration/persona/stand-ins.js";

/**
 * Issue 13, point 3 (DESIGN §5): `summon` ends its mission however the session ends. Closing the
 * terminal (a real tmux pane killed) and SIGTERM are forwarded to the assistant and the mission is
 * ENDED within seconds; a summon that dies without ending it (SIGKILL) leaves a summon record
 * that the dashboard and `doctor` show as stalled, and `doctor --fix` ends it.
 */

const noTmux = missingTool("tmux", "closing the terminal of a summoned session");

function liveFiles(p: Repo): string[] {
  try {
    return readdirSync(join(p.dir, ".git", "pantheon", "live")).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
}

/** The built bundle's summon as a real process, its stand-in assistant waiting (bounded) to be told to exit. */
function startSummon(
  p: Repo,
  s: StandIns,
  env: Record<string, string>,
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, "summon", "engineer", "--assistant", "claude"], {
    cwd: p.dir,
    env: testEnv(s.env({ STANDIN_WAIT_FILE: join(s.records, "never"), ...env })),
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  onTestFinished(() => {
    for (const r of s.all()) {
      try {
        process.kill(r.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    child.kill("SIGKILL");
  });
  return { child, exited };
}

async function activeMission(p: Repo, s: StandIns): Promise<any> {
  await waitFor("the stand-in assistant to start", () => s.all().length === 1);
  const [m] = await missions(p.dir);
  expect(m.status).toBe("ACTIVE");
  return m;
}

describe("summon ends its mission on every way the session ends", () => {
  beforeAll(requireBundle);

  it.skipIf(noTmux !== null)(
    titled("closing the terminal (tmux kill-session) forwards the hangup and ends the mission within seconds", noTmux),
    async () => {
      const p = await initialized();
      const s = standIns();
      const socket = `pantheon-sig-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
      const env = testEnv(
        s.env({ STANDIN_WAIT_FILE: join(s.records, "never"), STANDIN_TRAP: "record", TERM: "xterm-256color" }),
      );
      delete env.TMUX;
      const envFile = join(tempDir("pantheon-sig-"), "env");
      // The pane's command is pantheon itself (exec), as when a terminal runs it directly.
      writeFileSync(
        envFile,
        Object.entries(env)
          .map(([k, v]) => `export ${k}='${String(v).replace(/'/g, "'\\''")}'`)
          .join("\n"),
      );
      const tmux = (...args: string[]) =>
        execFileSync("tmux", ["-L", socket, ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      tmux(
        "new-session",
        "-d",
        "-x",
        "120",
        "-y",
        "30",
        "-c",
        p.dir,
        `. '${envFile}'; exec '${process.execPath}' '${BIN}' summon engineer --assistant claude`,
      );
      onTestFinished(() => void spawnSync("tmux", ["-L", socket, "kill-server"], { env }));
      const m = await activeMission(p, s);
      expect(liveFiles(p), "summon keeps a record while it runs").toHaveLength(1);

      tmux("kill-session", "-t", "0");
      const ended = await waitFor(
        "the mission to end after the terminal closed",
        async () => {
          const [x] = await missions(p.dir);
          return x.status === "ENDED" ? x : undefined;
        },
        20_000,
      );
      expect(ended.summary).toMatch(/the terminal was closed/);
      expect(s.signals(s.one("claude")), "the assistant heard the hangup").toContain("SIGHUP");
      // The record is removed right after the mission's commit (in that order: a crash between
      // them leaves a stalled record, never an ACTIVE mission without one).
      await waitFor("the summon record to go with the mission", () => liveFiles(p).length === 0);
      expect(m.number).toBe(ended.number);
    },
  );

  it("SIGTERM to summon is forwarded to the assistant first; then the mission ends and summon exits with the assistant's code", async () => {
    const p = await initialized();
    const s = standIns();
    const { child, exited } = startSummon(p, s, { STANDIN_TRAP: "record" });
    await activeMission(p, s);
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(s.signals(s.one("claude"))).toEqual(["SIGTERM"]);
    const [m] = await missions(p.dir);
    expect(m).toMatchObject({ status: "ENDED" });
    expect(m.summary).toMatch(/summon was stopped \(SIGTERM\); claude exited with code 143/);
    expect(liveFiles(p)).toEqual([]);
  });

  it("an assistant that ignores the forwarded signal is stopped harder, and the mission still ends", async () => {
    const p = await initialized();
    const s = standIns();
    const { child, exited } = startSummon(p, s, { STANDIN_TRAP: "ignore" });
    await activeMission(p, s);
    child.kill("SIGTERM");
    expect(await exited, "SIGKILL after SIGTERM twice").toBe(137);
    expect(s.signals(s.one("claude"))).toEqual(["SIGTERM", "SIGTERM"]);
    expect((await missions(p.dir))[0].status).toBe("ENDED");
  });
});

describe("a summon that died without ending its mission", () => {
  beforeAll(requireBundle);

  it("is shown stalled by the dashboard and doctor; doctor --fix ends it and only it", async () => {
    const p = await initialized();
    const s = standIns();
    const { child, exited } = startSummon(p, s, {});
    const m = await activeMission(p, s);
    await p.ok(["mission", "start", "--role", "tester", "--persona", "Artemis"]); // no summon: never judged
    child.kill("SIGKILL");
    await exited;
    process.kill(s.one("claude").pid, "SIGKILL"); // the orphaned assistant, as a closed terminal would take it

    const d = jsonData(await p.ok(["dashboard", "--json"]), "dashboard");
    const byId = Object.fromEntries(d.missions.map((x: any) => [x.id, x]));
    expect(byId[m.id].live).toMatchObject({ state: "stalled", assistant: "claude", host: hostname() });
    expect(byId[m.id].live.detail).toMatch(/summon process \(pid \d+ on .*\) is gone/);
    expect(byId["MSN-0002"].live, "a mission without a summon record here is not judged").toBeNull();
    const text = await p.ok(["dashboard"]);
    expect(text.stdout).toMatch(/STALLED its summon process \(pid \d+ on .*\) is gone/);
    expect(text.stdout).toContain(`stalled: pantheon summon --resume ${m.id} (or pantheon mission end ${m.id})`);

    const doctor = await p.run(["doctor"]);
    expect(doctor.exitCode, "a warning, not a broken state").toBe(0);
    expect(doctor.stdout).toContain(`${m.id} (${m.persona}) is ACTIVE, but its summon process`);
    expect(doctor.stdout).not.toMatch(/State is healthy/);

    const fix = await p.ok(["doctor", "--fix"]);
    expect(fix.stdout).toContain(`${m.id}: ended (its summon process was gone)`);
    const after = Object.fromEntries((await missions(p.dir)).map((x) => [x.id, x]));
    expect(after[m.id]).toMatchObject({
      status: "ENDED",
      summary: "ended by doctor --fix: its summon process was gone",
    });
    expect(after["MSN-0002"].status).toBe("ACTIVE");
    expect(liveFiles(p)).toEqual([]);
    expect((await p.ok(["doctor"])).stdout).toMatch(/State is healthy/);
  });

  it("a record naming a reused pid (another start time) is stalled; one from another host is never judged", async () => {
    const p = await initialized();
    const a = await p.json(["mission", "start", "--role", "engineer", "--persona", "Wayland"], "mission");
    const b = await p.json(["mission", "start", "--role", "engineer", "--persona", "Ptah"], "mission");
    const uid = (n: number) =>
      JSON.parse(
        execFileSync("git", ["cat-file", "-p", `refs/coordination/main:missions/0${n}/${n}.json`], {
          cwd: p.dir,
          encoding: "utf8",
        }),
      ).uid as string;
    const dir = join(p.dir, ".git", "pantheon", "live");
    const write = (n: number, host: string) => {
      mkdirSync(dir, { recursive: true });
      // This test process is alive, but it did not start at time "1": the pid was reused.
      writeFileSync(
        join(dir, `${uid(n)}.json`),
        JSON.stringify({
          mission: `MSN-000${n}`,
          uid: uid(n),
          host,
          pid: process.pid,
          processStart: "1",
          assistant: "codex",
          sessionId: null,
          since: new Date().toISOString(),
        }),
      );
    };
    write(1, hostname());
    write(2, "another-machine.example");
    const d = jsonData(await runCli(["dashboard", "--json"], { cwd: p.dir }), "dashboard");
    const live = Object.fromEntries(d.missions.map((x: any) => [x.id, x.live]));
    // Start times are read from /proc; elsewhere only the pid is compared.
    if (existsSync("/proc/self/stat")) expect(live[a.id].state).toBe("stalled");
    expect(live[b.id].state, "another host's process cannot be seen from here").toBe("starting");
  });
});
