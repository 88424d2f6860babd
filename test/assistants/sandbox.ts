/**
 * A one-shot harness for checks that run an assistant's own subcommands (`claude mcp list`),
 * beside the terminal harness (world.ts): a temporary HOME and a temporary git repository as the
 * working directory, an environment built from nothing (no key or login can reach the program),
 * stdin from /dev/null, and a hard timeout. Each run is its own process group, so that a program
 * which spawns helpers can be stopped whole.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommandFile } from "../../src/assistants/adapter.js";

export interface Sandbox {
  root: string;
  home: string;
  repo: string;
  env(binDir: string, extra?: Record<string, string>): Record<string, string>;
  install(files: CommandFile[]): void;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "pantheon-real-"));
  const home = join(root, "home");
  const repo = join(root, "repo");
  for (const d of [home, repo, join(root, "tmp")]) mkdirSync(d, { recursive: true });
  const git = spawnSync("git", ["init", "-q", repo], {
    env: { PATH: "/usr/bin:/bin", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (git.status !== 0) throw new Error(`git init failed: ${git.stderr}`);
  return {
    root,
    home,
    repo,
    env: (binDir, extra = {}) => ({
      PATH: `${binDir}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      TERM: "dumb",
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_DATA_HOME: join(home, ".local/share"),
      XDG_CACHE_HOME: join(home, ".cache"),
      XDG_STATE_HOME: join(home, ".local/state"),
      // Keeps the programs' scratch files (claude-0/, codex-daemon-0/...) inside the sandbox.
      TMPDIR: join(root, "tmp"),
      ...extra,
    }),
    install(files) {
      for (const f of files) {
        const abs = join(repo, f.path);
        mkdirSync(dirname(abs), { recursive: true });
        writeFileSync(abs, f.content);
      }
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface RunResult {
  /** The exit code; 124 when the timeout stopped a program that was still running. */
  rc: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, codex's harmless PATH-aliases warning removed. */
  out: string;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutSec: number;
  /** Stop as soon as stdout contains a full line matching this (rc is then 124). */
  stopWhenLine?: RegExp;
}

export function run(command: string, args: string[], o: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let stopped = false;
    const stop = () => {
      if (stopped || child.pid === undefined) return;
      stopped = true;
      try {
        process.kill(-child.pid, "SIGKILL"); // the group we created, helpers included
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(stop, o.timeoutSec * 1000);
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (
        o.stopWhenLine &&
        stdout
          .split("\n")
          .slice(0, -1)
          .some((l) => o.stopWhenLine!.test(l))
      )
        stop();
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const out = `${stdout}\n${stderr}`.replace(
        /^WARNING: proceeding, even though we could not create PATH aliases.*\n?/gm,
        "",
      );
      resolve({ rc: stopped ? 124 : (code ?? 128), stdout, stderr, out });
    });
  });
}

/** The last lines of a run, for an assertion message that explains itself. */
export function tail(r: RunResult, lines = 15): string {
  return `rc=${r.rc}\n${r.out.trim().split("\n").slice(-lines).join("\n")}`;
}
