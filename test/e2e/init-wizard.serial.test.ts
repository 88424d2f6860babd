import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { missingTool, titled } from "../helpers/tools.js";
import { makeRepo, readStateFile, stateRef, tempDir } from "../helpers/repo.js";
import { AGENT_MARKERS } from "../../src/cli/interactive.js";

/**
 * Issue 4, item 1 and its acceptance: `pantheon init` typed in a real terminal. A detached tmux
 * pane on a private socket runs the built bundle with CI and the assistant markers unset; keys
 * are sent one question at a time, each after the screen shows that question (bounded polling of
 * `capture-pane -p`, no fixed sleeps).
 */

const noTmux = missingTool("tmux", "the init wizard in a real terminal");
if (noTmux) console.warn(`init-wizard.serial.test.ts skipped: ${noTmux}`);

/** Every marker that turns prompting off: unset, so the pane is a person at a terminal. */
const MARKERS = AGENT_MARKERS;

/** One detached tmux session on a private socket, removed when the test finishes. */
class Pane {
  private readonly socket = `pantheon-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly env: NodeJS.ProcessEnv;
  readonly rcFile: string;

  constructor(readonly cwd: string) {
    const scratch = tempDir("pantheon-tmux-");
    this.rcFile = join(scratch, "rc");
    const env = testEnv({ TERM: "xterm-256color" });
    for (const k of MARKERS) delete env[k];
    delete env.TMUX;
    this.env = env;
    const conf = join(scratch, "tmux.conf");
    writeFileSync(conf, "set -g remain-on-exit on\nset -g history-limit 2000\n");
    const unset = MARKERS.flatMap((k) => ["-u", k]).join(" ");
    const command = `env ${unset} '${process.execPath}' '${BIN}' init; echo $? > '${this.rcFile}'`;
    this.tmux("-f", conf, "new-session", "-d", "-x", "120", "-y", "40", "-c", cwd, command);
    onTestFinished(() => {
      spawnSync("tmux", ["-L", this.socket, "kill-server"], { env: this.env });
    });
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], {
      env: this.env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-");
  }

  /** Sends tmux key names (Enter, Up, Space, C-c). */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "0", ...keys);
  }

  /** Types text literally. */
  type(text: string): void {
    this.tmux("send-keys", "-t", "0", "-l", text);
  }

  async waitFor(re: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen();
      if (re.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${re}); the screen was:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The exit code of `pantheon init`, once it has exited. */
  async exitCode(timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (existsSync(this.rcFile)) {
        const text = readFileSync(this.rcFile, "utf8");
        if (text.endsWith("\n")) return Number(text.trim());
      }
      if (Date.now() > deadline) throw new Error(`pantheon init did not exit; the screen was:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe.skipIf(noTmux !== null)(titled("pantheon init in a real terminal", noTmux), () => {
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
  });

