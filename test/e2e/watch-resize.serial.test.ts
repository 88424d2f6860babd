import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { missingTool, titled } from "../helpers/tools.js";
import { makeRepo, tempDir } from "../helpers/repo.js";
import { requireBundle } from "../integration/persona/stand-ins.js";

/**
 * `dashboard --watch` and `status --watch` in a real terminal (a detached tmux pane on a private
 * socket) redraw at the new width when the terminal is resized (SIGWINCH), not at the next state
 * change or the 30 s refresh of durations.
 */

const noTmux = missingTool("tmux", "--watch in a resized terminal");
/** The watch's own refresh of durations (src/cli/watch.ts): a frame it draws is not a resize's. */
const REFRESH_MS = 30_000;

class Pane {
  private readonly socket = `pantheon-resize-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  readonly raw: string;

  constructor(cwd: string, args: string) {
    const scratch = tempDir("pantheon-tmux-");
    this.raw = join(scratch, "raw");
    writeFileSync(this.raw, "");
    const conf = join(scratch, "tmux.conf");
    writeFileSync(conf, "set -g remain-on-exit on\n");
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
      `exec env -u TMUX NO_COLOR=1 '${process.execPath}' '${BIN}' ${args}`,
    );
    // Everything the program writes to its terminal, raw: each frame starts by clearing the screen.
    this.tmux("pipe-pane", "-o", "-t", "0", `cat >> '${this.raw}'`);
    onTestFinished(() => void spawnSync("tmux", ["-L", this.socket, "kill-server"]));
  }

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], {
      env: testEnv({ TERM: "xterm-256color" }),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** The frames drawn so far, as written (ANSI included). */
  frames(): string[] {
    return existsSync(this.raw) ? readFileSync(this.raw, "utf8").split("\u001b[2J").slice(1) : [];
  }

  async until<T>(what: string, read: () => T | undefined, timeoutMs = 40_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = read();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; frames: ${this.frames().length}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

const plain = (frame: string) => frame.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").split(/\r?\n/);
/** The progress bar's width in a frame (the dashboard draws it 30 columns narrower than the terminal, 10 to 40). */
const bar = (frame: string) =>
  plain(frame)
    .find((l) => l.includes("░"))
    ?.match(/░+/)?.[0].length ?? 0;

/**
 * Resizes the pane and waits for a frame drawn at the new width. A frame the 30 s refresh drew
 * lands in the next window of REFRESH_MS: the resize is tried twice, and a redraw in the same
 * window as a resize must have come of it.
 */
async function redrawnOnResize(
  pane: Pane,
  widths: [number, number],
  drawn: (frame: string, width: number) => boolean,
): Promise<void> {
  for (const width of widths) {
    const before = pane.frames().length;
    const window = Math.floor(Date.now() / REFRESH_MS);
    pane.tmux("resize-window", "-t", "0", "-x", String(width), "-y", "40");
    await pane.until(`a frame ${width} columns wide`, () =>
      pane
        .frames()
        .slice(before)
        .find((f) => drawn(f, width)),
    );
    if (Math.floor(Date.now() / REFRESH_MS) === window) return;
  }
  throw new Error("the watch redrew only at its 30 s refresh, never on the resize itself");
}

describe.skipIf(noTmux !== null)(titled("--watch in a terminal that is resized", noTmux), () => {
  beforeAll(requireBundle);

  it("dashboard --watch redraws at the new width when the terminal is resized", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    const pane = new Pane(dir, "dashboard --watch");
    const first = await pane.until("the first frame", () => pane.frames().find((f) => bar(f) > 0));
    expect(bar(first), "the first frame is 160 columns wide").toBe(40);
    await redrawnOnResize(pane, [50, 55], (f, width) => bar(f) === width - 30);
  });

  it("status --watch redraws at the new width when the terminal is resized", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    const started = runBin(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], { cwd: dir });
    expect(started.exitCode).toBe(0);
    const pane = new Pane(dir, "status --watch");
    const persona = (f: string) => plain(f).find((l) => l.startsWith("Hephaestus")) ?? "";
    const first = await pane.until("the first frame", () => pane.frames().find((f) => persona(f) !== ""));
    expect(persona(first), "the first frame is 160 columns wide").toMatch(/not summoned from this clone$/);
    // The detail, cut at the new width.
    await redrawnOnResize(pane, [60, 70], (f) => persona(f).endsWith("…"));
  });
});
