import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { missingTool, titled } from "../helpers/tools.js";
import { git, makeRepo, stateRef, tempDir } from "../helpers/repo.js";
import { AGENT_MARKERS } from "../../src/cli/interactive.js";

/**
 * `pantheon doctor --recover` typed in a real terminal (issue 12 point 8): it lists the states,
 * asks which one (the newest preselected), confirms, and restores; declining changes nothing.
 * A detached tmux pane on a private socket, keys sent after the screen shows each question.
 */

const noTmux = missingTool("tmux", "doctor --recover at a terminal");
/** Every marker that turns prompting off: unset, so the pane is a person at a terminal. */
const MARKERS = AGENT_MARKERS;
const REF = "refs/coordination/main";

class Pane {
  private readonly socket = `pantheon-recover-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly env: NodeJS.ProcessEnv;
  readonly rcFile: string;

  constructor(cwd: string, args: string) {
    const scratch = tempDir("pantheon-tmux-");
    this.rcFile = join(scratch, "rc");
    const env = testEnv({ TERM: "xterm-256color" });
    for (const k of MARKERS) delete env[k];
    delete env.TMUX;
    this.env = env;
    const conf = join(scratch, "tmux.conf");
    writeFileSync(conf, "set -g remain-on-exit on\nset -g history-limit 2000\n");
    const unset = MARKERS.flatMap((k) => ["-u", k]).join(" ");
    this.tmux(
      "-f",
      conf,
      "new-session",
      "-d",
      "-x",
      "160",
      "-y",
      "40",
      "-c",
      cwd,
      `env ${unset} '${process.execPath}' '${BIN}' ${args}; echo $? > '${this.rcFile}'`,
    );
    onTestFinished(() => void spawnSync("tmux", ["-L", this.socket, "kill-server"], { env: this.env }));
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], {
      env: this.env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "0", ...keys);
  }

  async waitFor(re: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = this.tmux("capture-pane", "-p", "-J", "-S", "-");
      if (re.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${re}); the screen was:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async exitCode(timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (existsSync(this.rcFile) && readFileSync(this.rcFile, "utf8").endsWith("\n"))
        return Number(readFileSync(this.rcFile, "utf8").trim());
      if (Date.now() > deadline) throw new Error("pantheon did not exit");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function lostRef(): { dir: string; tip: string; older: string } {
  const dir = makeRepo();
  expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
  for (const t of ["One", "Two", "Three"])
    expect(runBin(["task", "create", "--title", t, "--role", "engineer"], { cwd: dir }).exitCode).toBe(0);
  const tip = stateRef(dir)!;
  const older = git(dir, "rev-parse", `${tip}~1`).trim();
  git(dir, "update-ref", "-d", REF);
  return { dir, tip, older };
}

describe.skipIf(noTmux !== null)(titled("doctor --recover at a terminal", noTmux), () => {
  it("asks which state, the newest first and preselected, confirms, and restores the one chosen", async () => {
    const { dir, tip, older } = lostRef();
    const pane = new Pane(dir, "doctor --recover");
    await pane.waitFor(
      new RegExp(`Restore refs/coordination/main to which state\\?[\\s\\S]*❯ ${tip.slice(0, 12)}`),
      "the question, on the newest state",
    );
    pane.keys("Down");
    await pane.waitFor(new RegExp(`❯ ${older.slice(0, 12)}`), "the cursor on the older state");
    pane.keys("Enter");
    await pane.waitFor(new RegExp(`Restore the state of ${older.slice(0, 12)} as a new commit\\?`), "the confirmation");
    pane.keys("Enter");
    await pane.waitFor(
      new RegExp(`✓ Restored refs/coordination/main to the state of ${older.slice(0, 12)}`),
      "the ✓ line",
    );
    expect(await pane.exitCode()).toBe(0);
    expect(git(dir, "rev-parse", `${REF}^`).trim()).toBe(older);
  });

  it("declining changes nothing (exit 130)", async () => {
    const { dir, tip } = lostRef();
    const pane = new Pane(dir, "doctor --recover");
    await pane.waitFor(new RegExp(`❯ ${tip.slice(0, 12)}`), "the question");
    pane.keys("Enter");
    await pane.waitFor(/as a new commit\?/, "the confirmation");
    pane.keys("n", "Enter");
    expect(await pane.exitCode()).toBe(130);
    expect(stateRef(dir)).toBeNull();
  });
});
