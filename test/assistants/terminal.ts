import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A real pseudo-terminal for an assistant's interactive mode: one detached tmux session on a
 * private socket (`tmux -L`), 160×50. The command runs through a small script that loads its
 * environment from a file and then `exec`s, so the pane's process is the program itself, as in
 * a terminal window. Screens are read with `capture-pane`; waits poll it, bounded, never sleep.
 */
export class Terminal {
  private readonly socket = `pantheon-real-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private alive = false;

  constructor(private readonly scratch: string) {}

  start(cwd: string, env: Record<string, string>, argv: string[]): void {
    const envFile = join(this.scratch, `env-${this.socket}.sh`);
    const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    writeFileSync(
      envFile,
      `${Object.entries(env)
        .map(([k, v]) => `export ${k}=${q(v)}`)
        .join("\n")}\ncd ${q(cwd)}\nexec ${argv.map(q).join(" ")}\n`,
    );
    const conf = join(this.scratch, `tmux-${this.socket}.conf`);
    // remain-on-exit: a program that exits at once (a refused start) leaves its last words on screen.
    writeFileSync(conf, "set -g history-limit 5000\nset -g remain-on-exit on\n");
    this.tmux("-f", conf, "new-session", "-d", "-x", "160", "-y", "50", `exec /bin/sh ${q(envFile)}`);
    this.alive = true;
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** The screen and its scrollback, lines joined. Empty once the session is gone. */
  screen(): string {
    if (!this.alive) return "";
    try {
      return this.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "0");
    } catch {
      return "";
    }
  }

  /**
   * Appends everything the program writes to its terminal, raw (bells and OSC sequences
   * included, which the screen does not show), to `file`.
   */
  record(file: string): void {
    this.tmux("pipe-pane", "-o", "-t", "0", `cat >> '${file.replace(/'/g, "'\\''")}'`);
  }

  /** tmux key names: Enter, Escape, C-c. */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "0", ...keys);
  }

  /** Types text literally (no key names). */
  type(text: string): void {
    this.tmux("send-keys", "-t", "0", "-l", text);
  }

  /**
   * Types `text` and presses Enter once it is on the screen; presses Enter again (bounded) while
   * `sent` says nothing happened: a TUI busy redrawing can drop a key.
   */
  async submit(text: string, sent: () => boolean, timeoutMs = 60_000): Promise<void> {
    this.type(text);
    await this.until(`"${text}" on the screen`, () => this.screen().includes(text), 20_000);
    const deadline = Date.now() + timeoutMs;
    for (let tries = 0; tries < 5 && Date.now() < deadline; tries++) {
      this.keys("Enter");
      const wait = Date.now() + 8_000;
      while (Date.now() < wait) {
        if (sent()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await this.until(`"${text}" to be submitted`, () => sent(), Math.max(1, deadline - Date.now()));
  }

  /** Polls until `check` returns something, or fails with the screen in the message. */
  async until<T>(
    what: string,
    check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
    timeoutMs = 60_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen was:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Closes the terminal as a user closing the window does: the pane's processes get SIGHUP. */
  close(): void {
    if (!this.alive) return;
    this.alive = false;
    spawnSync("tmux", ["-L", this.socket, "kill-server"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  }
}

/**
 * codex asks once to trust the session's hooks: the Director answers in its terminal ("Trust all
 * and continue"). A key sent while codex is still drawing the dialog can be lost (seen on a loaded
 * machine), so the answer is sent again while the dialog stays on the screen.
 */
export function trustHooks(t: Terminal, trust: { at: number }): void {
  const screen = t.screen();
  if (!/Hooks need review/.test(screen) || !/Trust all and continue/.test(screen)) return;
  if (Date.now() - trust.at < 2_000) return;
  trust.at = Date.now();
  t.keys("2");
  t.keys("Enter");
}