  it("asks the five questions in order and stores the answers typed", async () => {
    const dir = makeRepo();
    // The manifest gives the type and the description: both are the defaults.
    writeFileSync(join(dir, "Cargo.toml"), '[package]\nname = "demo"\ndescription = "Made in a real terminal"\n');
    const pane = new Pane(dir);

    await pane.waitFor(/\? Project name/, "the project name question");
    pane.type("Wizard Demo");
    pane.keys("Enter");

    await pane.waitFor(/\? Project type[\s\S]*❯ rust/, "the project type question, on the detected default");
    pane.keys("Enter");

    await pane.waitFor(
      /\? Description \(Made in a real terminal\)/,
      "the description question, Cargo.toml's the default",
    );
    pane.keys("Enter");

    // Always-on features are a note in the question, not boxes that cannot be unticked.
    const features = await pane.waitFor(/\? Features to enable[\s\S]*daemon naming/, "the features question");
    expect(features).toContain("(task management and mission tracking are always on)");
    expect(features).not.toMatch(/◉ task management|◉ mission tracking/);
    pane.keys("Down");
    await pane.waitFor(/❯\s*◉ daemon naming/, "the cursor on daemon naming");
    pane.keys("Space");
    await pane.waitFor(/❯\s*◯ daemon naming/, "daemon naming unchecked");
    pane.keys("Enter");

    await pane.waitFor(/\? Persona roles to include[\s\S]*operator/, "the roles question");
    pane.keys("Down", "Down", "Down", "Down");
    await pane.waitFor(/❯\s*◉ documentarian/, "the cursor on documentarian");
    pane.keys("Space");
    await pane.waitFor(/❯\s*◯ documentarian/, "documentarian unchecked");
    pane.keys("Down", "Down");
    await pane.waitFor(/❯\s*◉ operator/, "the cursor on operator");
    pane.keys("Space");
    await pane.waitFor(/❯\s*◯ operator/, "operator unchecked");
    pane.keys("Enter");

    const screen = await pane.waitFor(/✓ Initialized Pantheon for "Wizard Demo"/, "the ✓ line");
    expect(await pane.exitCode()).toBe(0);
    const questions = [
      ...screen.matchAll(/^✔ (Project name|Project type|Description|Features to enable|Persona roles to include)/gm),
    ].map((m) => m[1]);
    expect(questions, `five questions, in order, no more; the screen was:\n${screen}`).toEqual([
      "Project name",
      "Project type",
      "Description",
      "Features to enable",
      "Persona roles to include",
    ]);

    const project = JSON.parse(readStateFile(dir, "project.json"));
    expect(project).toMatchObject({
      name: "Wizard Demo",
      type: "rust",
      description: "Made in a real terminal",
      features: { pmSystem: true, sessionTracking: true, commitGuidelines: true, daemonNaming: false },
      roles: ["administrator", "architect", "engineer", "tester", "inspector"],
    });
    expect(readdirSync(join(dir, ".pantheon", "personas")).sort()).toEqual([
      "administrator.md",
      "architect.md",
      "engineer.md",
      "inspector.md",
      "tester.md",
    ]);
    expect(existsSync(join(dir, ".pantheon", "procedures", "commit-guidelines.md"))).toBe(true);
  });

  it("Ctrl-C at the first question exits 130 and writes nothing", async () => {
    const dir = makeRepo();
    const pane = new Pane(dir);
    await pane.waitFor(/\? Project name/, "the project name question");
    pane.type("Half typed");
    pane.keys("C-c");
    expect(await pane.exitCode()).toBe(130);
    expect(stateRef(dir), "no state ref").toBeNull();
    expect(existsSync(join(dir, ".pantheon")), "no .pantheon/").toBe(false);
    expect(existsSync(join(dir, "AGENTS.md")), "no AGENTS.md").toBe(false);
    expect(pane.screen(), "no stack trace").not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });

  it("with CI set, even a real terminal gets no prompt: exit 2 and nothing written", async () => {
    const dir = makeRepo();
    const scratch = tempDir("pantheon-tmux-");
    const rc = join(scratch, "rc");
    const socket = `pantheon-test-ci-${process.pid}`;
    const env = testEnv({ TERM: "xterm-256color", CI: "true" });
    delete env.TMUX;
    onTestFinished(() => void spawnSync("tmux", ["-L", socket, "kill-server"], { env }));
    writeFileSync(join(scratch, "tmux.conf"), "set -g remain-on-exit on\n");
    execFileSync(
      "tmux",
      [
        "-L",
        socket,
        "-f",
        join(scratch, "tmux.conf"),
        "new-session",
        "-d",
        "-x",
        "120",
        "-y",
        "40",
        "-c",
        dir,
        `env CI=true '${process.execPath}' '${BIN}' init; echo $? > '${rc}'`,
      ],
      { env },
    );
    const deadline = Date.now() + 20_000;
    while (!(existsSync(rc) && readFileSync(rc, "utf8").endsWith("\n"))) {
      if (Date.now() > deadline) throw new Error("init did not exit under CI=true");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Number(readFileSync(rc, "utf8").trim())).toBe(2);
    expect(stateRef(dir)).toBeNull();
  });
});
